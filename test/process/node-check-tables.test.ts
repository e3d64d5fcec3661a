// `tpkit node --check` finds what the start finds: 64 bytes flipped in a LevelDB table (a data
// block, the index, the footer, the filter, the middle of a value) or the table cut to half is
// named as damage of that file, with what to do, and the node then refuses to start with the
// same file named; a sound store checks "sound" and starts. No outcome is a stack trace. Also:
// a ledger path that is a file, --export over an existing file, and --repair of a damaged table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { runTpkit, type CliRun } from '../helpers/cli-run.js';
import { rejection } from '../helpers/helpers.js';
import { pay, startTestNode, transfer } from '../helpers/node-helpers.js';
import { damageTable, tableFile, TABLE_DAMAGES } from '../helpers/store-damage.js';

const work = mkdtempSync(join(tmpdir(), 'tpkit-check-tables-'));
const base = join(work, 'base');
let head = 0;

/** A stack trace line, which no outcome may print. */
const STACK = /^\s+at .+:\d+:\d+\)?$/m;
const noStack = (run: CliRun) => assert.not.match(run.out + run.err, STACK, run.out + run.err);

test.before(async () => {
  // 300 transfers in 30 blocks, then compacted: every record lives in one table of many blocks.
  const node = await startTestNode({ memory: false, dataDir: base, accounts: 2 });
  const [a, b] = node.chain.accounts;
  const t = Date.now();
  for (let i = 1; i <= 300; i++) {
    await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: i, t: t + i, payload: [pay(i)] }));
    if (i % 10 === 0) await node.chain.settle();
  }
  await node.chain.settle();
  head = node.chain.height;
  await node.close();
  const db = new ClassicLevel(join(base, 'ledger'));
  await db.open();
  await db.compactRange('\u0000', '\uffff');
  await db.close();
  tableFile(join(base, 'ledger')); // exactly one table
});

test.after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of the compacted data dir. */
function copyOf(name: string): string {
  const dir = join(work, name);
  cpSync(base, dir, { recursive: true });
  return dir;
}

test('a sound compacted store: --check says sound, and the node starts on it', async () => {
  const dir = copyOf('sound');
  const run = await runTpkit(['node', '--check', '--data-dir', dir]);
  assert.is(run.code, 0, run.out + run.err);
  assert.match(run.out, /^sound$/m);
  const node = await startTestNode({ memory: false, dataDir: dir, accounts: 2 });
  assert.is(node.chain.height, head);
  await node.close();
});

for (const damage of TABLE_DAMAGES) {
  test(`${damage}: --check names the table and what to do, and the node refuses to start naming it too`, async () => {
    const dir = copyOf(damage.replace(/\W+/g, '-'));
    const ledger = join(dir, 'ledger');
    const table = basename(tableFile(ledger));
    damageTable(ledger, damage);
    const run = await runTpkit(['node', '--check', '--data-dir', dir]);
    assert.is(run.code, 1, run.out + run.err);
    noStack(run);
    assert.match(run.out, new RegExp(`damaged: table ${table}: `), run.out + run.err);
    if (damage === 'the filter block') assert.match(run.out, /filter\.leveldb\.BuiltinBloomFilter2 block at offset \d+ fails its checksum/);
    if (damage === 'a data block' || damage === 'the middle of a value') assert.match(run.out, /the data block at offset \d+ fails its checksum \(it held the keys .* up to "b:0+[0-9a-f]+"\)/);
    assert.match(run.out, /--repair/);
    assert.match(run.out, /restore a copy or snapshot/);
    assert.match(run.out, /fresh --data-dir/);
    const err = await rejection(startTestNode({ memory: false, dataDir: dir, accounts: 2 }));
    assert.is(err.code, 'STORE_DAMAGED', err.message);
    assert.ok(err.message.includes(table), err.message);
  });
}

test('a data block and a filter block: --repair leaves out what fails its checksums, says so, and the node starts', async () => {
  for (const damage of ['the middle of a value', 'the filter block'] as const) {
    const dir = copyOf(`repair-${damage.replace(/\W+/g, '-')}`);
    damageTable(join(dir, 'ledger'), damage);
    const run = await runTpkit(['node', '--repair', '--data-dir', dir, '--accounts', '2']);
    assert.is(run.code, 0, run.out + run.err);
    if (damage === 'the filter block') {
      assert.match(run.out, /left out: table \d+\.ldb: the filter\.\S+ block .* no record lost/);
      assert.match(run.out, new RegExp(`kept: blocks 0 to ${head} `));
    } else {
      assert.match(run.out, /left out: table \d+\.ldb: the data block at offset \d+ fails its checksum .*: the records in that range are left out/);
      assert.match(run.out, /lost: blocks \d+ to \d+/);
    }
    const check = await runTpkit(['node', '--check', '--data-dir', dir]);
    assert.is(check.code, 0, check.out + check.err);
    const node = await startTestNode({ memory: false, dataDir: dir, accounts: 2 });
    await node.close();
  }
});

test('a ledger path that is a file: --check and --repair refuse it with DATA_DIR_UNUSABLE naming it, no stack trace', async () => {
  const dir = join(work, 'ledger-is-a-file');
  cpSync(base, dir, { recursive: true, filter: (src) => !src.includes(`${join(base, 'ledger')}`) });
  writeFileSync(join(dir, 'ledger'), 'not a store');
  for (const args of [['--check'], ['--repair', '--accounts', '2']]) {
    const run = await runTpkit(['node', ...args, '--data-dir', dir]);
    assert.is(run.code, 1, run.out + run.err);
    noStack(run);
    assert.match(run.err, /DATA_DIR_UNUSABLE/);
    assert.ok(run.err.includes(`${join(dir, 'ledger')} is a file, not a store folder`), run.err);
    assert.is(readFileSync(join(dir, 'ledger'), 'utf8'), 'not a store');
  }
});

test('--check --export over an existing file: refused naming it, the file left as it was', async () => {
  const dir = copyOf('export-exists');
  const target = join(work, 'kept.ndjson');
  writeFileSync(target, 'mine\n');
  const run = await runTpkit(['node', '--check', '--data-dir', dir, '--export', target]);
  assert.is(run.code, 1, run.out + run.err);
  noStack(run);
  assert.match(run.err, /INVALID_ARGUMENT/);
  assert.ok(run.err.includes(`--export ${target} cannot be written: it already exists (never overwritten)`), run.err);
  assert.is(readFileSync(target, 'utf8'), 'mine\n');
  // A new name is written.
  const fresh = join(work, 'fresh.ndjson');
  const ok = await runTpkit(['node', '--check', '--data-dir', dir, '--export', fresh]);
  assert.is(ok.code, 0, ok.out + ok.err);
  assert.is(readFileSync(fresh, 'utf8').trim().split('\n').length, head + 1);
});

test.run();
