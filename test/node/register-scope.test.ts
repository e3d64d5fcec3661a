// A register transaction across time and chains, as the reference node (tpnode) treats it:
// its body (k, t, nonce, h) names no chain, and neither tx:verify nor the block builder
// checks its `t`, so a stale or far-future register body is accepted, and one mined and signed
// for chain 1 registers on chain 2 too, at an address of chain 2. The same body again on one
// chain is the same transaction (its first txid), and the key keeps its one wallet.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressParts, parseAddress } from '../../src/codec/address.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { bytesToHex } from '../../src/bytes.js';
import { register, startTestNode, transfer, pay, fee, waitStatus, type TestNode } from '../helpers/node-helpers.js';

const DAY = 86_400_000;
let one: TestNode;
let two: TestNode;

test.before(async () => {
  one = await startTestNode({ difficulty: 8, chain: 1 });
  two = await startTestNode({ difficulty: 8, chain: 2 });
});

test.after(async () => {
  await one?.close();
  await two?.close();
});

async function registered(node: TestNode, tx: string): Promise<{ txid: string; address: string }> {
  const res = await node.submit(tx);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const status = await waitStatus(node, res.body.txid);
  assert.is(status.ok, true, JSON.stringify(status));
  return { txid: res.body.txid, address: status.address };
}

test('a register body 30 days stale or 30 days ahead is accepted, as by the reference; a transfer that old is not', async () => {
  for (const t of [Date.now() - 30 * DAY, Date.now() + 30 * DAY, 0]) {
    const key = generateSecretKey();
    const { address } = await registered(one, register(key, t, 8));
    const wallet = await one.get(`/api/address/${address}`);
    assert.is(wallet.body.info.pubkey, bytesToHex(publicKeyOf(key), true), `t = ${t}`);
  }
  const a = one.chain.accounts[0];
  const stale = await one.submit(transfer({ key: a.secretKey, from: a.address, to: one.chain.accounts[1].address, seq: 1, t: Date.now() - 30 * DAY, payload: [pay(1), fee(5)] }));
  assert.is(stale.status, 400);
  assert.is(stale.body.error, 'TIMESTAMP_OUT_OF_WINDOW');
});

test('a register mined and signed for chain 1 registers on chain 2 at an address of chain 2; a resubmission is the same transaction', async () => {
  const key = generateSecretKey();
  const tx = register(key, Date.now(), 8);
  const first = await registered(one, tx);
  const second = await registered(two, tx);
  assert.is(addressParts(parseAddress(first.address)).block, 1);
  assert.is(addressParts(parseAddress(second.address)).block, 2);
  assert.is((await two.get(`/api/address/${second.address}`)).body.info.pubkey, bytesToHex(publicKeyOf(key), true));
  const again = await two.submit(tx);
  assert.is(again.status, 200);
  assert.is(again.body.txid, second.txid, 'the same body is the first transaction');
  const wallets = [...two.chain.wallets.values()].filter((w) => w.pubkey && bytesToHex(w.pubkey) === bytesToHex(publicKeyOf(key))).length;
  assert.is(wallets, 1, 'one wallet per key');
});

test.run();
