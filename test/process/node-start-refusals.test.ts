// `tpkit node` refuses at start what could never work, and says what to do: blocks on demand
// with the development API off (by --no-dev-api, or by listening beyond this machine), a
// data dir another node holds, a --static folder that is not there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { spawnNode } from '../helpers/node-process.js';

const node = (...args: string[]) => runTpkit(['node', '--port', '0', '--log-level', 'warn', ...args]);

test('--mine-on-demand with --no-dev-api is refused: no block could ever be made', async () => {
  const run = await node('--memory', '--mine-on-demand', '--no-dev-api');
  assert.is(run.code, 2, run.err);
  assert.match(
    run.err,
    /--mine-on-demand: no block could ever be made, .*--no-dev-api switches that off: drop --no-dev-api, or let the node make blocks itself \(--block-time MS or --instant\) \[CONFIG_INVALID\]/,
  );
});

test('--mine-on-demand beyond this machine without --dev-api is refused, naming --dev-api', async () => {
  const run = await node('--memory', '--mine-on-demand', '--host', '0.0.0.0');
  assert.is(run.code, 2, run.err);
  assert.match(run.err, /the development API is off on 0\.0\.0\.0: add --dev-api/);
});

test('a data dir another node holds: the refusal offers --data-dir and --memory', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tpkit-locked-'));
  const first = await spawnNode(['--data-dir', dataDir, '--port', '0', '--log-level', 'warn']);
  try {
    const second = await node('--data-dir', dataDir);
    // The data dir's state, not the command line, is at fault: exit 1 with DATA_DIR_UNUSABLE.
    assert.is(second.code, 1, second.err);
    assert.match(second.err, /\[DATA_DIR_UNUSABLE\]/);
    assert.match(second.err, /another node process holds it; stop that node, or run this one on another folder \(--data-dir DIR\) or with nothing on disk \(--memory\)/);
  } finally {
    await first.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('--static with a folder that is not there is refused before the node starts', async () => {
  const run = await node('--memory', '--static', 'no/such/site');
  assert.is(run.code, 2, run.err);
  assert.match(run.err, /--static: no such folder: .*no\/such\/site/);
});

test.run();
