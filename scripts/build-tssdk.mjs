// Builds dist/src/tssdk-browser.js, the browser form of tpkit/tssdk (src/tssdk.web.ts): one
// minified ES module with the miner worker's text (dist/browser/miner-worker.js, so this runs
// after build-browser.mjs) and both kernels inside. Like the browser build, it swaps
// pool.node.js for a module that throws and takes the .web.ts twins of wasm/binary.js and
// crypto/secp256k1.js; it fails if a Node built-in is bundled, and prints the size gzipped.
// It sits in dist/src, not dist/browser, so the web pages' copy of dist/browser (dist/web)
// does not carry it; its source map leaves the sources out (they are in the package's src).

import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { BROWSER_MODULE, ROOT as root, WEB_TWINS, nodeBuiltinImports, noNodePool, webTwins, workerSourceText } from './browser-esbuild.mjs';

const outfile = join(root, 'dist', 'src', 'tssdk-browser.js');
const workerFile = join(root, 'dist', 'browser', 'miner-worker.js');
if (!existsSync(workerFile)) {
  console.error('build-tssdk: dist/browser/miner-worker.js is missing: run npm run build:browser first');
  process.exit(1);
}
// The JS kernel stays as it is: one file, no chunks to load.
const { 'src/pow/js-kernel.js': _chunked, ...twins } = WEB_TWINS;

const result = await build({
  ...BROWSER_MODULE,
  entryPoints: [join(root, 'src/tssdk.web.ts')],
  outfile,
  sourcesContent: false,
  plugins: [noNodePool('tpkit/tssdk'), webTwins(twins)],
  define: { TPKIT_MINER_WORKER_SOURCE: JSON.stringify(workerSourceText(workerFile)) },
});
const leaks = nodeBuiltinImports(result.metafile.inputs);
if (leaks.length) {
  console.error(`build-tssdk: Node built-ins in the browser bundle:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
const bytes = readFileSync(outfile);
console.log(`build-tssdk: dist/src/tssdk-browser.js ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KB gzip`);
