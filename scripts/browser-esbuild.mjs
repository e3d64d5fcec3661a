// What the browser builds share (build-browser.mjs for tpkit/browser, build-tssdk.mjs for the
// browser form of tpkit/tssdk): esbuild's options for a minified ES module, the swap of the
// Node worker pool for a module that throws, the .web.ts twins, and the check that no Node
// built-in was bundled.

import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Modules with a browser twin beside them (name.web.ts), swapped in by their resolved path. */
export const WEB_TWINS = {
  // base64-embedded WASM binaries -> fetched .wasm files
  'src/wasm/binary.js': 'src/wasm/binary.web.ts',
  // @noble/curves' secp256k1 -> @noble/secp256k1, same calls, a third of the bytes
  'src/crypto/secp256k1.js': 'src/crypto/secp256k1.web.ts',
  // the JS kernel statically imported -> a chunk loaded when WebAssembly is refused or missing
  'src/pow/js-kernel.js': 'src/pow/js-kernel.web.ts',
};

/** A plugin putting each module of `twins` (a subset of WEB_TWINS) under its twin. */
export function webTwins(twins = WEB_TWINS) {
  return {
    name: 'web-twins',
    setup(b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        const twin = twins[relative(ROOT, join(args.resolveDir, args.path)).split(sep).join('/')];
        return twin ? { path: join(ROOT, twin) } : undefined;
      });
    },
  };
}

/** A plugin replacing pool.node.js (worker_threads): the browser entries register their own pool. */
export function noNodePool(entry) {
  return {
    name: 'no-node-pool',
    setup(b) {
      b.onResolve({ filter: /pool\.node\.js$/ }, (args) => ({ path: args.path, namespace: 'no-node-pool' }));
      b.onLoad({ filter: /.*/, namespace: 'no-node-pool' }, () => ({
        contents: `const absent = () => { throw new Error('${entry}: the Node worker pool is not in the browser build'); };
export const sharedMinerPool = absent, createMinerPool = absent, closeSharedMinerPool = absent, NodeMinerPool = absent;`,
        loader: 'js',
      }));
    },
  };
}

/** esbuild's options for a minified browser ES module with a linked source map. */
export const BROWSER_MODULE = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
};

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Each import of a Node built-in among a metafile's inputs, as "file imports name". */
export function nodeBuiltinImports(inputs) {
  return Object.entries(inputs).flatMap(([file, input]) => input.imports.filter((i) => NODE_BUILTINS.has(i.path)).map((i) => `${file} imports ${i.path}`));
}

/** A built worker's text without its source-map comment, to embed in another bundle. */
export const workerSourceText = (file) => readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
