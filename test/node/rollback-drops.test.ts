// A rollback over several blocks puts each wallet back as it was before the FIRST dropped block
// that changed it, and forgets every dropped transaction, the only one included: the same signed
// transaction may be sent again and is included again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startNode } from '../../src/node/index.js';
import { createClient } from '../../src/client/index.js';
import { addressToText, makeAddress, parseAddress } from '../../src/codec/address.js';
import { pay, register, transfer } from '../helpers/node-helpers.js';

test('a wallet two dropped blocks changed is put back as before the first of them', async () => {
  const node = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 0 });
  try {
    const client = createClient({ baseUrl: node.url });
    const target = addressToText(makeAddress({ group: 10, block: 1, wallet: 5151 }));
    await node.setBalance(target, 100n);
    const before = node.height();
    await node.faucet(target, 5n);
    await node.faucet(target, 7n);
    assert.is((await client.getAddress(target)).amount.SK, 112n);
    await node.rollback(before);
    assert.is((await client.getAddress(target)).amount.SK, 100n);
  } finally {
    await node.close();
  }
});

test('the one transaction a rollback drops is forgotten: sent again, it is taken (with a txid of its new arrival) and included again', async () => {
  const node = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 1, config: { fees: {} } });
  try {
    const client = createClient({ baseUrl: node.url });
    const [a] = node.accounts;
    const to = makeAddress({ group: 10, block: 1, wallet: 5252 });
    const tx = transfer({ key: a.secretKey, from: parseAddress(a.address), to, seq: 1, t: Date.now(), payload: [pay(9)] });
    const before = node.height();
    const txid = await client.submitTx(tx);
    await node.mine();
    assert.is((await client.getTxStatus(txid))!.ok, true);
    await node.rollback(before);
    assert.is(await client.getTxStatus(txid).catch((err) => err.code), 'TX_NOT_FOUND');
    const again = await client.submitTx(tx);
    await node.mine();
    assert.is((await client.getTxStatus(again))!.ok, true);
    assert.is((await client.getAddress(to)).amount.SK, 9n);
  } finally {
    await node.close();
  }
});

test('a registration a rollback drops is forgotten too: sent again, it registers again instead of naming the dropped txid', async () => {
  const node = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 0 });
  try {
    const client = createClient({ baseUrl: node.url });
    // A registration is checked against the duplicate index whatever its seq: a stale entry would answer the dropped txid.
    const tx = register(new Uint8Array(32).fill(3), Date.now(), 0);
    const before = node.height();
    const first = await client.submitTx(tx);
    await node.mine();
    assert.is((await client.getTxStatus(first))!.ok, true);
    await node.rollback(before);
    const again = await client.submitTx(tx);
    assert.is.not(again, first);
    await node.mine();
    const status = await client.getTxStatus(again);
    assert.is(status!.ok, true);
  } finally {
    await node.close();
  }
});

test.run();
