import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../src/errors.js';
import { API_ERRORS } from '../src/node/api-errors.js';

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

test('the README lists every error code with its HTTP status and API number', () => {
  for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
    const api = API_ERRORS[code];
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    assert.ok(row, `README has no row for ${code}: run node scripts/error-table.mjs`);
    if (api) assert.ok(row!.includes(`| ${api.status} | ${api.code} |`), `README row for ${code} is stale`);
  }
});

test('the README test command is the one .ci/run calls', () => {
  const ci = readFileSync(fileURLToPath(new URL('../../.ci/run', import.meta.url)), 'utf8');
  assert.match(readme, /^npm test\b/m);
  assert.match(ci, /^npm test$/m);
});

test.run();
