// The published transactions, byte for byte, applied to a genesis that holds their keys. Their
// timestamps are from 2018: the node gets a clock set to their time instead of a looser rule.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressFromText, addressParts } from '../../src/codec/address.js';
import { feeCost } from '../../src/codec/fee.js';
import { startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';
import { vectors } from '../helpers/vectors.js';

const SENDER = '0x8000200002000003';
const RECEIVER = '0x8000200002000005';
const FEE_ADDRESS = '0x8000200002000009';
const feeRates = { FEE: { base: 1n, baseextra: 64n, kb: 1000n } };

async function vectorNode(publicKey: string, amount: Record<string, bigint>, clockMs: number, difficulty = 0): Promise<TestNode> {
  return startTestNode({ chain: 2, allocGroup: 1, accounts: 0, difficulty, fees: feeRates, feeAddress: FEE_ADDRESS, wallets: [{ address: SENDER, publicKey, amount }] }, { clock: () => clockMs });
}

async function amounts(node: TestNode, address: string) {
  const { status, body } = await node.get(`/api/address/${address}`);
  return status === 200 ? body.info.amount : undefined;
}

test('fee vector: base 1, baseextra 64, kb 1000, body of 116 bytes costs 20', () => {
  const v = vectors.fee;
  const rate = { base: BigInt(v.settings.base), baseextra: BigInt(v.settings.baseextra), kb: BigInt(v.settings.kb) };
  assert.is(feeCost(v.body_len, rate), BigInt(v.cost));
  assert.is(feeCost(96, rate), 1n, 'up to 32 + baseextra bytes cost the base');
  assert.is(feeCost(97, rate), 1n, 'one byte over: 1000/1024 truncates to 0');
  assert.is(feeCost(98, rate), 2n);
});

test('generic_tx_docs (high-S signature) transfers 17 SK and pays a fee of 1 FEE', async () => {
  const v = vectors.generic_tx_docs;
  const node = await vectorNode(vectors.bsig_hello.public_key, { SK: 100n, FEE: 10n }, v.decoded_body.t + 1000);
  try {
    const res = await node.submit(v.tx_base64);
    assert.is(res.status, 200, JSON.stringify(res.body));
    const status = await waitStatus(node, res.body.txid);
    assert.equal(status, { ok: true, res: 'ok', block: status.block });
    assert.equal(await amounts(node, SENDER), { SK: 83, FEE: 9 });
    assert.equal(await amounts(node, RECEIVER), { SK: 17 });
    assert.equal(await amounts(node, FEE_ADDRESS), { FEE: 1 });
    const sender = await node.get(`/api/address/${SENDER}`);
    assert.is(sender.body.info.seq, v.decoded_body.s);
    assert.is(sender.body.info.t, v.decoded_body.t);
    const block = (await node.get(`/api/block/${status.block}`)).body.block;
    const tx = block.txs[res.body.txid];
    assert.is(tx.body, v.body_hex.toUpperCase(), 'stored byte for byte');
    assert.equal(tx.txext, { msg: 'hello' });
    assert.equal(tx.payload, [
      { purpose: 'transfer', cur: 'SK', amount: 17 },
      { purpose: 'srcfee', cur: 'FEE', amount: 3 },
    ]);
  } finally {
    await node.close();
  }
});

test('generic_tx_docs an hour and more from the node clock is refused', async () => {
  const v = vectors.generic_tx_docs;
  const node = await vectorNode(vectors.bsig_hello.public_key, { SK: 100n, FEE: 10n }, v.decoded_body.t + 3_600_000);
  try {
    const res = await node.submit(v.tx_base64);
    assert.is(res.status, 400);
    assert.is(res.body.error, 'TIMESTAMP_OUT_OF_WINDOW');
  } finally {
    await node.close();
  }
});

test('generic_tx_tpnode (currency as str, empty e) transfers 10 XXX', async () => {
  const v = vectors.generic_tx_tpnode;
  const node = await vectorNode(v.public_key, { XXX: 50n, FEE: 30n }, v.decoded_body.t + 5);
  try {
    const res = await node.submit(v.tx_base64);
    assert.is(res.status, 200, JSON.stringify(res.body));
    const status = await waitStatus(node, res.body.txid);
    assert.is(status.res, 'ok');
    assert.equal(await amounts(node, SENDER), { XXX: 40, FEE: 29 });
    assert.equal(await amounts(node, RECEIVER), { XXX: 10 });
    // the same bytes again: the same txid, nothing applied twice
    const again = await node.submit(v.tx_base64);
    assert.is(again.body.txid, res.body.txid);
    await node.chain.settle();
    assert.equal(await amounts(node, RECEIVER), { XXX: 10 });
  } finally {
    await node.close();
  }
});

test('register_tx (17 bits of work) allocates the next address of the allocation block', async () => {
  const v = vectors.register_tx;
  const node = await vectorNode(vectors.bsig_hello.public_key, {}, Date.now(), 16);
  try {
    const res = await node.submit(v.tx_base64);
    assert.is(res.status, 200, JSON.stringify(res.body));
    const status = await waitStatus(node, res.body.txid);
    assert.is(status.ok, true);
    const address = addressFromText(status.address);
    assert.equal(addressParts(address), { kind: 'public', group: 1, block: 2, wallet: 10 }, 'after the highest genesis wallet (the fee wallet, 9)');
    const wallet = await node.get(`/api/address/${status.address}`);
    assert.is(wallet.body.info.pubkey, vectors.generic_tx_tpnode.public_key);
    assert.is((await node.get('/api/settings/current/allocblock/last')).body.settings, 10);
  } finally {
    await node.close();
  }
  const harder = await vectorNode(vectors.bsig_hello.public_key, {}, Date.now(), v.pow_bits + 1);
  try {
    const res = await harder.submit(v.tx_base64);
    assert.is(res.status, 400);
    assert.is(res.body.error, 'POW_TOO_LOW');
    assert.match(res.body.msg, /17 leading zero bits/);
  } finally {
    await harder.close();
  }
});

test.run();
