// The dev controls keep their word: a deleted snapshot is gone for good; a rollback keeps dev
// edits made before the dropped blocks and the wallets the dev API made, with their numbers; a fault batch installs all or nothing;
// mining with intervalMs keeps the clock within the bound setTime keeps. A submission racing a
// revert or a rollback: submission-across-reset.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressParts, addressToText, makeAddress } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { MemoryStore } from '../../src/node/store/store.js';
import { pay, register, startTestNode, transfer, waitStatus } from '../helpers/node-helpers.js';
import { rejection } from '../helpers/helpers.js';
import { createLogger } from '../../src/node/base/log.js';

test('a deleted snapshot is gone: not listed, not found for a revert or a second delete, across a restart; the others still revert exactly', async () => {
  const store = new MemoryStore();
  const node = await startTestNode({ accounts: 1, difficulty: 0 }, { store });
  const [dev] = node.chain.accounts;
  const balance = async () => (await node.get(`/api/address/${typeof dev.address === 'string' ? dev.address : addressToText(dev.address)}`)).body.info.amount.SK;
  let keptId: string;
  try {
    const kept = await node.control.snapshot('kept');
    keptId = kept.id;
    const before = await balance();
    await node.control.setBalance(dev.address, 'SK', 1n);
    const doomed = await node.control.snapshot('doomed');
    await node.control.deleteSnapshot('doomed');
    assert.equal(
      node.control.snapshots().map((s) => s.name),
      ['kept'],
    );
    for (const name of ['doomed', doomed.id]) {
      assert.is((await rejection(node.control.revert(name))).code, 'SNAPSHOT_NOT_FOUND');
      assert.is((await rejection(node.control.deleteSnapshot(name))).code, 'SNAPSHOT_NOT_FOUND');
    }
    await node.control.revert('kept');
    assert.equal(await balance(), before);
  } finally {
    await node.close();
  }
  const restarted = await startTestNode({ accounts: 1, difficulty: 0 }, { store });
  try {
    assert.equal(
      restarted.control.snapshots().map((s) => s.id),
      [keptId],
    );
    const next = await restarted.control.snapshot('after');
    assert.is.not(next.id, keptId);
  } finally {
    await restarted.close();
  }
});

test('rollback keeps a balance the dev API set before the dropped block, and dev-made wallets with their numbers', async () => {
  const node = await startTestNode({ instant: false, mineOnDemand: true, accounts: 2 });
  try {
    const [a, b] = node.chain.accounts;
    await node.control.setBalance(a.address, 'SK', 5000n);
    const key = new Uint8Array(32).fill(7);
    const made = await node.control.createWallet({ publicKey: publicKeyOf(key) });
    const number = addressParts(made.address).wallet;
    const before = node.chain.height;
    const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: made.address, seq: 1, t: Date.now(), payload: [pay(100)] }));
    await node.control.mine(1);
    assert.is((await waitStatus(node, sent.body.txid)).res, 'ok');
    // A register in the dropped block takes the next number.
    const regKey = new Uint8Array(32).fill(9);
    const reg = await node.submit(register(regKey, Date.now(), 0));
    await node.control.mine(1);
    const regAddress = (await waitStatus(node, reg.body.txid)).address;
    await node.control.rollback(before);
    const info = async (address: Uint8Array | string) => (await node.get(`/api/address/${typeof address === 'string' ? address : addressToText(address)}`)).body;
    assert.is(BigInt((await info(a.address)).info.amount.SK), 5000n, 'the dev balance, not the genesis one');
    const kept = await info(made.address);
    assert.is(kept.info.amount.SK, undefined, 'the transfer to it is undone');
    assert.is(addressParts(made.address).wallet, number);
    assert.is((await info(regAddress)).error, 'WALLET_NOT_FOUND', 'the registered wallet went with its block');
    // The dev-made wallet's number is never handed out again; the register's is.
    const again = await node.control.createWallet({ publicKey: publicKeyOf(new Uint8Array(32).fill(11)) });
    assert.is.not(addressParts(again.address).wallet, number);
    assert.is(addressToText(again.address), regAddress, 'the freed number is the next');
    assert.is((await node.control.createWallet({ publicKey: publicKeyOf(key) })).address.join(), made.address.join(), 'the same key finds its wallet');
    void b;
  } finally {
    await node.close();
  }
});

test('a snapshot name given again moves to the new snapshot, also after a restart; deleting one frees only the undo records no other needs', async () => {
  const store = new MemoryStore();
  const config = { instant: false, mineOnDemand: true, accounts: 1 };
  const undoRecords = async () => {
    const keys: string[] = [];
    for await (const [key] of store.entries('j:')) keys.push(key);
    return keys;
  };
  let node = await startTestNode(config, { store });
  const owner = node.chain.accounts[0].address;
  let first, second;
  try {
    first = await node.control.snapshot('base');
    await node.control.setBalance(owner, 'SK', 111n);
    second = await node.control.snapshot('base');
    await node.control.setBalance(owner, 'SK', 222n);
  } finally {
    await node.close();
  }
  node = await startTestNode(config, { store });
  try {
    const balance = () => node.chain.wallets.get(Buffer.from(owner).toString('hex'))?.amount.get('SK');
    assert.equal(
      node.control.snapshots().map((s) => [s.id, s.name]),
      [
        [first.id, undefined],
        [second.id, 'base'],
      ],
      'the name moved, on disk too',
    );
    assert.equal(await undoRecords(), ['j:000000000001', 'j:000000000002']);
    await node.control.deleteSnapshot(first.id);
    assert.equal(await undoRecords(), ['j:000000000002'], 'the record only the deleted snapshot needed is gone');
    await node.control.revert('base');
    assert.is(balance(), 111n, 'the kept snapshot reverts whole');
    await node.control.deleteSnapshot('base');
    assert.equal(await undoRecords(), []);
    assert.equal(node.control.snapshots(), []);
  } finally {
    await node.close();
  }
});

test('rollback over blocks an older node wrote (no "pre"): wallets go back to the block that changed them before, wallets they made go', async () => {
  const store = new MemoryStore();
  const config = { instant: false, mineOnDemand: true, accounts: 2 };
  let node = await startTestNode(config, { store });
  const [a, b] = node.chain.accounts;
  const fresh = makeAddress({ group: 10, block: 1, wallet: 9300 });
  const info = async (address: Uint8Array) => (await node.get(`/api/address/${addressToText(address)}`)).body;
  const before = node.chain.height;
  const was = [(await info(a.address)).info, (await info(b.address)).info];
  try {
    await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(100)] }));
    const made = await node.submit(transfer({ key: a.secretKey, from: a.address, to: fresh, seq: 2, t: Date.now() + 1, payload: [pay(50)] }));
    await node.control.mine(1);
    assert.is((await waitStatus(node, made.body.txid)).res, 'ok');
  } finally {
    await node.close();
  }
  // An older node kept no "pre" in its blocks: the rollback finds each wallet's earlier state by its preblk.
  for await (const [key, value] of store.entries('b:')) {
    const record = JSON.parse(Buffer.from(value).toString());
    if (record.header.height <= before) continue;
    delete record.pre;
    await store.batch([{ type: 'put', key, value: Buffer.from(JSON.stringify(record)) }]);
  }
  node = await startTestNode(config, { store });
  try {
    await node.control.rollback(before);
    assert.equal([(await info(a.address)).info, (await info(b.address)).info], was);
    assert.is((await info(fresh)).error, 'WALLET_NOT_FOUND', 'the wallet the dropped block made is gone');
  } finally {
    await node.close();
  }
});

test('a fault batch that does not fit is refused whole; one that fits goes in whole', async () => {
  const node = await startTestNode();
  try {
    const rule = { path: 'node/status', action: 'delay', delayMs: 1 };
    const first = await node.post('/api/dev/faults', JSON.stringify({ rules: Array.from({ length: 60 }, () => rule) }));
    assert.is(first.status, 200);
    const refused = await node.post('/api/dev/faults', JSON.stringify({ rules: Array.from({ length: 50 }, () => rule) }));
    assert.is(refused.status, 400);
    assert.is(refused.body.error, 'BAD_REQUEST_PARAM');
    assert.match(refused.body.details ?? refused.body.msg, /none added/);
    assert.is(node.control.faults.list().length, 60);
    const fits = await node.post('/api/dev/faults', JSON.stringify({ rules: Array.from({ length: 40 }, () => rule) }));
    assert.is(fits.status, 200);
    assert.is(node.control.faults.list().length, 100);
    // A batch with one bad rule installs none either.
    node.control.faults.clear();
    const bad = await node.post('/api/dev/faults', JSON.stringify({ rules: [rule, { path: 'tx/new', action: 'explode' }] }));
    assert.is(bad.status, 400);
    assert.is(node.control.faults.list().length, 0);
  } finally {
    await node.close();
  }
});

test('a request a delay fault holds is dropped when its client gives up: never run later, nothing logged for it, nothing submitted', async () => {
  const lines: string[] = [];
  const node = await startTestNode({ accounts: 2, instant: false, mineOnDemand: true }, { logger: createLogger('debug', (line) => lines.push(line)) });
  try {
    const rule = node.control.faults.add({ path: 'tx/new', action: 'delay', delayMs: 200 });
    const [a, b] = node.chain.accounts;
    const raw = transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(1)] });
    const giveUp = new AbortController();
    const sent = fetch(node.url + '/api/tx/new', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx: raw }), signal: giveUp.signal }).catch(() => 'gave up');
    while (node.control.faults.list().find((f) => f.id === rule.id)?.fired !== 1) await new Promise((r) => setTimeout(r, 5));
    giveUp.abort();
    assert.is(await sent, 'gave up');
    const before = lines.length;
    // Five times the delay: a timer left running would have run the request by now.
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(
      lines.slice(before).filter((l) => l.includes('tx/new')),
      [],
    );
    assert.is(node.chain.mempool.size, 0);
  } finally {
    await node.close();
  }
});

test('the clock may be moved to exactly 100 years either way of the system clock, not one millisecond more', async () => {
  const node = await startTestNode({ accounts: 0 });
  const bound = 100 * 365 * 86_400_000;
  try {
    for (const offsetMs of [bound, -bound]) assert.is((await node.control.setTime({ offsetMs })).clockOffsetMs, offsetMs);
    for (const offsetMs of [bound + 1, -bound - 1]) assert.is((await rejection(node.control.setTime({ offsetMs }))).code, 'BAD_REQUEST_PARAM');
  } finally {
    await node.close();
  }
});

test('mine with intervalMs past the clock bound is refused before any block; within it, it goes', async () => {
  const node = await startTestNode({ instant: false, mineOnDemand: true });
  try {
    const bound = 100 * 365 * 86_400_000;
    await node.control.setTime({ offsetMs: bound - 86_400_000 });
    const height = node.chain.height;
    const err = await rejection(node.control.mine(3, 86_400_000));
    assert.is(err.code, 'BAD_REQUEST_PARAM');
    assert.is(node.chain.height, height, 'no block made');
    assert.is(node.chain.clockOffsetMs, bound - 86_400_000, 'the clock did not move');
    await node.control.mine(1, 86_400_000);
    assert.is(node.chain.clockOffsetMs, bound);
    const http = await node.post('/api/dev/mine', JSON.stringify({ blocks: 1, intervalMs: 1 }));
    assert.is(http.status, 400);
    assert.is(http.body.error, 'BAD_REQUEST_PARAM');
  } finally {
    await node.close();
  }
});

test.run();
