#!/usr/bin/env node
// The package.json a tarball carries. `prepare` builds a checkout or a git clone (it runs on
// their `npm install`), but a tarball already holds the build: shipped with `prepare`, npm 11
// lists it as an install script to approve, and approved it would rebuild without the dev
// dependencies. So `npm pack` and `npm publish` build in `prepack`, which ends with
//
//   node scripts/pack-manifest.mjs strip     (package.json without scripts.prepare, kept aside)
//
// and `postpack` puts the checkout's package.json back byte for byte:
//
//   node scripts/pack-manifest.mjs restore
//
// A pack that failed between the two leaves the copy aside; the next strip restores it first.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const aside = new URL('../package.json.unpacked', import.meta.url);
const action = process.argv[2];

function restore() {
  if (existsSync(aside)) renameSync(aside, manifest);
}

if (action === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const json = JSON.parse(text);
  writeFileSync(aside, text);
  delete json.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(json, null, 2)}\n`);
} else if (action === 'restore') {
  restore();
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
