// Builds the browser bundle (package export "./browser"): dist/browser/tpkit.js from
// src/browser.ts and tpkit-keys.js from src/browser-keys.ts (export "./browser/keys"), the
// code both use in one shared tpkit-chunk.js, what they import dynamically split into
// tpkit-*.js chunks beside them; and the
// miner's Web Worker dist/browser/miner-worker.js (self-contained), minified ES modules with
// source maps beside them, and the WASM binaries beside those as
// tpkit-scalar.wasm and tpkit-simd.wasm. Swaps: pool.node.js (worker_threads) becomes a
// module that throws, since the browser entry registers its own default pool; and two
// modules become their .web.ts twins (WEB_TWINS): wasm/binary.js (base64-embedded binaries)
// fetches the .wasm files instead, so neither script carries WASM, and crypto/secp256k1.js
// runs on @noble/secp256k1 instead of @noble/curves. The build fails if any Node built-in or any
// embedded binary is bundled, and prints each file's size minified and gzipped (an entry also
// with the chunks it imports statically: what a page fetches before the entry runs).

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { gzipSync } from 'node:zlib';
import { dirname, join, relative, sep } from 'node:path';
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

/** Modules with a browser twin beside them (name.web.ts), swapped in by their resolved path. */
const WEB_TWINS = {
  // base64-embedded WASM binaries -> fetched .wasm files
  'src/wasm/binary.js': 'src/wasm/binary.web.ts',
  // @noble/curves' secp256k1 -> @noble/secp256k1, same calls, a third of the bytes
  'src/crypto/secp256k1.js': 'src/crypto/secp256k1.web.ts',
};

const webTwins = {
  name: 'web-twins',
  setup(b) {
    b.onResolve({ filter: /(^|\/)(binary|secp256k1)\.js$/ }, (args) => {
      const twin = WEB_TWINS[relative(root, join(args.resolveDir, args.path)).split(sep).join('/')];
      return twin ? { path: join(root, twin) } : undefined;
    });
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
  plugins: [noNodePool, webTwins],
  // Browsers have a global WebSocket; the client loads the ws package only where there is none.
  external: ['ws'],
  logLevel: 'warning',
};
// Two builds: the worker stands alone (one request when a worker starts), while the bundle
// may split what it imports dynamically into chunks beside it, loaded on first use.
// The keys of the official wallets are a second entry (tpkit-keys.js, package export
// "./browser/keys"); what both entries use lands in one shared chunk that each imports, so
// the code exists once on a page and errors keep one class identity.
const main = await build({
  ...common,
  entryPoints: { tpkit: join(root, 'src/browser.ts'), 'tpkit-keys': join(root, 'src/browser-keys.ts') },
  splitting: true,
  // Names without a hash, so a page can preload the shared chunk (two chunks of one name fail the build).
  chunkNames: 'tpkit-[name]',
});
const worker = await build({ ...common, entryPoints: { 'miner-worker': join(root, 'src/pow/worker.web.ts') }, splitting: false });
const result = { metafile: { inputs: { ...main.metafile.inputs, ...worker.metafile.inputs }, outputs: { ...main.metafile.outputs, ...worker.metafile.outputs } } };

// TPKIT_BROWSER_METAFILE=FILE writes esbuild's metafile of the two entries: bytes per input.
if (process.env.TPKIT_BROWSER_METAFILE) writeFileSync(process.env.TPKIT_BROWSER_METAFILE, JSON.stringify(main.metafile));
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
const gzipped = (name) => gzipSync(readFileSync(join(outdir, name)), { level: 9 }).length;
/** An entry with the chunks it imports statically: what a page loads before the entry runs. */
const staticClosure = (name, seen = new Set()) => {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const imported of main.metafile.outputs[`dist/browser/${name}`]?.imports ?? []) {
    if (imported.kind === 'import-statement') staticClosure(imported.path.replace(/^dist\/browser\//, ''), seen);
  }
  return seen;
};
const sizes = ['tpkit.js', 'tpkit-keys.js', 'miner-worker.js', 'tpkit-scalar.wasm', 'tpkit-simd.wasm'].map((name) => {
  const bytes = readFileSync(join(outdir, name));
  const closure = name.endsWith('.js') ? [...staticClosure(name)] : [name];
  const withImports = closure.length > 1 ? ` (${kb(closure.reduce((sum, file) => sum + gzipped(file), 0))} gzip with ${closure.slice(1).join(', ')})` : '';
  return `${name} ${kb(bytes.length)}, ${kb(gzipSync(bytes, { level: 9 }).length)} gzip${withImports}`;
});
const chunks = readdirSync(outdir).filter((name) => /^tpkit-.*\.js$/.test(name) && name !== 'tpkit-keys.js');
console.log(`build-browser: dist/browser: ${sizes.join('; ')}; chunks: ${chunks.join(', ')}`);
