// What the node does when its store fails or its rules change under acknowledged
// transactions: a write that cannot be synced is a 503 and leaves nothing behind; a pending
// transaction that no longer passes the checks after a restart ends as failed, never unknown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/node/base/log.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import { pay, startTestNode, transfer } from '../helpers/node-helpers.js';

/** A memory store whose batches fail while `failing` is set. */
class FlakyStore extends MemoryStore {
  failing = false;
  override async batch(ops: StoreOp[]): Promise<void> {
    if (this.failing) throw new Error('disk full');
    return super.batch(ops);
  }
}

test('a write that cannot be stored: 503 STORE_UNAVAILABLE, the transaction is not kept, the node goes on', async () => {
  const store = new FlakyStore();
  const node = await startTestNode({ instant: false, blockTime: 3_600_000 }, { store });
  try {
    const [a, b] = node.chain.accounts;
    const t = Date.now();
    store.failing = true;
    const refused = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t, payload: [pay(1)] }));
    assert.is(refused.status, 503);
    assert.is(refused.body.error, 'STORE_UNAVAILABLE');
    assert.is(refused.body.code, 10015);
    assert.is(node.chain.mempool.size, 0, 'nothing unacknowledged is kept');
    store.failing = false;
    // the same transaction, resubmitted, is accepted now and gets a txid of its own
    const accepted = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t, payload: [pay(1)] }));
    assert.is(accepted.status, 200);
    assert.is((await node.get(`/api/tx/status/${accepted.body.txid}`)).body.res, null, 'pending');
    await node.chain.settle();
    assert.is((await node.get(`/api/tx/status/${accepted.body.txid}`)).body.res.res, 'ok');
  } finally {
    await node.close();
  }
});

test('a pending transaction that fails the checks after a restart is recorded as failed with the reason', async () => {
  const store = new MemoryStore();
  const roomy = { instant: false, blockTime: 3_600_000, limits: { maxRequestBytes: 65_536, maxTxBytes: 4096, maxSignatures: 4, maxPending: 1000, maxBlockTxs: 100 } };
  let node = await startTestNode(roomy, { store });
  const [a, b] = node.chain.accounts;
  const big = transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: Array.from({ length: 40 }, (_, i) => pay(1, `C${i}`)) });
  const small = transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 2, t: Date.now() + 1, payload: [pay(1)] });
  const bigTxid = (await node.submit(big)).body.txid;
  const smallTxid = (await node.submit(small)).body.txid;
  await node.close();

  // the operator lowers the transaction size limit below the pending one
  const lines: string[] = [];
  node = await startTestNode({ ...roomy, instant: true, limits: { ...roomy.limits, maxTxBytes: 300 } }, { store, logger: createLogger('warn', (line) => lines.push(line)) });
  try {
    assert.equal(
      lines.filter((l) => l.includes(' warn ') && l.includes(' pending ')).map((l) => l.slice(l.indexOf(' warn ') + 7).split(':')[0]),
      [`pending ${bigTxid} no longer passes the checks, recorded as failed`],
    );
    const { status, body } = await node.get(`/api/tx/status/${bigTxid}`);
    assert.is(status, 200);
    assert.equal(body.res, { error: true, res: 'tx_too_large' });
    await node.chain.settle();
    assert.is((await node.get(`/api/tx/status/${smallTxid}`)).body.res.res, 'ok', 'the other one is still included');
  } finally {
    await node.close();
  }
});

test('pending transactions restored after a restart go into the next block in the order they were accepted', async () => {
  const store = new MemoryStore();
  let node = await startTestNode({ instant: false, blockTime: 3_600_000, accounts: 3 }, { store });
  const accepted: string[] = [];
  const t = Date.now();
  for (let i = 0; i < 3; i++) {
    const [from, to] = [node.chain.accounts[i], node.chain.accounts[(i + 1) % 3]];
    accepted.push((await node.submit(transfer({ key: from.secretKey, from: from.address, to: to.address, seq: 1, t: t + i, payload: [pay(1)] }))).body.txid);
  }
  await node.close();
  node = await startTestNode({ instant: false, mineOnDemand: true, accounts: 3 }, { store });
  try {
    const block = await node.chain.mineBlock();
    assert.equal(block.txs, accepted);
    assert.equal(block.failed, {});
  } finally {
    await node.close();
  }
});

test('a block that cannot be stored is not made: STORE_UNAVAILABLE, the head and the pending transaction stay, the next block takes it', async () => {
  const store = new FlakyStore();
  const lines: string[] = [];
  const node = await startTestNode({ instant: false, mineOnDemand: true }, { store, logger: createLogger('error', (line) => lines.push(line)) });
  try {
    const [a, b] = node.chain.accounts;
    const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(1)] }));
    assert.is(sent.status, 200);
    const height = node.chain.height;
    store.failing = true;
    let refused: unknown;
    try {
      await node.chain.mineBlock();
    } catch (err) {
      refused = err;
    }
    assert.is((refused as { code?: string }).code, 'STORE_UNAVAILABLE');
    assert.ok(
      lines.some((l) => l.includes(`committing block ${height + 1} failed, retrying: disk full`)),
      lines.join(''),
    );
    assert.is(node.chain.height, height, 'no block');
    assert.is(node.chain.mempool.size, 1, 'still pending');
    assert.is((await node.get(`/api/tx/status/${sent.body.txid}`)).body.res, null);
    store.failing = false;
    const block = await node.chain.mineBlock();
    assert.equal([block.header.height, block.txs], [height + 1, [sent.body.txid]]);
    assert.is((await node.get(`/api/tx/status/${sent.body.txid}`)).body.res.res, 'ok');
  } finally {
    await node.close();
  }
});

/** Fails only the batches that commit a block, counting them. */
class BlockWritesFail extends MemoryStore {
  failing = true;
  attempts = 0;
  override async batch(ops: StoreOp[]): Promise<void> {
    if (this.failing && ops.some((op) => op.key.startsWith('b:'))) {
      this.attempts++;
      throw new Error('disk full');
    }
    return super.batch(ops);
  }
}

test('a block that cannot be stored is retried after a pause, not at once again and again; once the disk recovers it is made', async () => {
  const store = new BlockWritesFail();
  store.failing = false;
  const lines: string[] = [];
  const node = await startTestNode({ instant: true }, { store, logger: createLogger('error', (line) => lines.push(line)) });
  try {
    const [a, b] = node.chain.accounts;
    store.failing = true;
    const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(1)] }));
    assert.is(sent.status, 200);
    for (let i = 0; i < 3000 && store.attempts === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const began = Date.now();
    const before = store.attempts;
    await new Promise((r) => setTimeout(r, 300));
    // The pause between attempts is half a second: a slower machine only makes fewer of them.
    const bound = Math.floor((Date.now() - began) / 500) + 1;
    assert.ok(store.attempts - before <= bound, `${store.attempts - before} attempts in ${Date.now() - began} ms`);
    assert.ok(lines.length >= 1 && lines.length <= store.attempts, lines.join(''));
    store.failing = false;
    await node.chain.settle();
    assert.is((await node.get(`/api/tx/status/${sent.body.txid}`)).body.res.res, 'ok');
  } finally {
    await node.close();
  }
});

test.run();
