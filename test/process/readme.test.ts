import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../../src/errors.js';
import { API_ERRORS } from '../../src/node/http/api-errors.js';
import { execFileSync } from 'node:child_process';
import { encodeMsgpack } from '../../src/codec/msgpack-write.js';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

test('the README lists every error code with its HTTP status and API number', () => {
  for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
    const api = API_ERRORS[code];
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    assert.ok(row, `README has no row for ${code}: run node scripts/error-table.mjs`);
    if (api) assert.ok(row!.includes(`| ${api.status} | ${api.code} |`), `README row for ${code} is stale`);
  }
});

test('the README test command is the one .ci/run calls', () => {
  const ci = readFileSync(fileURLToPath(new URL('../../../.ci/run', import.meta.url)), 'utf8');
  assert.match(readme, /^npm test\b/m);
  assert.match(ci, /^npm test$/m);
});

test('the Quick start runs the CLI in a form that starts fast: the tpkit alias or npm run -s tpkit', () => {
  const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Install in your project'));
  const commands = quick.split('\n').filter((line) => line.startsWith('$ '));
  assert.ok(commands.some((line) => line.startsWith('$ tpkit ')));
  assert.equal(commands.filter((line) => /\bnpx tpkit\b/.test(line)), []);
  const alias = /\$ alias tpkit="node \$PWD\/(\S+)"/.exec(quick);
  assert.ok(alias, 'the alias line');
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8'));
  assert.is(pkg.scripts.tpkit, `node ${alias![1]}`, 'npm run tpkit is the same command');
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  assert.is(execFileSync(process.execPath, [alias![1], '--version'], { cwd: root, encoding: 'utf8' }).trim(), `tpkit ${pkg.version}`);
});

test('the byte dumps in "Dependencies and why" are what our encoder writes', () => {
  const rows = readme.split('\n').map((line) => line.trim()).filter((line) => /^\| `[^`]+`( \(a time in ms\))? \| `[0-9a-f ]+` .*\| `[0-9a-f ]+` \|$/.test(line));
  assert.is(rows.length, 3, rows.join('\n'));
  for (const row of rows) {
    const [, literal, , ours] = /^\| `([^`]+)`.*? \| `([0-9a-f ]+)`.*? \| `([0-9a-f ]+)` \|$/.exec(row)!;
    const value = literal.endsWith('n') ? BigInt(literal.slice(0, -1)) : literal === '2 ** 32' ? 2 ** 32 : Number(literal);
    assert.is(Buffer.from(encodeMsgpack(value)).toString('hex').replace(/(..)(?!$)/g, '$1 '), ours, literal);
  }
});

test.run();
