import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
const root = process.cwd();
const plug = { name: 'p', setup(b) {
  b.onResolve({ filter: /pool\.node\.js$/ }, (a) => ({ path: a.path, namespace: 's' }));
  b.onLoad({ filter: /.*/, namespace: 's' }, () => ({ contents: 'export const sharedMinerPool=1,createMinerPool=1,closeSharedMinerPool=1,NodeMinerPool=1;', loader: 'js' }));
  b.onResolve({ filter: /(^|\/)binary\.js$/ }, (args) => join(args.resolveDir, args.path) === join(root, 'src/wasm/binary.js') ? { path: join(root, 'src/wasm/binary.web.ts') } : undefined);
} };
const entry = process.argv[2] ?? 'src/browser.ts';
const r = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, plugins: [plug], external: ['ws'], metafile: true, target: 'es2022' });
const out = r.outputFiles[0].contents;
console.log(entry, out.length, gzipSync(out, { level: 9 }).length);
const ins = Object.entries(r.metafile.outputs)[0][1].inputs;
const groups = {};
for (const [f, i] of Object.entries(ins)) { const g = f.includes('node_modules') ? f.split('/').slice(0, 3).join('/') : f.split('/').slice(0, 2).join('/'); groups[g] = (groups[g] ?? 0) + i.bytesInOutput; }
console.log(groups);
