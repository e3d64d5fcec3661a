// Ethereum transactions in the mempool (ledger/eth-queue.ts through mempool.ts): a nonce ahead
// waits outside the block queue until the gap fills, a block's inclusion lets the next waiting
// ones in, replacement needs 10 % more, and the waiting ones are bounded per account and in all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../src/node/config/config.js';
import { Mempool } from '../../src/node/ledger/mempool.js';
import type { NodeTx } from '../../src/node/ledger/node-tx.js';

const A = 'aa'.repeat(20);
const B = 'bb'.repeat(20);
let n = 0;
function eth(from: string, nonce: number, gasPrice = 1n): NodeTx {
  n++;
  const body = { kind: 'ether', from, to: B, nonce: BigInt(nonce), gasLimit: 21_000n, gasPrice, value: 0n, data: new Uint8Array(0), hash: `h${n}`, type: 0, v: 0n, r: 0n, s: 0n, chainId: 1n };
  return { txid: `T${String(n).padStart(6, '0')}`, timeNs: BigInt(n), raw: new Uint8Array(100), bodyLength: 100, bodyHash: body.hash, body: body as unknown as NodeTx['body'], signers: [] };
}
const limits = (over: Partial<{ maxQueued: number; maxQueuedPerSender: number }> = {}) => ({ ...defaultConfig().limits, ...over });

test('out of nonce order: each waits until the gap before it fills, then the queue holds them in nonce order', () => {
  const committed = new Map<string, bigint>();
  const pool = new Mempool((k) => committed.get(k) ?? 0n);
  const txs = [0, 1, 2, 3].map((i) => eth(A, i));
  for (const t of [txs[3], txs[1], txs[2]]) pool.add(t);
  assert.equal(pool.peek(10), [], 'nonce 0 is missing');
  assert.is(pool.size, 3, 'waiting ones are known');
  assert.is(pool.eth.pendingNonce(A), 0n);
  pool.add(txs[0]);
  assert.equal(pool.peek(10), txs);
  assert.is(pool.eth.pendingNonce(A), 4n);
  // A block takes the first two: the account's nonce moves, the rest stay ready.
  committed.set(A, 2n);
  pool.remove(txs.slice(0, 2));
  assert.equal(pool.peek(10), txs.slice(2));
  assert.is(pool.eth.pendingNonce(A), 4n);
});

test('after a block reaches a waiting nonce (its gap filled by the block), that one becomes ready', () => {
  const committed = new Map<string, bigint>();
  const pool = new Mempool((k) => committed.get(k) ?? 0n);
  const [t0, t2] = [eth(A, 0), eth(A, 2)];
  pool.add(t0);
  pool.add(t2);
  assert.equal(pool.peek(10), [t0]);
  // Nonce 1 came another way (a revert's state, a restart): the committed nonce is 2 once t0 is in.
  committed.set(A, 2n);
  pool.remove([t0]);
  assert.equal(pool.peek(10), [t2]);
});

test('a waiting transaction is replaced only by one paying at least 10 % more; a ready one not at all', () => {
  const pool = new Mempool();
  const [ready, waiting] = [eth(A, 0, 10n), eth(A, 2, 10n)];
  pool.add(ready);
  pool.add(waiting);
  assert.match(pool.refusal(eth(A, 2, 10n), limits())?.message ?? '', /^replacement transaction underpriced/);
  assert.is(pool.refusal(eth(A, 2, 10n), limits())?.code, 'ETH_TX_REFUSED');
  const better = eth(A, 2, 11n);
  assert.is(pool.refusal(better, limits()), undefined);
  assert.is(pool.replaced(better, limits()), waiting);
  assert.match(pool.refusal(eth(A, 0, 100n), limits())?.message ?? '', /^replacement transaction underpriced: nonce 0 is already taken by a transaction ready/);
  pool.drop(waiting);
  pool.add(better);
  assert.is(pool.get(waiting.txid), undefined);
  pool.add(eth(A, 1));
  assert.equal(
    pool.peek(10).map((t) => t.txid),
    [ready.txid, pool.peek(10)[1].txid, better.txid],
  );
});

test('waiting transactions are bounded per account and in all ("txpool is full"); ready ones are not counted as waiting', () => {
  const pool = new Mempool();
  const bounds = limits({ maxQueuedPerSender: 2, maxQueued: 3 });
  pool.add(eth(A, 0));
  pool.add(eth(A, 5));
  pool.add(eth(A, 6));
  const full = pool.refusal(eth(A, 7), bounds);
  assert.equal([full?.code, full?.shortMessage], ['MEMPOOL_FULL', 'txpool is full']);
  assert.is(pool.refusal(eth(A, 1), bounds), undefined, 'the next nonce is always taken');
  pool.add(eth(B, 3));
  assert.is(pool.eth.waiting, 3);
  assert.match(pool.refusal(eth(B, 4), bounds)?.details ?? '', /limits\.maxQueued\b/);
});

test.run();
