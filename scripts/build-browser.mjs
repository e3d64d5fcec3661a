// Builds the browser bundle (package export "./browser"): dist/browser/tpkit.js from
// src/browser.ts and the miner's Web Worker dist/browser/miner-worker.js, both plain ES
// modules. pool.node.js (worker_threads) is swapped for a module that throws, since the browser
// entry registers its own default pool; the build fails if any Node built-in is imported.

import { build } from 'esbuild';
import { builtinModules } from 'node:module';
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

const result = await build({
  entryPoints: { tpkit: join(root, 'src/browser.ts'), 'miner-worker': join(root, 'src/pow/worker.web.ts') },
  outdir,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  metafile: true,
  legalComments: 'none',
  plugins: [noNodePool],
  // Browsers have a global WebSocket; the client loads the ws package only where there is none.
  external: ['ws'],
  logLevel: 'warning',
});

const leaks = [];
for (const [file, input] of Object.entries(result.metafile.inputs)) {
  for (const imported of input.imports) if (NODE_BUILTINS.has(imported.path)) leaks.push(`${file} imports ${imported.path}`);
  if (file.includes('node_modules/ws/')) leaks.push(`${file} (the ws package) is bundled`);
}
if (leaks.length > 0) {
  console.error(`build-browser: Node built-ins in the browser bundle:\n  ${leaks.join('\n  ')}`);
  process.exit(1);
}
const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .map(([file, out]) => `${file.split('/').pop()} ${(out.bytes / 1024).toFixed(0)} KiB`);
console.log(`build-browser: dist/browser (${sizes.join(', ')})`);
