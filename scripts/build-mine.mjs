// Builds the Node entries that a wallet imports before its first proof as one file each:
//   - `tpkit/mine`: dist/src/pow/mine-standalone.js, from src/mine.ts;
//   - `tpkit` (the package root): dist/src/index.js, from src/index.ts, written over the
//     TypeScript output of that one file (the declarations stay tsc's).
// Node 20 spends about half a millisecond on each ES module it loads, and the miner alone is
// 40 of them, so importing them as separate files cost 25 - 30 ms of a wallet's first proof;
// as one file, 5 - 8 ms. The root also holds the signing, curve, key and client code, whose
// heaviest dependencies (@noble/curves ~10 ms to evaluate, @noble/ciphers' AES tables ~5 ms,
// @scure/bip32 and bip39) are bundled as lazily evaluated modules: each is evaluated on the
// first call that needs it (still synchronously, so signTx stays synchronous), not at import.
// What stays outside each file, loaded from beside it:
//   - errors.js, so an error from either file is `instanceof` the classes the other exports;
//   - wasm/scalar.generated.js and wasm/simd.generated.js, the binaries as base64 (170 KB):
//     once in the package instead of once per bundle (two more modules, about 1 ms);
//   - piscina, which the pool requires on its first task (not at import);
//   - ws, which the live stream imports when it connects.
// The pool finds its worker (worker-entry.cjs in dist/src/pow/) from the bundle's place.
// The build fails if a bundle imports anything else.

import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const errorsModule = join(root, 'src', 'errors.js');
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** Loaded at run time by the code itself, never at import. */
const RUNTIME = new Set(['piscina', 'ws']);
/** Packages evaluated on first use in the root bundle (each export is a function or an object). */
const LAZY = ['@noble/curves/secp256k1.js', '@noble/ciphers/aes.js', '@scure/bip32', '@scure/bip39'];

/** A path from the bundle's folder to a file in dist/src, as an import specifier. */
const fromBundle = (outfile, ...parts) => {
  const path = relative(dirname(outfile), join(root, 'dist', 'src', ...parts));
  return path.startsWith('.') ? path : `./${path}`;
};

/** Modules every bundle loads from dist/src instead of carrying a copy: path under src/ -> under dist/src/. */
const SHARED = new Map([[errorsModule, ['errors.js']], ...['scalar', 'simd'].map((flavor) => [join(root, 'src', 'wasm', `${flavor}.generated.js`), ['wasm', `${flavor}.generated.js`]])]);

const sharedModules = (outfile) => ({
  name: 'shared-modules',
  setup(b) {
    b.onResolve({ filter: /(^|\/)(errors|scalar\.generated|simd\.generated)\.js$/ }, (args) => {
      const shared = SHARED.get(join(args.resolveDir, args.path));
      return shared ? { path: fromBundle(outfile, ...shared), external: true } : undefined;
    });
  },
});

/** The worker file sits in dist/src/pow/: a bundle elsewhere points the pool at it. */
const workerBeside = (outfile) => ({
  name: 'worker-beside',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]pow[\\/]pool\.node\.ts$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const rewritten = source.replace("'./worker-entry.cjs'", JSON.stringify(fromBundle(outfile, 'pow', 'worker-entry.cjs')));
      if (rewritten === source) throw new Error('build-mine: pool.node.ts no longer names ./worker-entry.cjs');
      return { contents: rewritten, loader: 'ts' };
    });
  },
});

/** The CommonJS file a LAZY package is bundled to, beside the root bundle: dist/src/vendor/<name>.cjs. */
const vendorFile = (spec) => join(root, 'dist', 'src', 'vendor', `${spec.replace(/^@/, '').replace(/\.js$/, '').replace(/[/]/g, '-')}.cjs`);

/**
 * Each LAZY package, imported from tpkit's sources, becomes a module whose exports stand in
 * for the package's: the first property read, call or `new` require()s the package's own
 * CommonJS bundle (vendorFile), so its text is neither read nor parsed before then, and
 * require() of CommonJS is synchronous on every Node version. Only functions and objects
 * can stand in; importing any other export of these fails the build.
 */
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    b.onResolve({ filter: /^@(noble|scure)\// }, (args) => {
      if (!LAZY.includes(args.path) || args.namespace === 'lazy' || !args.importer.startsWith(join(root, 'src'))) return undefined;
      return { path: args.path, namespace: 'lazy' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, async (args) => {
      const real = await import(args.path);
      const file = `./${relative(join(root, 'dist', 'src'), vendorFile(args.path))}`;
      const lines = [`import { createRequire } from 'node:module';`, `let loaded;`, `const load = () => (loaded ??= createRequire(import.meta.url)(${JSON.stringify(file)}));`];
      for (const [name, value] of Object.entries(real)) {
        if (typeof value === 'function') {
          lines.push(`export const ${name} = new Proxy(function () {}, {
  apply: (_, self, args) => Reflect.apply(load().${name}, self, args),
  construct: (_, args) => Reflect.construct(load().${name}, args),
  get: (_, key) => Reflect.get(load().${name}, key),
  has: (_, key) => Reflect.has(load().${name}, key),
});`);
        } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          lines.push(`export const ${name} = new Proxy({}, {
  get: (_, key) => Reflect.get(load().${name}, key),
  has: (_, key) => Reflect.has(load().${name}, key),
  ownKeys: () => Reflect.ownKeys(load().${name}),
  getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(load().${name}, key), configurable: true }),
});`);
        }
        // Other exports (numbers, arrays) have no stand-in: importing one fails this build.
      }
      return { contents: lines.join('\n'), loader: 'js', resolveDir: root };
    });
  },
};

async function bundle({ entry, outfile, lazy, minify }) {
  const result = await build({
    entryPoints: [join(root, 'src', entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    // Less text to read and parse before the first proof; names stay for stack traces.
    minifyWhitespace: minify,
    minifySyntax: minify,
    external: [...RUNTIME],
    plugins: [sharedModules(outfile), workerBeside(outfile), ...(lazy ? [lazyPackages] : [])],
    logLevel: 'warning',
  });
  const sharedPaths = new Set([...SHARED.values()].map((parts) => fromBundle(outfile, ...parts)));
  const allowed = (path) => sharedPaths.has(path) || NODE_BUILTINS.has(path) || RUNTIME.has(path);
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports ?? []);
  const unexpected = imports.filter((i) => !allowed(i.path));
  if (unexpected.length > 0)
    throw new Error(
      `build-mine: ${relative(root, outfile)} imports ${unexpected.map((i) => i.path).join(', ')}; only errors.js, the generated binaries, piscina, ws and Node built-ins may stay outside`,
    );
  const inputs = Object.keys(result.metafile.inputs).length;
  const bytes = result.metafile.outputs[relative(process.cwd(), outfile)]?.bytes;
  console.log(`build-mine: ${relative(root, outfile)} (${inputs} modules in one file${bytes ? `, ${(bytes / 1024).toFixed(0)} KiB` : ''})`);
}

await bundle({ entry: 'mine.ts', outfile: join(root, 'dist', 'src', 'pow', 'mine-standalone.js'), lazy: false, minify: false });
// The LAZY packages, each as one CommonJS file of its own (a package another imports is
// copied into it: @scure/bip32 carries its own @noble/curves).
for (const spec of LAZY) {
  await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(spec)});`, resolveDir: root, loader: 'js' },
    outfile: vendorFile(spec),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
}
await bundle({ entry: 'index.ts', outfile: join(root, 'dist', 'src', 'index.js'), lazy: true, minify: true });
