#!/usr/bin/env node
// Where a mutation would survive for want of any test: the mutation sites (mutation-operators.mjs)
// on lines no test file executes, by the coverage map (coverage-map.mjs), per source file, the
// most first. A file edited since the map was made is listed apart: its lines cannot be trusted.
//
//   node scripts/coverage-gaps.mjs [folders, default src/client,src/node]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { COVERAGE_FILE, hashOf } from './coverage-map.mjs';
import { sitesOf } from './mutation-operators.mjs';
import { ROOT } from './test-file.mjs';

if (!existsSync(COVERAGE_FILE)) {
  console.error('no coverage map: run node scripts/coverage-map.mjs first');
  process.exit(2);
}
const map = JSON.parse(readFileSync(COVERAGE_FILE, 'utf8'));
const folders = (process.argv[2] ?? 'src/client,src/node').split(',');
const files = folders.flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true })
    .map((name) => `${dir}/${String(name).split(sep).join('/')}`)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/generated|constants/.test(f)),
);
let total = 0;
let missed = 0;
const rows = [];
const edited = [];
for (const file of files) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (map.hashes[file] !== hashOf(text)) {
    edited.push(file);
    continue;
  }
  const sites = sitesOf(file, text);
  const lines = map.lines[file] ?? {};
  const gaps = sites.filter((s) => !lines[s.line]);
  total += sites.length;
  missed += gaps.length;
  if (gaps.length) rows.push({ file, gaps: gaps.length, sites: sites.length, lines: [...new Set(gaps.map((s) => s.line))] });
}
rows.sort((a, b) => b.gaps - a.gaps);
console.log(`coverage map of ${map.madeAt}: ${missed} of ${total} mutation sites (${((100 * missed) / total).toFixed(1)} %) are on lines no test executes`);
for (const r of rows) console.log(`${`${r.gaps}/${r.sites}`.padStart(8)}  ${r.file}: lines ${r.lines.join(', ')}`);
if (edited.length) console.log(`edited since the map (not counted): ${edited.join(', ')}`);
