// The generated reference pages under docs/reference/ are what the built code says now:
// scripts/gen-docs.mjs --check regenerates each in memory (running the built CLI for the
// --help pages and a short bench) and fails on a committed page that differs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/doc-pages.js';

test('every generated page under docs/reference is current (node scripts/gen-docs.mjs rewrites them)', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-docs.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr || run.stdout);
});

test('the check fails on a stale page, and names it', () => {
  const copy = mkdtempSync(join(tmpdir(), 'tpkit-docs-'));
  try {
    cpSync(join(ROOT, 'docs/reference'), join(copy, 'reference'), { recursive: true });
    const errors = join(copy, 'reference/errors.md');
    writeFileSync(errors, readFileSync(errors, 'utf8').replace('| `ADDRESS_CHECKSUM` |', '| `ADDRESS_CHECKSUMS` |'));
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-docs.mjs'), '--check', '--docs', copy], { cwd: ROOT, encoding: 'utf8' });
    assert.is(run.status, 1, run.stderr);
    assert.match(run.stderr, 'docs/reference/errors.md');
    assert.not.match(run.stderr, 'cli.md');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test.run();
