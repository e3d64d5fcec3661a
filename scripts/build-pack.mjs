#!/usr/bin/env node
// The last build step of `npm pack` and `npm publish` (prepack, after the full build): the
// shipped trees lose their source maps. They were more than half of the installed package
// (5.8 of 11 MB), and a wallet debugs its own code, not ours. package.json's `files` leaves
// *.map out of any tarball; this step also drops the `//# sourceMappingURL=` line of each
// shipped script, so no bundler or dev server warns about a map it cannot find. The
// checkout's next `npm run build` writes the maps again.

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The trees package.json's `files` ships. */
const SHIPPED = ['dist/src', 'dist/browser', 'dist/web'];
const MAP_LINE = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

let maps = 0;
let scripts = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(path);
    } else if (entry.name.endsWith('.map')) {
      rmSync(path);
      maps++;
    } else if (/\.(c|m)?js$/.test(entry.name)) {
      const text = readFileSync(path, 'utf8');
      const stripped = text.replace(MAP_LINE, '\n');
      if (stripped !== text) {
        writeFileSync(path, stripped);
        scripts++;
      }
    }
  }
}

for (const tree of SHIPPED) walk(join(root, tree));
console.log(`build-pack: ${maps} source maps removed, ${scripts} scripts no longer name one (${SHIPPED.join(', ')})`);
