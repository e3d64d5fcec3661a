// `tpkit node --repair`: a store damaged as a disk or a crash damages it (CURRENT deleted,
// bytes flipped in the log, the log cut to half) is rebuilt from its intact blocks; the node
// then starts on it with those blocks, their transactions' statuses and the balances as of the
// last kept block, and the damaged store is still there, byte for byte, beside it. Refused,
// changing nothing, on a store a node holds, a sound one (exit 0), and one with nothing to keep.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { heightKey } from '../../src/node/store/keys.js';
import { runTpkit } from '../helpers/cli-run.js';
import { pay, startTestNode, transfer, waitStatus, type TestConfig } from '../helpers/node-helpers.js';
import { damageStore, fingerprint, STORE_DAMAGES } from '../helpers/store-damage.js';

const settings = (dir: string): TestConfig => ({ memory: false, dataDir: dir, accounts: 2, instant: false, mineOnDemand: true });
const repair = (dir: string, ...more: string[]) => runTpkit(['node', '--repair', '--data-dir', dir, '--accounts', '2', ...more]);

interface Recorded {
  /** Hash and txids of each block, by height. */
  blocks: Map<number, { hash: string; txids: string[] }>;
  /** Status answer of each acknowledged transaction. */
  statuses: Map<string, unknown>;
  /** Balances of the two development accounts after each block. */
  balances: Map<number, string[]>;
  head: number;
}

/** A data dir holding 8 blocks of 5 transfers each, as the node answered about them. */
async function chainIn(dir: string): Promise<Recorded> {
  const node = await startTestNode(settings(dir));
  const rec: Recorded = { blocks: new Map(), statuses: new Map(), balances: new Map(), head: 0 };
  try {
    const [a, b] = node.chain.accounts;
    const balances = () => [a, b].map((acc) => String(node.chain.wallets.get(Buffer.from(acc.address).toString('hex'))!.amount.get('SK')));
    rec.balances.set(node.chain.height, balances());
    const t = Date.now();
    let seq = 0;
    for (let block = 0; block < 8; block++) {
      const txids: string[] = [];
      for (let i = 0; i < 5; i++) {
        seq++;
        txids.push((await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq, t: t + seq, payload: [pay(seq)] }))).body.txid);
      }
      const [made] = await node.control.mine(1);
      rec.blocks.set(made.height, { hash: made.hash, txids });
      rec.balances.set(made.height, balances());
      for (const txid of txids) rec.statuses.set(txid, await waitStatus(node, txid));
    }
    for (let h = 0; h <= node.chain.height; h++) if (!rec.blocks.has(h)) rec.blocks.set(h, { hash: (await node.chain.blockAt(h))!.hash, txids: [] });
    rec.head = node.chain.height;
  } finally {
    await node.close();
  }
  return rec;
}

/** Runs `work` on a fresh data dir holding chainIn's chain, removed after. */
async function onChainDir(work: (dir: string, rec: Recorded) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-repair-'));
  try {
    await work(dir, await chainIn(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const siblings = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n !== 'ledger')
    .sort();

for (const damage of STORE_DAMAGES) {
  test(`${damage}: --repair keeps the intact blocks, their statuses and balances, queues the rest, and keeps the damaged store`, async () => {
    await onChainDir(async (dir, rec) => {
      const ledger = join(dir, 'ledger');
      damageStore(ledger, damage);
      const damaged = fingerprint(ledger);
      const run = await repair(dir);
      assert.is(run.code, 0, run.out + run.err);
      const kept = /kept: blocks 0 to (\d+) \((\d+) blocks?, head (\w+)\), (\d+) transactions?/.exec(run.out);
      assert.ok(kept, run.out);
      const [height, blocks, txs] = [Number(kept[1]), Number(kept[2]), Number(kept[4])];
      assert.is(blocks, height + 1);
      assert.is(kept[3], rec.blocks.get(height)!.hash, 'the kept head is the block the chain had at that height');
      // Acknowledged and in no kept block: pending still, or queued again from a lost block.
      const stillPending = Number(/, (\d+) pending transactions?/.exec(run.out)![1]) + Number(/queued again: (\d+)/.exec(run.out)?.[1] ?? 0);

      // The damaged store, moved aside as it was.
      const aside = siblings(dir).filter((n) => n.startsWith('ledger.damaged-'));
      assert.is(aside.length, 1, siblings(dir).join(', '));
      assert.match(run.out, new RegExp(`kept, as it was, in ${join(dir, aside[0])}`));
      assert.equal(fingerprint(join(dir, aside[0])), damaged);
      assert.not.ok(
        siblings(dir).some((n) => /repairing|lock-probe/.test(n)),
        'no work folder is left',
      );

      const node = await startTestNode(settings(dir));
      try {
        assert.is(node.chain.height, height);
        for (let h = 0; h <= height; h++) assert.is((await node.chain.blockAt(h))?.hash, rec.blocks.get(h)!.hash, `block ${h}`);
        const [a, b] = node.chain.accounts;
        const balances = [a, b].map((acc) => String(node.chain.wallets.get(Buffer.from(acc.address).toString('hex'))!.amount.get('SK')));
        assert.equal(balances, rec.balances.get(height), `balances as of block ${height}`);
        const keptTxids = [...rec.blocks].filter(([h]) => h <= height).flatMap(([, bl]) => bl.txids);
        assert.is(keptTxids.length, txs);
        for (const txid of keptTxids) assert.equal((await node.get(`/api/tx/status/${txid}`)).body.res, rec.statuses.get(txid), txid);
        // The others: queued again (pending, then in the next block), or unknown; none is both.
        const others = [...rec.blocks].filter(([h]) => h > height).flatMap(([, bl]) => bl.txids);
        const pending = [];
        for (const txid of others) {
          const answer = await node.get(`/api/tx/status/${txid}`);
          if (answer.status === 200) pending.push(txid);
          else assert.is(answer.body.error, 'TX_NOT_FOUND', `${txid}: ${run.out}`);
        }
        assert.is(pending.length, stillPending, run.out);
        if (height === rec.head) assert.is(pending.length, 0, run.out);
        await node.control.mine(1);
        for (const txid of pending) assert.is((await waitStatus(node, txid)).ok, true, `${txid} in a block again`);
      } finally {
        await node.close();
      }
      const again = await repair(dir);
      assert.is(again.code, 0, again.err);
      assert.match(again.out, /Nothing to repair.*\[REPAIR_NOT_NEEDED\]/);
    });
  });
}

test('a sound store: nothing to repair (exit 0), nothing changed', async () => {
  await onChainDir(async (dir, rec) => {
    const before = fingerprint(join(dir, 'ledger'));
    const run = await repair(dir);
    assert.is(run.code, 0, run.err);
    assert.match(run.out, new RegExp(`Nothing to repair: the chain in .* is sound: head at height ${rec.head}, ${rec.head + 1} blocks, 40 transactions; nothing was changed \\[REPAIR_NOT_NEEDED\\]`));
    assert.equal(fingerprint(join(dir, 'ledger')), before);
    assert.equal(siblings(dir), []);
  });
});

test('a store a running node holds: refused with DATA_DIR_UNUSABLE, the node unharmed', async () => {
  await onChainDir(async (dir) => {
    const node = await startTestNode(settings(dir));
    try {
      const run = await repair(dir);
      assert.is(run.code, 1, run.out + run.err);
      assert.match(run.err, /Cannot repair the store in .*: another node process holds it: stop that node first; nothing was changed \[DATA_DIR_UNUSABLE\]/);
      assert.equal(siblings(dir), []);
      // The probe took nothing from the node: it still writes, and still holds its lock.
      await node.control.mine(1);
      assert.is((await repair(dir)).code, 1);
    } finally {
      await node.close();
    }
    assert.is((await repair(dir)).code, 0);
  });
});

test('nothing to keep: a damaged genesis block, or no store at all, is refused with STORE_UNREADABLE', async () => {
  await onChainDir(async (dir) => {
    const ledger = join(dir, 'ledger');
    const db = new ClassicLevel<string, string>(ledger);
    await db.put(heightKey(0), '{"hash": "not a block');
    await db.close();
    const before = fingerprint(ledger);
    const run = await repair(dir);
    assert.is(run.code, 1, run.out + run.err);
    assert.match(run.err, /Nothing of the chain in .* can be kept: not even its genesis block is intact .*nothing was changed.*\[STORE_UNREADABLE\]/);
    assert.equal(fingerprint(ledger), before);
    assert.equal(siblings(dir), []);
    const empty = mkdtempSync(join(tmpdir(), 'tpkit-repair-'));
    try {
      const none = await repair(empty);
      assert.is(none.code, 1);
      assert.match(none.err, /No chain to repair in .*: it has no ledger folder.*\[STORE_UNREADABLE\]/);
      assert.not.ok(existsSync(join(empty, 'ledger')), 'no store was made');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

test('--repair with --check, --memory or --reset is a usage error', async () => {
  for (const args of [['--check'], ['--memory'], ['--reset']]) {
    const run = await runTpkit(['node', '--repair', ...args]);
    assert.is(run.code, 2, args.join(' '));
    assert.match(run.err, /--repair: rebuilds the chain in the data dir.*\[CONFIG_INVALID\]/);
  }
});

test.run();
