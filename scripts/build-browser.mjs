// Builds the browser bundle (package export "./browser"): dist/browser/tpkit.js from
// src/browser.ts (what it imports dynamically split into tpkit-*.js chunks beside it) and the
// miner's Web Worker dist/browser/miner-worker.js (self-contained), minified ES modules with
// source maps beside them, and the WASM binaries beside those as
// tpkit-scalar.wasm and tpkit-simd.wasm. Two swaps: pool.node.js (worker_threads) becomes a
// module that throws, since the browser entry registers its own default pool; and
// wasm/binary.js (base64-embedded binaries) becomes wasm/binary.web.ts, which fetches the
// .wasm files, so neither script carries WASM. The build fails if any Node built-in or any
// embedded binary is bundled, and prints each file's size minified and gzipped.

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'browser');
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

const noNodePool = {
  name: 'no-node-pool',
  setup(b) {
    b.onResolve({ filter: /pool\.node\.js$/ }, (args) => ({ path: args.path, namespace: 'no-node-pool' }));
    b.onLoad({ filter: /.*/, namespace: 'no-node-pool' }, () => ({
      contents: `const absent = () => { throw new Error('tpkit/browser: the Node worker pool is not in the browser build'); };
export const sharedMinerPool = absent, createMinerPool = absent, closeSharedMinerPool = absent, NodeMinerPool = absent;`,
      loader: 'js',
    }));
  },
};

/** asconfig.json's outputs, copied under the names src/wasm/binary.web.ts fetches. */
const BINARIES = { scalar: 'build/tpkit.wasm', simd: 'build/tpkit.simd.wasm' };

const fetchedBinaries = {
  name: 'fetched-binaries',
  setup(b) {
    b.onResolve({ filter: /(^|\/)binary\.js$/ }, (args) =>
      join(args.resolveDir, args.path) === join(root, 'src/wasm/binary.js') ? { path: join(root, 'src/wasm/binary.web.ts') } : undefined);
  },
};

// A fresh folder: chunk names carry a hash, and old ones would pile up.
rmSync(outdir, { recursive: true, force: true });

const common = {
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'none',
  plugins: [noNodePool, fetchedBinaries],
  // Browsers have a global WebSocket; the client loads the ws package only where there is none.
  external: ['ws'],
  logLevel: 'warning',
};
// Two builds: the worker stands alone (one request when a worker starts), while the bundle
// may split what it imports dynamically into chunks beside it, loaded on first use.
const main = await build({ ...common, entryPoints: { tpkit: join(root, 'src/browser.ts') }, splitting: true, chunkNames: 'tpkit-[name]-[hash]' });
const worker = await build({ ...common, entryPoints: { 'miner-worker': join(root, 'src/pow/worker.web.ts') }, splitting: false });
const result = { metafile: { inputs: { ...main.metafile.inputs, ...worker.metafile.inputs }, outputs: { ...main.metafile.outputs, ...worker.metafile.outputs } } };

const leaks = [];
for (const [file, input] of Object.entries(result.metafile.inputs)) {
  for (const imported of input.imports) if (NODE_BUILTINS.has(imported.path)) leaks.push(`${file} imports ${imported.path}`);
  if (file.includes('node_modules/ws/')) leaks.push(`${file} (the ws package) is bundled`);
  if (file.endsWith('.generated.ts') && !file.includes('constants')) leaks.push(`${file} (an embedded WASM binary) is bundled`);
}
if (leaks.length > 0) {
  console.error(`build-browser: Node built-ins or embedded WASM in the browser bundle:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
mkdirSync(outdir, { recursive: true });
for (const [flavor, file] of Object.entries(BINARIES)) copyFileSync(join(root, file), join(outdir, `tpkit-${flavor}.wasm`));

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = ['tpkit.js', 'miner-worker.js', 'tpkit-scalar.wasm', 'tpkit-simd.wasm'].map((name) => {
  const bytes = readFileSync(join(outdir, name));
  return `${name} ${kb(bytes.length)}, ${kb(gzipSync(bytes, { level: 9 }).length)} gzip`;
});
const chunks = readdirSync(outdir).filter((name) => /^tpkit-.*\.js$/.test(name));
console.log(`build-browser: dist/browser: ${sizes.join('; ')}; ${chunks.length} chunk${chunks.length === 1 ? '' : 's'} loaded on first use (${chunks.join(', ')})`);
