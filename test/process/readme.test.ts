// What the README promises outside its runnable examples (those run in
// test/process/doc-examples.test.ts): the test command CI runs, a Quick start that starts the
// CLI the fast way, links that lead to files, and byte dumps in the docs that are what our
// encoder writes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { encodeMsgpack } from '../../src/codec/msgpack-write.js';
import { ROOT } from '../helpers/doc-pages.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = (title: string) => {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README has a "${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
};

test('the README test command is the one .ci/run calls', () => {
  const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
  assert.match(readme, /^npm test\b/m);
  assert.match(ci, /^npm test$/m);
});

test('the Quick start runs the CLI in a form that starts fast: the tpkit alias or npm run -s tpkit', () => {
  const quick = section('Quick start');
  const commands = quick.split('\n').filter((line) => line.startsWith('$ '));
  assert.ok(commands.some((line) => line.startsWith('$ tpkit ')));
  assert.equal(
    commands.filter((line) => /\bnpx tpkit\b/.test(line)),
    [],
  );
  const alias = /\$ alias tpkit="node \$PWD\/(\S+)"/.exec(quick);
  assert.ok(alias, 'the alias line');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.is(pkg.scripts.tpkit, `node ${alias![1]}`, 'npm run tpkit is the same command');
  assert.is(execFileSync(process.execPath, [alias![1], '--version'], { cwd: ROOT, encoding: 'utf8' }).trim(), `tpkit ${pkg.version}`);
});

test('every relative link of the README leads to a file of the repository', () => {
  const links = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/.test(href));
  assert.ok(links.length > 20, `${links.length} links`);
  for (const href of links) assert.ok(existsSync(join(ROOT, href)), `README links to ${href}, which does not exist`);
});

test('the byte dumps in "Dependencies and why" are what our encoder writes', () => {
  const page = readFileSync(join(ROOT, 'docs/design/dependencies.md'), 'utf8');
  const rows = page
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\| `[^`]+`( \(a time in ms\))? \| `[0-9a-f ]+` .*\| `[0-9a-f ]+` \|$/.test(line));
  assert.is(rows.length, 3, rows.join('\n'));
  for (const row of rows) {
    const [, literal, , ours] = /^\| `([^`]+)`.*? \| `([0-9a-f ]+)`.*? \| `([0-9a-f ]+)` \|$/.exec(row)!;
    const value = literal.endsWith('n') ? BigInt(literal.slice(0, -1)) : literal === '2 ** 32' ? 2 ** 32 : Number(literal);
    assert.is(
      Buffer.from(encodeMsgpack(value))
        .toString('hex')
        .replace(/(..)(?!$)/g, '$1 '),
      ours,
      literal,
    );
  }
});

test('the published vectors the tests read are in the repository, with their source', () => {
  const published = JSON.parse(readFileSync(join(ROOT, 'test/vectors/published.json'), 'utf8'));
  assert.type(published.source, 'string');
  assert.match(readFileSync(join(ROOT, 'test/vectors/README.md'), 'utf8'), /`published\.json`/);
  assert.ok(existsSync(join(dirname(join(ROOT, 'test/vectors/README.md')), 'bip39-vectors.json')));
});

test.run();
