#!/usr/bin/env node
// The README's error table from the compiled sources: every TpkitError code, its meaning, and
// for the node the HTTP status and numeric API code. Run after `npm run build`; prints the
// table, or with --write replaces it in README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES } from '../dist/src/errors.js';

let apiErrors = {};
try {
  ({ API_ERRORS: apiErrors } = await import('../dist/src/node/http/api-errors.js'));
} catch {
  // the node is optional for the table: library codes still print
}

const HEADER = '| code | meaning | HTTP | API code |';
const rows = [HEADER, '|---|---|---|---|'];
for (const [code, meaning] of Object.entries(ERROR_CODES)) {
  const api = apiErrors[code];
  rows.push(`| \`${code}\` | ${meaning} | ${api ? api.status : ''} | ${api ? api.code : ''} |`);
}
const table = rows.join('\n');

if (process.argv.includes('--write')) {
  const readmeUrl = new URL('../README.md', import.meta.url);
  const readme = readFileSync(readmeUrl, 'utf8');
  const start = readme.indexOf(HEADER);
  if (start < 0) throw new Error('README.md has no error table to replace');
  const end = readme.indexOf('\n\n', start);
  writeFileSync(readmeUrl, readme.slice(0, start) + table + (end < 0 ? '\n' : readme.slice(end)));
} else {
  console.log(table);
}
