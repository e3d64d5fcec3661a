// The mempool (ledger/mempool.ts) on its own: arrival order, the durable prefix a block may
// take, the body-hash index, its three bounds at their edges, and removal over many blocks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../src/node/config/config.js';
import { Mempool } from '../../src/node/ledger/mempool.js';
import type { NodeTx } from '../../src/node/ledger/node-tx.js';

const SENDER_A = new Uint8Array(8).fill(1);
const SENDER_B = new Uint8Array(8).fill(2);

let n = 0;
function tx(options: { from?: Uint8Array; size?: number; body?: string; register?: boolean } = {}): NodeTx {
  n++;
  const from = options.from ?? SENDER_A;
  return {
    txid: `T${String(n).padStart(6, '0')}`,
    timeNs: BigInt(n),
    raw: new Uint8Array(options.size ?? 100),
    bodyLength: 60,
    bodyHash: options.body ?? `body${n}`,
    body: options.register ? { kind: 'register', t: 0, keysHash: new Uint8Array(32) } : { kind: 'generic', from, to: SENDER_B, seq: BigInt(n), t: 0, payload: [] },
    signers: [],
  };
}

const limits = (over: Partial<{ maxPending: number; maxPendingBytes: number; maxPendingPerSender: number }> = {}) => ({ ...defaultConfig().limits, ...over });

test('arrival order; a block takes the durable front, up to the first write still in flight', () => {
  const pool = new Mempool();
  const [a, b, c] = [tx(), tx(), tx()];
  pool.add(a);
  pool.add(b, false);
  pool.add(c);
  assert.equal(pool.peek(10), [a], 'b is still being written: c waits behind it');
  pool.markDurable(b);
  assert.equal(pool.peek(10), [a, b, c]);
  assert.equal(pool.peek(2), [a, b]);
  pool.remove([a, b]);
  assert.equal(pool.peek(10), [c]);
  assert.is(pool.size, 1);
  assert.is(pool.get(a.txid), undefined);
  assert.is(pool.get(c.txid), c);
});

test('the body index answers an identical body with the first txid, until it leaves', () => {
  const pool = new Mempool();
  const first = tx({ body: 'same' });
  pool.add(first);
  assert.is(pool.txidForBody('same'), first.txid);
  pool.remove([first]);
  assert.is(pool.txidForBody('same'), undefined);
});

test('a dropped transaction (its write failed) is forgotten everywhere and blocks nothing', () => {
  const pool = new Mempool();
  const [a, b] = [tx({ body: 'dropped', size: 70 }), tx()];
  pool.add(a, false);
  pool.add(b);
  pool.drop(a);
  assert.equal(pool.peek(10), [b]);
  assert.is(pool.txidForBody('dropped'), undefined);
  assert.is(pool.bytes, 100);
  assert.is(pool.pendingFrom('0101010101010101'), 1);
});

test('bounds: count, bytes and per sender, each refused exactly at its limit; a register has no sender', () => {
  const pool = new Mempool();
  pool.add(tx({ size: 100 }));
  pool.add(tx({ size: 100 }));
  assert.is(pool.refusal(tx(), limits({ maxPending: 3 })), undefined);
  assert.is(pool.refusal(tx(), limits({ maxPending: 2 }))?.code, 'MEMPOOL_FULL');
  assert.is(pool.refusal(tx({ size: 100 }), limits({ maxPendingBytes: 300 })), undefined);
  assert.match(pool.refusal(tx({ size: 101 }), limits({ maxPendingBytes: 300 }))!.message, /memory/);
  assert.match(pool.refusal(tx(), limits({ maxPendingPerSender: 2 }))!.message, /this wallet/);
  assert.is(pool.refusal(tx({ from: SENDER_B }), limits({ maxPendingPerSender: 2 })), undefined, 'another sender has room');
  assert.is(pool.refusal(tx({ register: true }), limits({ maxPendingPerSender: 1 })), undefined);
  assert.is(pool.pendingFrom('0101010101010101'), 2);
  assert.is(pool.bytes, 200);
});

test('many blocks remove their prefix; the order and the counts survive compaction', () => {
  const pool = new Mempool();
  const all = Array.from({ length: 5000 }, () => tx({ size: 10, from: n % 2 ? SENDER_A : SENDER_B }));
  for (const t of all) pool.add(t);
  let taken: NodeTx[] = [];
  while (pool.size > 0) {
    const block = pool.peek(300);
    assert.equal(block[0], all[taken.length], 'each block starts where the last ended');
    taken = taken.concat(block);
    pool.remove(block);
  }
  assert.equal(taken, all);
  assert.is(pool.bytes, 0);
  assert.is(pool.pendingFrom('0101010101010101'), 0);
  assert.equal(pool.peek(10), []);
});

test('a block by bytes: up to the limit exactly, at least one, never skipping one that does not fit', () => {
  const pool = new Mempool();
  const [a, b, c, d] = [tx({ size: 100 }), tx({ size: 100 }), tx({ size: 100 }), tx({ size: 10 })];
  for (const t of [a, b, c, d]) pool.add(t);
  assert.equal(pool.peek(10, 200), [a, b], 'exactly at the limit');
  assert.equal(pool.peek(10, 199), [a], 'one byte short of the second');
  assert.equal(pool.peek(10, 50), [a], 'one larger than the limit still goes alone');
  assert.equal(pool.peek(10, 215), [a, b], 'd would fit, but c comes first');
  assert.equal(pool.peek(10, 310), [a, b, c, d]);
  assert.equal(pool.peek(1, 1000), [a], 'the count bounds it too');
  assert.equal(pool.peek(0), []);
});

test('removing or dropping what the pool does not hold changes nothing: not twice, not another object with the same txid', () => {
  const pool = new Mempool();
  const [a, b] = [tx({ size: 30, body: 'A' }), tx({ size: 50, body: 'B' })];
  pool.add(a);
  pool.add(b);
  pool.remove([a]);
  pool.remove([a]);
  pool.drop(a);
  // The same txid as b, another object (a block built before a revert restored b anew).
  const stale = { ...b };
  pool.remove([stale]);
  assert.equal([pool.size, pool.bytes, pool.pendingFrom('0101010101010101')], [1, 50, 1]);
  assert.is(pool.get(b.txid), b);
  assert.is(pool.txidForBody('B'), b.txid);
  assert.equal(pool.peek(10), [b]);
  pool.remove([b]);
  assert.equal([pool.size, pool.bytes, pool.pendingFrom('0101010101010101')], [0, 0, 0]);
});

test('what blocks took is not held: the consumed front stays within 1024 slots or half the array, and a sender with nothing pending has no entry', () => {
  // Memory is the property here, so the test reads the pool's own fields.
  const pool = new Mempool();
  const inside = pool as unknown as { queue: NodeTx[]; head: number; bySender: Map<string, number> };
  const senders = Array.from({ length: 20_000 }, (_, i) => {
    const from = new Uint8Array(8);
    new DataView(from.buffer).setUint32(4, i + 1);
    return from;
  });
  let added = 0;
  while (added < senders.length || pool.size > 0) {
    // Arrivals outpace a block at first, then the blocks drain what is left.
    for (let k = 0; k < 130 && added < senders.length; k++) pool.add(tx({ from: senders[added++] }));
    pool.remove(pool.peek(97));
    const consumed = inside.head;
    assert.ok(consumed <= 1024 || consumed * 2 <= inside.queue.length, `${consumed} consumed slots held in an array of ${inside.queue.length}`);
  }
  assert.is(inside.queue.length - inside.head, 0, 'nothing pending, nothing held past the head');
  assert.ok(inside.head <= 1024, `${inside.head} consumed slots kept once all is taken`);
  assert.is(inside.bySender.size, 0, 'no count kept for senders with nothing pending');
});

test.run();
