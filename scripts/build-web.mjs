// Builds dist/web: the wallet playground as self-contained static files. The page's own
// files are copied as written (plain ES modules, no build step of their own), and the
// browser bundle it imports is copied beside them under browser/, so the folder can be
// served from anywhere. `tpkit node` serves the same page at `/`.

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
mkdirSync(join(out, 'browser'), { recursive: true });

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
// The whole bundle folder: its two entry files and whatever they load (source maps, chunks).
let bytes = 0;
for (const name of readdirSync(bundle)) {
  const from = join(bundle, name);
  if (!statSync(from).isFile()) continue;
  copyFileSync(from, join(out, 'browser', name));
  bytes += statSync(from).size;
  copied.push(`browser/${name}`);
}
console.log(`build-web: dist/web (${copied.length} files, bundle ${(bytes / 1024).toFixed(0)} KiB): ${copied.join(', ')}`);
