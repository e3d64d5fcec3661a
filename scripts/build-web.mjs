// Builds dist/web: the wallet playground's static files, copied as written (plain ES
// modules, no build step of their own). The page imports the browser bundle as
// ./browser/tpkit.js, which is dist/browser itself, not a copy: `tpkit node` serves the page
// at `/` and dist/browser at `/browser/` (src/node/http/static.ts), and a server of your own
// maps `browser/` beside the page to dist/browser the same way. One tree of the bundle keeps
// the installed package small.

import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'web');
const bundle = join(root, 'dist', 'browser');
const out = join(root, 'dist', 'web');

const PAGE_FILES = /\.(html|js|css|svg|ico)$/;
const BUNDLE_FILES = ['tpkit.js', 'tpkit-keys.js', 'miner-worker.js', 'tpkit-scalar.wasm', 'tpkit-simd.wasm'];

for (const name of BUNDLE_FILES) {
  if (!existsSync(join(bundle, name))) {
    console.error(`build-web: ${join('dist', 'browser', name)} is missing; build the browser bundle first (node scripts/build-browser.mjs)`);
    process.exit(1);
  }
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const copied = [];
for (const name of readdirSync(source)) {
  if (!PAGE_FILES.test(name) || !statSync(join(source, name)).isFile()) continue;
  copyFileSync(join(source, name), join(out, name));
  copied.push(name);
}
if (!copied.includes('index.html')) {
  console.error('build-web: web/index.html is missing');
  process.exit(1);
}
console.log(`build-web: dist/web (${copied.length} files, the bundle served from dist/browser): ${copied.join(', ')}`);
