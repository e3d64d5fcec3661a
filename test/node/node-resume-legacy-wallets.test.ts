// A store written before wallets kept the height of their last block: at resume each such
// wallet gets that height back from its last block's hash, so the address view's lastblock
// names the block where the wallet last changed; a wallet whose last block is not in the
// store reads 0. The owner of each key is rebuilt from the same records.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import { PREFIX } from '../../src/node/store/keys.js';
import { addressToText } from '../../src/codec/address.js';
import { pay, startTestNode, transfer, waitStatus } from '../helpers/node-helpers.js';

const text = new TextDecoder();
const encoder = new TextEncoder();

test('wallets stored without a height get the height of their last block back at resume', async () => {
  const store = new MemoryStore();
  const heights = new Map<string, number>();
  let a!: string;
  let b!: string;
  let idle!: string;
  let node = await startTestNode({ accounts: 3 }, { store });
  try {
    const [from, to, third] = node.chain.accounts;
    [a, b, idle] = [from, to, third].map((acc) => Buffer.from(acc.address).toString('hex'));
    // Two blocks: a and b change in the first, a alone in the second, so their heights differ.
    const first = await node.submit(transfer({ key: from.secretKey, from: from.address, to: to.address, seq: 1, t: Date.now(), payload: [pay(5)] }));
    assert.is((await waitStatus(node, first.body.txid)).res, 'ok');
    await node.chain.settle();
    const second = await node.submit(transfer({ key: from.secretKey, from: from.address, to: from.address, seq: 2, t: Date.now() + 1, payload: [pay(1)] }));
    assert.is((await waitStatus(node, second.body.txid)).res, 'ok');
    await node.chain.settle();
    for (const [key, w] of node.chain.wallets) heights.set(key, w.height);
  } finally {
    await node.close();
  }
  assert.ok(heights.get(a)! > heights.get(b)!, `a ${heights.get(a)}, b ${heights.get(b)}`);
  assert.ok(heights.get(b)! > 0);

  // Rewrite every wallet record as the older node stored it: no height. The third's also names a block
  // the store does not hold.
  const ops: StoreOp[] = [];
  for await (const [key, value] of store.entries(PREFIX.wallet)) {
    const stored = JSON.parse(text.decode(value)) as Record<string, unknown>;
    delete stored.height;
    if (key.slice(PREFIX.wallet.length) === idle) stored.lastblk = 'AB'.repeat(32);
    ops.push({ type: 'put', key, value: encoder.encode(JSON.stringify(stored)) });
  }
  assert.ok(ops.length >= 3);
  await store.batch(ops);

  node = await startTestNode({ accounts: 3 }, { store });
  try {
    assert.is(node.chain.wallets.get(a)!.height, heights.get(a));
    assert.is(node.chain.wallets.get(b)!.height, heights.get(b));
    assert.is(node.chain.wallets.get(idle)!.height, 0, 'a last block not in the store');
    for (const [key, w] of node.chain.wallets) assert.ok(w.height >= 0, `${key} still has no height`);
    // The owners of keys are rebuilt from the same records: each account's key names its wallet.
    for (const account of node.chain.accounts) assert.is(node.chain.ownerOf(Buffer.from(account.publicKey).toString('hex')), Buffer.from(account.address).toString('hex'));
    const view = await node.get(`/api/address/${addressToText(node.chain.accounts[0].address)}`);
    assert.equal(view.body.info.lastblock, { tx: heights.get(a) });
  } finally {
    await node.close();
  }
});

test.run();
