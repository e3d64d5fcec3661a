// One block holding a registration, a transfer and a failed transfer, read whole and through
// `?addr=`: the filter keeps exactly the transactions a wallet sent, received or registered,
// `failed` only among those, `bals` only that wallet; every answer is well-formed JSON.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { pay, register, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
let hash: string;
const txids: Record<'reg' | 'ok' | 'broke', string> = { reg: '', ok: '', broke: '' };
let registered: string;
const hex = (a: Uint8Array) => bytesToHex(a, true);

test.before(async () => {
  node = await startTestNode({ accounts: 3, fees: {}, instant: false, mineOnDemand: true });
  const [dev0, dev1, dev2] = node.chain.accounts;
  const t = Date.now();
  const sent = [
    ['reg', register(generateSecretKey(), t, 0)],
    ['ok', transfer({ key: dev0.secretKey, from: dev0.address, to: dev1.address, seq: 1, t: t + 1, payload: [pay(5)] })],
    // more than dev2 holds: fails with insufficient_fund, inside the same block
    ['broke', transfer({ key: dev2.secretKey, from: dev2.address, to: dev0.address, seq: 1, t: t + 2, payload: [pay(2n ** 63n)] })],
  ] as const;
  for (const [name, tx] of sent) {
    const res = await node.submit(tx);
    assert.is(res.status, 200, JSON.stringify(res.body));
    txids[name] = res.body.txid;
  }
  hash = (await node.chain.mineBlock()).hash;
  const status = (await node.get(`/api/tx/status/${txids.reg}`)).body.res;
  registered = status.address;
});

test.after(async () => {
  await node?.close();
});

async function block(addr?: Uint8Array | string): Promise<any> {
  const query = addr === undefined ? '' : `?addr=${typeof addr === 'string' ? addr : addressToText(addr)}`;
  const res = await node.get(`/api/block/${hash}${query}`);
  assert.is(res.status, 200, query);
  assert.type(res.body, 'object', `${query}: the answer is JSON`);
  return res.body.block;
}

test('the whole block: all three transactions, the failed one under failed, every changed wallet', async () => {
  const [dev0, dev1] = node.chain.accounts;
  const b = await block();
  assert.equal(Object.keys(b.txs).sort(), Object.values(txids).sort());
  assert.equal(Object.keys(b.failed), [txids.broke]);
  assert.is(b.failed[txids.broke], 'insufficient_fund');
  for (const a of [dev0.address, dev1.address]) assert.ok(hex(a) in b.bals, hex(a));
  assert.is(b.txs[txids.ok].from, hex(dev0.address));
  assert.equal(b.sign, []);
});

test('?addr= of the receiver: only the transfer to it, nothing failed, only its own balance', async () => {
  const [, dev1] = node.chain.accounts;
  const b = await block(dev1.address);
  assert.equal(Object.keys(b.txs), [txids.ok]);
  assert.equal(b.failed, {});
  assert.equal(Object.keys(b.bals), [hex(dev1.address)]);
  assert.ok((b.ledger_patch as unknown[][]).every((row) => row[0] === `0x${bytesToHex(dev1.address)}`));
});

test('?addr= of a sender and receiver: both of its transactions; its failed one stays under failed', async () => {
  const [dev0, , dev2] = node.chain.accounts;
  const both = await block(dev0.address);
  assert.equal(Object.keys(both.txs).sort(), [txids.ok, txids.broke].sort());
  assert.equal(Object.keys(both.failed), [txids.broke]);
  const sender = await block(dev2.address);
  assert.equal(Object.keys(sender.txs), [txids.broke]);
  assert.equal(sender.failed, { [txids.broke]: 'insufficient_fund' });
  assert.equal(sender.bals, {}, 'a failed transfer changes no wallet');
});

test('?addr= of the wallet registered here: its registration only', async () => {
  const b = await block(registered);
  assert.equal(Object.keys(b.txs), [txids.reg]);
  assert.is(b.txs[txids.reg].kind, 'register');
  assert.equal(b.failed, {});
  assert.equal(Object.keys(b.bals).length, 1);
});

test.run();
