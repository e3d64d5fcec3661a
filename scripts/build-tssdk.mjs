// Builds dist/src/tssdk-browser.js, the browser form of tpkit/tssdk (src/tssdk.web.ts): one
// minified ES module with the miner worker's text (dist/browser/miner-worker.js, so this runs
// after build-browser.mjs) and both kernels inside. Like the browser build, it swaps
// pool.node.js for a module that throws and takes the .web.ts twins of wasm/binary.js and
// crypto/secp256k1.js; it fails if a Node built-in is bundled, and prints the size gzipped.
// It sits in dist/src, not dist/browser, so the web pages' copy of dist/browser (dist/web)
// does not carry it; its source map leaves the sources out (they are in the package's src).

import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'src', 'tssdk-browser.js');
const workerFile = join(root, 'dist', 'browser', 'miner-worker.js');
if (!existsSync(workerFile)) {
  console.error('build-tssdk: dist/browser/miner-worker.js is missing: run npm run build:browser first');
  process.exit(1);
}
const workerSource = readFileSync(workerFile, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
const twins = { 'src/wasm/binary.js': 'src/wasm/binary.web.ts', 'src/crypto/secp256k1.js': 'src/crypto/secp256k1.web.ts' };

const browserSwaps = {
  name: 'browser-swaps',
  setup(b) {
    b.onResolve({ filter: /pool\.node\.js$/ }, (args) => ({ path: args.path, namespace: 'no-node-pool' }));
    b.onLoad({ filter: /.*/, namespace: 'no-node-pool' }, () => ({
      contents: "export const sharedMinerPool = () => { throw new Error('tpkit/tssdk: the Node worker pool is not in the browser build'); };",
      loader: 'js',
    }));
    b.onResolve({ filter: /(^|\/)(binary|secp256k1)\.js$/ }, (args) => {
      const twin = twins[relative(root, join(args.resolveDir, args.path)).split(sep).join('/')];
      return twin ? { path: join(root, twin) } : undefined;
    });
  },
};

const result = await build({
  entryPoints: [join(root, 'src/tssdk.web.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  legalComments: 'none',
  plugins: [browserSwaps],
  define: { TPKIT_MINER_WORKER_SOURCE: JSON.stringify(workerSource) },
  logLevel: 'warning',
});
const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const leaks = Object.entries(result.metafile.inputs).flatMap(([file, input]) => input.imports.filter((i) => nodeBuiltins.has(i.path)).map((i) => `${file} imports ${i.path}`));
if (leaks.length) {
  console.error(`build-tssdk: Node built-ins in the browser bundle:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
const bytes = readFileSync(outfile);
console.log(`build-tssdk: dist/src/tssdk-browser.js ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1)} KB gzip`);
