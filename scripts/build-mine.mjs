// Builds the `tpkit/mine` entry as one file, dist/src/pow/mine-standalone.js, from
// src/mine.ts: Node 20 spends about half a millisecond on each ES module it loads, and the
// miner is 34 of them, so importing it as separate files cost 25 - 30 ms of a wallet's first
// proof; as one file, 5 - 8 ms. Two modules stay outside, loaded from beside it:
//   - errors.js, so an error from the miner is `instanceof` the classes `tpkit` exports;
//   - piscina, which the pool requires on its first task (not at import).
// The file sits in dist/src/pow/ because the pool finds its worker (worker-entry.cjs) beside
// the module that creates it. The build fails if the bundle imports anything else.

import { build } from 'esbuild';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'src', 'pow', 'mine-standalone.js');
const errorsModule = join(root, 'src', 'errors.js');

const sharedErrors = {
  name: 'shared-errors',
  setup(b) {
    b.onResolve({ filter: /(^|\/)errors\.js$/ }, (args) => {
      if (join(args.resolveDir, args.path) !== errorsModule) return undefined;
      return { path: relative(dirname(outfile), join(root, 'dist', 'src', 'errors.js')), external: true };
    });
  },
};

const result = await build({
  entryPoints: [join(root, 'src', 'mine.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'none',
  plugins: [sharedErrors],
  logLevel: 'warning',
});

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports ?? []);
const unexpected = imports.filter((i) => i.path !== '../errors.js' && !NODE_BUILTINS.has(i.path));
if (unexpected.length > 0) throw new Error(`build-mine: the bundle imports ${unexpected.map((i) => i.path).join(', ')}; only ../errors.js and Node built-ins may stay outside`);
const inputs = Object.keys(result.metafile.inputs).length;
const bytes = result.metafile.outputs[relative(process.cwd(), outfile)]?.bytes;
console.log(`build-mine: ${relative(root, outfile)} (${inputs} modules in one file${bytes ? `, ${(bytes / 1024).toFixed(0)} KiB` : ''})`);
