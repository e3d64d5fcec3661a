// `tpkit node --check`: the chain in a data dir checked and reported without touching it, and
// --export writing what still reads, one block a line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pay, startTestNode, transfer } from '../helpers/node-helpers.js';
import { runTpkit } from '../helpers/cli-run.js';

const hashes = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n !== 'LOCK')
    .map(
      (n) =>
        `${n} ${createHash('sha256')
          .update(readFileSync(join(dir, n)))
          .digest('hex')}`,
    )
    .sort();

test('--check reports a sound chain (exit 0), a truncated one (exit 1), and changes no file; --export writes every block that reads', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-check-'));
  try {
    const node = await startTestNode({ memory: false, dataDir: dir, accounts: 2 });
    const [a, b] = node.chain.accounts;
    for (let i = 1; i <= 24; i++) {
      await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: i, t: Date.now() + i, payload: [pay(i)] }));
      if (i % 6 === 0) await node.chain.settle();
    }
    await node.chain.settle();
    const height = node.chain.height;
    await node.close();
    const ledger = join(dir, 'ledger');
    const sound = await runTpkit(['node', '--check', '--data-dir', dir, '--export', join(dir, 'chain.ndjson')]);
    assert.is(sound.code, 0, sound.err);
    assert.match(sound.out, new RegExp(`head at height ${height} `));
    assert.match(sound.out, /24 transactions checked/);
    assert.match(sound.out, /^sound$/m);
    const lines = readFileSync(join(dir, 'chain.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.is(lines.length, height + 1);
    assert.is(
      lines.reduce((n, l) => n + Object.keys(l.txs).length, 0),
      24,
    );
    assert.ok(Object.values(lines[lines.length - 1].txs).every((t: any) => typeof t.tx === 'string' && t.status !== null));

    const log = join(
      ledger,
      readdirSync(ledger)
        .filter((n) => n.endsWith('.log'))
        .sort()
        .pop()!,
    );
    truncateSync(log, Math.floor(statSync(log).size / 2));
    const before = hashes(ledger);
    const damaged = await runTpkit(['node', '--check', '--data-dir', dir]);
    assert.is(damaged.code, 1, damaged.out + damaged.err);
    assert.match(damaged.out + damaged.err, /STORE_DAMAGED|damaged:/);
    assert.equal(hashes(ledger), before, '--check changed nothing');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--check needs a data dir: --memory and --reset are refused, --export alone too', async () => {
  for (const args of [
    ['--check', '--memory'],
    ['--check', '--reset'],
    ['--export', 'x.ndjson'],
  ]) {
    const run = await runTpkit(['node', ...args]);
    assert.ok(run.code !== 0, args.join(' '));
    assert.match(run.err, /CONFIG_INVALID|--check|--export/);
  }
});

test.run();
