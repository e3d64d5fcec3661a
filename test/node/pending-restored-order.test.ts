// Pending transactions come back after a restart in the order they were accepted (txid time
// order), not in the order the store lists their keys. A txid is base58 of the chain, the height
// it was accepted at and its time: from height 128 on, the height takes two bytes and the text
// starts lower ("2eM..." against "NaB..."), so a transaction accepted at 128 is listed before
// one accepted earlier at 127. A wallet's transfers then still apply seq after seq, and the next
// block lists them as they came.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeTxid } from '../../src/codec/txid.js';
import { PREFIX } from '../../src/node/store/keys.js';
import { MemoryStore } from '../../src/node/store/store.js';
import { pay, startTestNode, transfer, waitStatus, type TestConfig } from '../helpers/node-helpers.js';

// A fixed clock, so the txids (and the order their text sorts in) are the same on every run.
const START = 1_800_000_000_000;
let now = START;
const SETTINGS: TestConfig = { instant: false, mineOnDemand: true, accounts: 3 };

test('pending transactions restored at start keep their acceptance order, not their key order', async () => {
  const store = new MemoryStore();
  // One transaction a block, so some stay pending while the height moves on.
  let node = await startTestNode({ ...SETTINGS, limits: { maxBlockTxs: 1 } }, { store, clock: () => now });
  const [a, b, c] = node.chain.accounts;
  const seqs = new Map<typeof a, number>();
  const send = (from: typeof a, to: typeof a, amount: number) => {
    const seq = (seqs.get(from) ?? 0) + 1;
    seqs.set(from, seq);
    return transfer({ key: from.secretKey, from: from.address, to: to.address, seq, t: now, payload: [pay(amount)] });
  };
  const accepted: string[] = [];
  let tick = 0;
  const submit = async (from: typeof a, to: typeof a) => {
    now = START + ++tick;
    const sent = await node.submit(send(from, to, 10 + tick));
    assert.is(sent.status, 200, JSON.stringify(sent.body));
    accepted.push(sent.body.txid);
  };
  try {
    await node.control.mine(126 - node.chain.height);
    assert.is(node.chain.height, 126);
    // Three at height 126, one at 127, three at 128, from three wallets, each wallet's seqs rising;
    // the two blocks between take the first two.
    await submit(a, b);
    await submit(b, c);
    await submit(a, c);
    await node.chain.mineBlock();
    await submit(c, a);
    await node.chain.mineBlock();
    assert.is(node.chain.height, 128);
    await submit(a, b);
    await submit(b, a);
    await submit(c, b);
  } finally {
    await node.close();
  }
  const pending = accepted.slice(2);
  assert.equal(
    pending.map((txid) => decodeTxid(txid).height),
    [126, 127, 128, 128, 128],
  );
  const times = pending.map((txid) => decodeTxid(txid).timeNs);
  assert.equal(
    [...times].sort((x, y) => (x < y ? -1 : 1)),
    times,
    'accepted in time order',
  );
  // What makes the test able to fail: the store lists the pending keys in another order.
  const listed: string[] = [];
  for await (const [key] of store.entries(PREFIX.pending)) listed.push(key.slice(PREFIX.pending.length));
  assert.equal(listed, [...pending.slice(2), ...pending.slice(0, 2)], 'the store lists those accepted at 128 first');

  // Restarted with the clock set back before all of them: the next txid still comes after them.
  now = START;
  node = await startTestNode(SETTINGS, { store, clock: () => now });
  try {
    assert.equal(
      node.chain.mempool.peek(100).map((tx) => tx.txid),
      pending,
      'the queue after the restart',
    );
    // Signed at a time after its sender's last transaction; accepted while the clock is set back.
    now = START + 100;
    const raw = send(a, b, 99);
    now = START;
    const next = await node.submit(raw);
    assert.is(next.status, 200, JSON.stringify(next.body));
    assert.is(decodeTxid(next.body.txid).timeNs, times[times.length - 1] + 1n, 'one nanosecond after the last restored txid');
    const block = await node.chain.mineBlock();
    assert.equal(block.txs, [...pending, next.body.txid], 'the next block lists them in acceptance order');
    for (const txid of block.txs) assert.is((await waitStatus(node, txid)).ok, true, `${txid} applied (its seq was the next one)`);
    let left = 0;
    for await (const _ of store.entries(PREFIX.pending)) left++;
    assert.is(left, 0, 'an included transaction is no longer written ahead as pending');
  } finally {
    await node.close();
  }
});

test('restarted with nothing pending and the clock set back: new txids still come after the last block', async () => {
  const store = new MemoryStore();
  now = START + 600_000;
  let node = await startTestNode(SETTINGS, { store, clock: () => now });
  const [a, b] = node.chain.accounts;
  try {
    const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: now, payload: [pay(1)] }));
    assert.is(sent.status, 200, JSON.stringify(sent.body));
    await node.chain.mineBlock();
    assert.is((await waitStatus(node, sent.body.txid)).ok, true);
  } finally {
    await node.close();
  }
  now = START;
  node = await startTestNode(SETTINGS, { store, clock: () => now });
  try {
    assert.is(node.chain.mempool.size, 0);
    const blockTime = node.chain.time;
    assert.is(blockTime, START + 600_000);
    const next = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 2, t: START + 600_001, payload: [pay(1)] }));
    assert.is(next.status, 200, JSON.stringify(next.body));
    assert.is(decodeTxid(next.body.txid).timeNs, BigInt(blockTime) * 1_000_000n + 1n, 'one nanosecond after the block time');
  } finally {
    await node.close();
  }
});

test.run();
