// Builds the browser bundle. The lean entry dist/browser/tpkit.js (package export
// "./browser/lean", from src/browser.ts) and tpkit-keys.js (export "./browser/keys", from
// src/browser-keys.ts) share the code both use in one tpkit-chunk.js, what they import
// dynamically split into tpkit-*.js chunks beside them; the miner's Web Worker
// dist/browser/miner-worker.js stands alone; the WASM binaries sit beside them as
// tpkit-scalar.wasm and tpkit-simd.wasm. The self-contained entry tpkit-inline.js (export
// "./browser", from src/browser-inline.ts) imports ./tpkit.js as it is and carries the
// worker's script as text (TPKIT_MINER_WORKER_SOURCE) and both binaries as base64, so a
// bundler that copies no asset still gets a miner that runs. All are minified ES modules
// with source maps. Swaps: pool.node.js (worker_threads) becomes a module that throws, since
// the browser entries register their own default pool; and two modules become their
// .web.ts twins (WEB_TWINS; pow/js-kernel.js too: the JS kernel becomes chunks loaded on first
// need): wasm/binary.js (base64-embedded binaries) becomes the kernel
// source each entry sets, and crypto/secp256k1.js runs on @noble/secp256k1 instead of
// @noble/curves. The build fails if any Node built-in is bundled, if an embedded binary
// gets anywhere but tpkit-inline.js, or if tpkit-inline.js imports anything but ./tpkit.js;
// it prints each file's size minified and gzipped (an entry also with the chunks it imports
// statically: what a page fetches before the entry runs).

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { BROWSER_MODULE, ROOT as root, nodeBuiltinImports, noNodePool as noNodePoolFor, webTwins as webTwinsFor, workerSourceText } from './browser-esbuild.mjs';

const outdir = join(root, 'dist', 'browser');
const noNodePool = noNodePoolFor('tpkit/browser');
const webTwins = webTwinsFor();

/** asconfig.json's outputs, copied under the names src/wasm/binary.web.ts fetches. */
const BINARIES = { scalar: 'build/tpkit.wasm', simd: 'build/tpkit.simd.wasm' };

// A fresh folder: chunk names carry a hash, and old ones would pile up.
rmSync(outdir, { recursive: true, force: true });

const common = {
  ...BROWSER_MODULE,
  outdir,
  plugins: [noNodePool, webTwins],
  // Browsers have a global WebSocket; the client loads the ws package only where there is none.
  external: ['ws'],
};
// Two builds: the worker stands alone (one request when a worker starts), while the bundle
// may split what it imports dynamically into chunks beside it, loaded on first use.
// The keys of the official wallets are a second entry (tpkit-keys.js, package export
// "./browser/keys"); what both entries use lands in one shared chunk that each imports, so
// the code exists once on a page and errors keep one class identity.
// The worker first: the self-contained entry carries its text.
const worker = await build({ ...common, entryPoints: { 'miner-worker': join(root, 'src/pow/worker.web.ts') }, splitting: false });
const main = await build({
  ...common,
  entryPoints: { tpkit: join(root, 'src/browser.ts'), 'tpkit-keys': join(root, 'src/browser-keys.ts') },
  splitting: true,
  // Names without a hash, so a page can preload the shared chunk (two chunks of one name fail the build).
  chunkNames: 'tpkit-[name]',
});
const workerSource = workerSourceText(join(outdir, 'miner-worker.js'));
/** The self-contained entry's import of src/browser.js is the built lean entry, ./tpkit.js, imported as it is. */
const leanAsExternal = {
  name: 'lean-as-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/browser\.js$/ }, (args) => (args.importer.endsWith('browser-inline.ts') ? { path: './tpkit.js', external: true } : undefined));
  },
};
const inline = await build({
  ...common,
  entryPoints: { 'tpkit-inline': join(root, 'src/browser-inline.ts') },
  splitting: false,
  plugins: [leanAsExternal, noNodePool, webTwins],
  define: { TPKIT_MINER_WORKER_SOURCE: JSON.stringify(workerSource) },
});
/** The SW build has no import() left: `ws` (loaded only where there is no global WebSocket) becomes a module that has none. */
const noWs = {
  name: 'no-ws',
  setup(b) {
    b.onResolve({ filter: /^ws$/ }, () => ({ path: 'ws', namespace: 'no-ws' }));
    b.onLoad({ filter: /.*/, namespace: 'no-ws' }, () => ({ contents: 'export const WebSocket = globalThis.WebSocket;', loader: 'js' }));
  },
};
// The service-worker-safe entry (package export "./browser/sw"): the self-contained entry as
// one file with nothing imported at run time. A service worker may not call import() (Chromium:
// "import() is disallowed on ServiceWorkerGlobalScope"), and without code splitting esbuild
// turns each dynamic import of our own modules into a lazily run part of the same file.
const sw = await build({
  ...common,
  entryPoints: { 'tpkit-sw': join(root, 'src/browser-inline.ts') },
  splitting: false,
  external: [],
  plugins: [noWs, noNodePool, webTwins],
  define: { TPKIT_MINER_WORKER_SOURCE: JSON.stringify(workerSource) },
});
const result = { metafile: { inputs: { ...main.metafile.inputs, ...worker.metafile.inputs }, outputs: { ...main.metafile.outputs, ...worker.metafile.outputs } } };

// TPKIT_BROWSER_METAFILE=FILE writes esbuild's metafile of the two entries: bytes per input.
if (process.env.TPKIT_BROWSER_METAFILE) writeFileSync(process.env.TPKIT_BROWSER_METAFILE, JSON.stringify(main.metafile));
const leaks = nodeBuiltinImports(result.metafile.inputs);
for (const file of Object.keys(result.metafile.inputs)) {
  if (file.includes('node_modules/ws/')) leaks.push(`${file} (the ws package) is bundled`);
  if (file.endsWith('.generated.ts') && !file.includes('constants')) leaks.push(`${file} (an embedded WASM binary) is bundled`);
}
const inlineInputs = Object.keys(inline.metafile.inputs);
for (const flavor of ['scalar', 'simd']) {
  if (!inlineInputs.some((file) => file.endsWith(`${flavor}.generated.ts`))) leaks.push(`tpkit-inline.js lacks the embedded ${flavor} binary`);
}
for (const [file, output] of Object.entries(inline.metafile.outputs)) {
  for (const imported of output.imports) if (imported.path !== './tpkit.js') leaks.push(`${file} imports ${imported.path}, not only ./tpkit.js`);
}
if (!inlineInputs.some((file) => file.endsWith('src/browser-inline.ts'))) leaks.push('tpkit-inline.js was not built from src/browser-inline.ts');
for (const [file, output] of Object.entries(sw.metafile.outputs)) {
  if (file.endsWith('.js') && output.imports.length > 0) leaks.push(`${file} imports ${output.imports.map((i) => i.path).join(', ')}: a service worker could not load it`);
}
if (/\bimport\s*\(/.test(readFileSync(join(outdir, 'tpkit-sw.js'), 'utf8'))) leaks.push('tpkit-sw.js calls import(), which a service worker refuses');
if (leaks.length > 0) {
  console.error(`build-browser: Node built-ins or embedded WASM in the browser bundle:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
mkdirSync(outdir, { recursive: true });
for (const [flavor, file] of Object.entries(BINARIES)) copyFileSync(join(root, file), join(outdir, `tpkit-${flavor}.wasm`));

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipped = (name) => gzipSync(readFileSync(join(outdir, name)), { level: 9 }).length;
/** An entry with the chunks it imports statically: what a page loads before the entry runs. */
const staticClosure = (name, seen = new Set()) => {
  if (seen.has(name)) return seen;
  seen.add(name);
  const outputs = { ...main.metafile.outputs, ...inline.metafile.outputs };
  for (const imported of outputs[`dist/browser/${name}`]?.imports ?? []) {
    if (imported.kind === 'import-statement') staticClosure(imported.path.replace(/^(dist\/browser\/|\.\/)/, ''), seen);
  }
  return seen;
};
const sizes = ['tpkit.js', 'tpkit-inline.js', 'tpkit-sw.js', 'tpkit-keys.js', 'miner-worker.js', 'tpkit-scalar.wasm', 'tpkit-simd.wasm'].map((name) => {
  const bytes = readFileSync(join(outdir, name));
  const closure = name.endsWith('.js') ? [...staticClosure(name)] : [name];
  const withImports = closure.length > 1 ? ` (${kb(closure.reduce((sum, file) => sum + gzipped(file), 0))} gzip with ${closure.slice(1).join(', ')})` : '';
  return `${name} ${kb(bytes.length)}, ${kb(gzipSync(bytes, { level: 9 }).length)} gzip${withImports}`;
});
const chunks = readdirSync(outdir).filter((name) => /^tpkit-.*\.js$/.test(name) && name !== 'tpkit-keys.js' && name !== 'tpkit-inline.js' && name !== 'tpkit-sw.js');
console.log(`build-browser: dist/browser: ${sizes.join('; ')}; chunks: ${chunks.join(', ')}`);
