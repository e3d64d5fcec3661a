// Ledger rules over HTTP: register -> fund -> transfer -> status, the reference reason names
// for order-dependent failures, fees, chkey, identical resubmission, lastblk/preblk.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressFromText, addressToText } from '../../src/codec/address.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { bytesToHex } from '../../src/bytes.js';
import { chkey, fee, notify, pay, register, startTestNode, transfer, waitStatus, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
let dev: { key: Uint8Array; address: Uint8Array };
let dev2: { key: Uint8Array; address: Uint8Array };
let t = Date.now() - 60_000;
const nextT = () => ++t;

async function balance(address: Uint8Array | string, currency = 'SK'): Promise<bigint> {
  const text = typeof address === 'string' ? address : addressToText(address);
  const { status, body } = await node.get(`/api/address/${text}`);
  if (status === 404) return 0n;
  return BigInt(body.info.amount[currency] ?? 0);
}

async function send(tx: string): Promise<string> {
  const { status, body } = await node.submit(tx);
  assert.is(status, 200, JSON.stringify(body));
  return body.txid;
}

test.before(async () => {
  node = await startTestNode({ accounts: 2, balance: { SK: 1_000_000n, FEE: 500n }, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } } });
  const [a, b] = node.chain.accounts;
  dev = { key: a.secretKey, address: a.address };
  dev2 = { key: b.secretKey, address: b.address };
});

test.after(async () => {
  await node.close();
});

test('register -> fund -> transfer -> status', async () => {
  const key = generateSecretKey();
  const regTxid = await send(register(key, nextT(), 0));
  const reg = await waitStatus(node, regTxid);
  assert.is(reg.ok, true);
  assert.is(reg.address, reg.res);
  assert.match(reg.block, /^[0-9A-F]{64}$/);
  const newAddress = addressFromText(reg.address);

  const wallet = await node.get(`/api/address/${reg.address}`);
  assert.is(wallet.status, 200);
  assert.is(wallet.body.info.pubkey, bytesToHex(publicKeyOf(key), true));
  assert.is(wallet.body.info.seq, 0);
  assert.equal(wallet.body.info.amount, {});
  assert.is(wallet.body.info.lastblk, reg.block);

  const fundTxid = await send(transfer({ key: dev.key, from: dev.address, to: newAddress, seq: 1, t: nextT(), payload: [pay(5000), fee(100)] }));
  const fund = await waitStatus(node, fundTxid);
  assert.equal(fund, { ok: true, res: 'ok', block: fund.block });
  assert.is(await balance(newAddress), 5000n);

  const sinkTxid = await send(transfer({ key, from: newAddress, to: dev2.address, seq: 1, t: nextT(), payload: [pay(1234), fee(50)] }));
  const sink = await waitStatus(node, sinkTxid);
  assert.is(sink.res, 'ok');
  const after = await node.get(`/api/address/${reg.address}`);
  assert.is(after.body.info.seq, 1);
  // A short body costs the base fee, 1, not the 50 offered.
  assert.is(after.body.info.amount.SK, 5000 - 1234 - 1);
  assert.is(after.body.info.preblk, fund.block, 'preblk is the block of the change before');
  assert.is(after.body.info.lastblk, sink.block);
});

test('seq gaps are allowed; a used seq fails with bad_seq and changes nothing', async () => {
  const before = await node.get(`/api/address/${addressToText(dev.address)}`);
  const seq = before.body.info.seq as number;
  const ok = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 10, t: nextT(), payload: [pay(1), fee(5)] }));
  assert.is((await waitStatus(node, ok)).res, 'ok');
  const snapshot = await balance(dev.address);
  const bad = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 5, t: nextT(), payload: [pay(1), fee(5)] }));
  const status = await waitStatus(node, bad);
  assert.is(status.error, true);
  assert.is(status.res, 'bad_seq');
  assert.is(await balance(dev.address), snapshot, 'no fee taken');
  const seqAfter = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq;
  assert.is(seqAfter, seq + 10);
});

test('a timestamp not above the last one fails with bad_timestamp', async () => {
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const txid = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: t - 100, payload: [pay(1), fee(5)] }));
  assert.is((await waitStatus(node, txid)).res, 'bad_timestamp');
});

test('the boundaries: the last seq again is bad_seq, the last timestamp again is bad_timestamp', async () => {
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const last = nextT();
  assert.is((await waitStatus(node, await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: last, payload: [pay(1), fee(5)] })))).res, 'ok');
  // the same seq (a replay with a new timestamp)
  assert.is((await waitStatus(node, await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: nextT(), payload: [pay(2), fee(5)] })))).res, 'bad_seq');
  // the same timestamp with the next seq
  assert.is((await waitStatus(node, await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 2, t: last, payload: [pay(3), fee(5)] })))).res, 'bad_timestamp');
});

test('a wallet can spend its whole balance, fee included, down to zero', async () => {
  const key = generateSecretKey();
  const reg = await waitStatus(node, await send(register(key, nextT(), 0)));
  const address = addressFromText(reg.address);
  const devSeq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  await waitStatus(node, await send(transfer({ key: dev.key, from: dev.address, to: address, seq: devSeq + 1, t: nextT(), payload: [pay(1000), fee(5)] })));
  assert.is(await balance(address), 1000n);
  // The fee charged is the base, 1 SK (the body is within 32 + baseextra bytes): 999 + 1 is all of it.
  const all = await send(transfer({ key, from: address, to: dev.address, seq: 1, t: nextT(), payload: [pay(999), fee(5)] }));
  assert.is((await waitStatus(node, all)).res, 'ok');
  assert.is(await balance(address), 0n);
});

test('insufficient_fund, insufficient_fee and unsupported_fee_cur', async () => {
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const rich = await balance(dev.address);
  const broke = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: nextT(), payload: [pay(rich), fee(5)] }));
  assert.is((await waitStatus(node, broke)).res, 'insufficient_fund');
  const noFeeMoney = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 2, t: nextT(), payload: [pay(1), fee(600, 'FEE')] }));
  assert.is((await waitStatus(node, noFeeMoney)).res, 'unsupported_fee_cur');
  const lowFee = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 3, t: nextT(), payload: [pay(1), fee(0)] }));
  const low = await waitStatus(node, lowFee);
  assert.is(low.res, 'insufficient_fee');
  assert.is(low.cost, 1);
  assert.is(await balance(dev.address), rich, 'failed transactions change nothing');
});

test('fees go to the fee address; transfers in any currency; balances are conserved', async () => {
  const feeAddress = addressToText(node.chain.feeAddress);
  const sum = async () => {
    let total = 0n;
    for (const w of node.chain.wallets.values()) total += w.amount.get('SK') ?? 0n;
    return total;
  };
  const total = await sum();
  const feesBefore = await balance(feeAddress);
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const txid = await send(transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: nextT(), payload: [pay(7, 'FEE'), pay(3), fee(9)] }));
  const status = await waitStatus(node, txid);
  assert.is(status.res, 'ok');
  assert.is(await balance(feeAddress), feesBefore + 1n, 'cost 1 for a short body, not the 9 offered');
  assert.is(await balance(dev2.address, 'FEE'), 507n);
  assert.is(await sum(), total);
});

test('transfer to an absent address creates it (keyless)', async () => {
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const fresh = addressFromText(addressToText(new Uint8Array([0x80, 0x01, 0x40, 0x00, 0x01, 0x00, 0x77, 0x77])));
  const txid = await send(transfer({ key: dev.key, from: dev.address, to: fresh, seq: seq + 1, t: nextT(), payload: [pay(42), fee(5)] }));
  assert.is((await waitStatus(node, txid)).res, 'ok');
  const w = await node.get(`/api/address/${addressToText(fresh)}`);
  assert.is(w.body.info.amount.SK, 42);
  assert.not.ok('pubkey' in w.body.info, 'a keyless wallet has no pubkey field');
});

test('identical resubmission returns the same txid and never registers twice', async () => {
  const key = generateSecretKey();
  const tx = register(key, nextT(), 0);
  const [a, b] = await Promise.all([node.submit(tx), node.submit(tx)]);
  assert.is(a.body.txid, b.body.txid);
  const status = await waitStatus(node, a.body.txid);
  const again = await node.submit(tx);
  assert.is(again.body.txid, a.body.txid, 'after inclusion too');
  await node.chain.settle();
  const holders = [...node.chain.wallets.values()].filter((w) => w.pubkey && bytesToHex(w.pubkey) === bytesToHex(publicKeyOf(key)));
  assert.is(holders.length, 1);
  assert.ok(status.ok);

  // A transfer resubmitted after inclusion, too.
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const pay1 = transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: nextT(), payload: [pay(1), fee(5)] });
  const first = await send(pay1);
  await waitStatus(node, first);
  assert.is(await send(pay1), first);
});

test('a transfer resubmitted while pending gets the same txid and is applied once', async () => {
  // A client that lost the answer to its submission sends the same bytes again.
  const seq = (await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq as number;
  const before = await balance(dev2.address);
  const tx = transfer({ key: dev.key, from: dev.address, to: dev2.address, seq: seq + 1, t: nextT(), payload: [pay(7), fee(5)] });
  const [a, b] = await Promise.all([node.submit(tx), node.submit(tx)]);
  assert.is(a.status, 200, JSON.stringify(a.body));
  assert.is(b.status, 200, JSON.stringify(b.body));
  assert.is(b.body.txid, a.body.txid);
  assert.is((await waitStatus(node, a.body.txid)).res, 'ok');
  assert.is(await balance(dev2.address), before + 7n, 'paid once');
});

test('a failed transaction resubmitted gets a new txid (it may succeed now)', async () => {
  const seq = (await node.get(`/api/address/${addressToText(dev2.address)}/seq`)).body.seq as number;
  const big = (await balance(dev2.address)) + 10n;
  const tx = transfer({ key: dev2.key, from: dev2.address, to: dev.address, seq: seq + 1, t: nextT(), payload: [pay(big), fee(5)] });
  const first = await send(tx);
  assert.is((await waitStatus(node, first)).res, 'insufficient_fund');
  const second = await send(tx);
  assert.is.not(second, first);
});

test('chkey replaces the key: the old key can no longer send', async () => {
  const key = generateSecretKey();
  const reg = await waitStatus(node, await send(register(key, nextT(), 0)));
  const address = addressFromText(reg.address);
  await waitStatus(
    node,
    await send(
      transfer({ key: dev.key, from: dev.address, to: address, seq: Number((await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq) + 1, t: nextT(), payload: [pay(100), fee(5)] }),
    ),
  );
  const newKey = generateSecretKey();
  const chTxid = await send(chkey({ key, from: address, seq: 1, t: nextT(), newKey }));
  const ch = await waitStatus(node, chTxid);
  assert.is(ch.res, 'ok');
  // The block lists it with its sender, seq and the new key, as hex.
  const listed = (await node.get(`/api/block/${ch.block}`)).body.block.txs[chTxid];
  assert.equal([listed.kind, listed.from, listed.seq, listed.keys], ['chkey', bytesToHex(address, true), 1, [bytesToHex(publicKeyOf(newKey), true)]]);
  const info = await node.get(`/api/address/${reg.address}`);
  assert.is(info.body.info.pubkey, bytesToHex(publicKeyOf(newKey), true));
  const old = await node.submit(transfer({ key, from: address, to: dev.address, seq: 2, t: nextT(), payload: [pay(1), fee(5)] }));
  assert.is(old.status, 400);
  assert.is(old.body.error, 'SENDER_KEY_MISMATCH');
  const fresh = await waitStatus(node, await send(transfer({ key: newKey, from: address, to: dev.address, seq: 2, t: nextT(), payload: [pay(1), fee(5)] })));
  assert.is(fresh.res, 'ok');
});

test('a key changed in the same block makes later transactions by the old key "unverified"', async () => {
  // A node that makes blocks only when asked, so both transactions land in one block.
  const slow = await startTestNode({ instant: false, blockTime: 3_600_000, accounts: 1 });
  try {
    const key = generateSecretKey();
    const regTxid = (await slow.submit(register(key, nextT(), 0))).body.txid;
    await slow.chain.settle();
    const address = addressFromText((await waitStatus(slow, regTxid)).address);
    const a = await slow.submit(chkey({ key, from: address, seq: 1, t: nextT(), newKey: generateSecretKey() }));
    const b = await slow.submit(notify({ key, from: address, seq: 2, t: nextT(), payload: [] }));
    assert.is(a.status, 200);
    assert.is(b.status, 200, 'the old key is still the stored key at submission');
    await slow.chain.settle();
    const sa = await waitStatus(slow, a.body.txid);
    const sb = await waitStatus(slow, b.body.txid);
    assert.is(sa.res, 'ok');
    assert.is(sb.block, sa.block);
    assert.equal(sb, { error: true, res: 'unverified', block: sa.block });
  } finally {
    await slow.close();
  }
});

test('notify consumes seq and pays the fee', async () => {
  const seq = Number((await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq);
  const before = await balance(dev.address);
  const s = await waitStatus(node, await send(notify({ key: dev.key, from: dev.address, seq: seq + 1, t: nextT(), payload: [fee(5)] })));
  assert.is(s.res, 'ok');
  assert.is(await balance(dev.address), before - 1n);
  assert.is((await node.get(`/api/address/${addressToText(dev.address)}/seq`)).body.seq, seq + 1);
});

test.run();
