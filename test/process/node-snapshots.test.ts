// Snapshots and rollback beyond one process: the undo journal gives back exactly the stored
// state (random writes, any snapshot), named snapshots of a data dir survive a restart and a
// SIGKILL, and the official SDK still bootstraps and transfers after a revert and a rollback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { createClient } from '../../src/client/index.js';
import { JournalStore } from '../../src/node/store/journal-store.js';
import { startNode } from '../../src/node/index.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import { pay, startTestNode, testConfig, transfer } from '../helpers/node-helpers.js';
import { spawnNode } from '../helpers/node-process.js';
import { sandboxSdk, sdk, toWif } from '../helpers/tssdk-helpers.js';

const stranger = addressToText(makeAddress({ group: 10, block: 1, wallet: 4242 }));

async function dump(store: JournalStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const [key, value] of store.entries('')) if (!/^(j:|snap:|journal$)/.test(key)) out.set(key, Buffer.from(value).toString('hex'));
  return out;
}

test('journal: after random batches, reverting to any snapshot gives back exactly the store it saw', async () => {
  const store = await JournalStore.open(new MemoryStore());
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const states: { id: string; state: Map<string, string> }[] = [];
  for (let round = 0; round < 60; round++) {
    const ops: StoreOp[] = [];
    for (let i = 0, n = 1 + random(5); i < n; i++) {
      const key = `k:${random(12)}`;
      ops.push(random(4) === 0 ? { type: 'del', key } : { type: 'put', key, value: Buffer.from([round, i]) });
    }
    await store.batch(ops);
    if (random(5) === 0) states.push({ id: (await store.take(round)).id, state: await dump(store) });
  }
  assert.ok(states.length >= 3);
  // Newest first: an older revert drops the newer snapshots.
  for (const { id, state } of [...states].reverse()) {
    await store.revert(store.find(id));
    assert.equal(await dump(store), state, `snapshot ${id}`);
  }
  // The oldest stays valid: writes, then revert to it again.
  await store.batch([{ type: 'put', key: 'k:new', value: Buffer.from([1]) }]);
  await store.revert(store.find(states[0].id));
  assert.equal(await dump(store), states[0].state);
  assert.equal(
    store.list().map((s) => s.id),
    [states[0].id],
  );
  // Deleting the last snapshot deletes the undo records too.
  await store.remove(store.find(states[0].id));
  const left: string[] = [];
  for await (const [key] of store.entries('j:')) left.push(key);
  assert.equal(left, []);
});

test('a snapshot keeps pending transactions: one pending at the snapshot is pending again after revert, one accepted after it is unknown', async () => {
  const node = await startTestNode({ mineOnDemand: true, instant: false });
  try {
    const account = node.chain.accounts[0];
    const to = makeAddress({ group: 10, block: 1, wallet: 4243 });
    const tx = (seq: number) => transfer({ key: account.secretKey, from: account.address, to, seq, t: Date.now() + seq, payload: [pay(1)] });
    const first = (await node.submit(tx(1))).body.txid as string;
    const snap = await node.control.snapshot();
    const second = (await node.submit(tx(2))).body.txid as string;
    await node.chain.mineBlock();
    assert.is((await node.get(`/api/tx/status/${first}`)).body.res.ok, true);
    const third = (await node.submit(tx(3))).body.txid as string;
    assert.is((await node.get(`/api/tx/status/${third}`)).body.res, null);
    await node.control.revert(snap.id);
    assert.is((await node.get(`/api/tx/status/${third}`)).body.error, 'TX_NOT_FOUND', 'pending at the revert, accepted after the snapshot');
    assert.is((await node.get(`/api/tx/status/${first}`)).body.res, null, 'pending again');
    assert.is((await node.get(`/api/tx/status/${second}`)).body.error, 'TX_NOT_FOUND');
    await node.chain.mineBlock();
    assert.is((await node.get(`/api/tx/status/${first}`)).body.res.ok, true);
  } finally {
    await node.close();
  }
});

test('transactions held by a fault rule count against the pending limit and are dropped by a revert', async () => {
  const node = await startTestNode({ limits: { ...testConfig().limits, maxPending: 2 } });
  try {
    const account = node.chain.accounts[0];
    const to = makeAddress({ group: 10, block: 1, wallet: 4244 });
    const snap = await node.control.snapshot();
    node.control.faults.add({ path: 'tx/new', action: 'hold' });
    const tx = (seq: number) => transfer({ key: account.secretKey, from: account.address, to, seq, t: Date.now() + seq, payload: [pay(1)] });
    const held = [];
    for (const seq of [1, 2]) held.push((await node.submit(tx(seq))).body.txid as string);
    const refused = await node.submit(tx(3));
    assert.is(refused.status, 503);
    assert.is(refused.body.error, 'MEMPOOL_FULL');
    assert.is((await node.get(`/api/tx/status/${held[0]}`)).body.res, null);
    node.control.faults.clear();
    await node.control.revert(snap.id);
    assert.is((await node.get(`/api/tx/status/${held[0]}`)).body.error, 'TX_NOT_FOUND');
    assert.is((await node.submit(tx(1))).status, 200, 'room again');
  } finally {
    await node.close();
  }
});

test('with --no-dev-api every test control is a 403 DEV_API_DISABLED', async () => {
  const node = await startTestNode({ devApi: false });
  try {
    for (const path of ['snapshot', 'revert', 'rollback', 'time', 'setBalance', 'setSeq', 'createWallet', 'faults']) {
      const res = await node.post(`/api/dev/${path}`, '{}');
      assert.is(res.status, 403, path);
      assert.is(res.body.error, 'DEV_API_DISABLED', path);
    }
    for (const path of ['snapshot', 'time', 'faults']) assert.is((await node.get(`/api/dev/${path}`)).status, 403, path);
  } finally {
    await node.close();
  }
});

test('a named snapshot of a data dir survives a restart, and its id stays valid for reverting again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-snap-'));
  try {
    let node = await startNode({ memory: false, dataDir: dir, difficulty: 0 });
    await node.faucet(stranger, 1000);
    const base = await node.snapshot('base');
    const height = node.height();
    await node.faucet(stranger, 1);
    await node.close();
    node = await startNode({ memory: false, dataDir: dir, difficulty: 0 });
    try {
      assert.equal(node.snapshots(), [{ id: base.id, name: 'base', height }]);
      const client = createClient({ baseUrl: node.url });
      assert.is((await client.getAddress(stranger)).amount.SK, 1001n);
      await node.revert('base');
      assert.is(node.height(), height);
      assert.is((await client.getAddress(stranger)).amount.SK, 1000n);
      await node.faucet(stranger, 5);
      await node.revert(base.id);
      assert.is((await client.getAddress(stranger)).amount.SK, 1000n);
    } finally {
      await node.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a named snapshot survives SIGKILL of the node process; revert after the restart gives back its chain', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-snap-kill-'));
  const args = ['--data-dir', dir, '--port', '0', '--instant', '--difficulty', '0', '--verify-threads', '0', '--log-level', 'error'];
  try {
    let proc = await spawnNode(args);
    let client = createClient({ baseUrl: proc.url });
    await client.dev.faucet(stranger, 1000);
    const snap = await client.dev.snapshot('before-kill');
    await client.dev.faucet(stranger, 1);
    await client.dev.setTime({ offsetMs: 5000 });
    proc.proc.kill('SIGKILL');
    await proc.exited;
    proc = await spawnNode(args);
    try {
      client = createClient({ baseUrl: proc.url });
      assert.equal(
        (await client.dev.snapshots()).map((s) => [s.id, s.name, s.height]),
        [[snap.id, 'before-kill', snap.height]],
      );
      assert.is((await client.getAddress(stranger)).amount.SK, 1001n);
      assert.is((await client.dev.time()).offsetMs, 5000, 'the clock offset is kept too');
      const moved = await client.dev.revert('before-kill');
      assert.is(moved.height, snap.height);
      assert.is(moved.clockOffsetMs, 0);
      assert.is((await client.getAddress(stranger)).amount.SK, 1000n);
    } finally {
      await proc.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the official SDK bootstraps, reads and transfers after a revert and after a rollback', async () => {
  const node = await startTestNode({ accounts: 2, difficulty: 0, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } } });
  const sandbox = sandboxSdk();
  try {
    sandbox.setNodes([{ address: node.url, nodeId: 'tpkit' }], 1);
    const account = node.chain.accounts[0];
    const from = addressToText(account.address);
    const to = addressToText(node.chain.accounts[1].address);
    const snap = await node.control.snapshot();
    const height = node.chain.height;
    for (let i = 0; i < 3; i++) await node.chain.mineBlock();
    await node.control.revert(snap.id);
    assert.is(node.chain.height, height);
    const afterRevert = new sdk.NetworkApi(1, false);
    await afterRevert.bootstrap();
    assert.equal(
      afterRevert.upload().currentNodes.map((n) => n.height),
      [height],
    );
    const wallets = new sdk.WalletApi(afterRevert);
    const sent = await wallets.makeNewTx(toWif(account.secretKey), from, to, 'SK', 100, 'after revert');
    assert.is(sent.res, 'ok', JSON.stringify(sent));

    const head = node.chain.height;
    await node.control.rollback(head - 1);
    assert.is(node.chain.height, head - 1);
    assert.is((await afterRevert.getWallet(from)).seq, 0, 'the transfer was in the dropped block');
    const afterRollback = new sdk.NetworkApi(1, false);
    await afterRollback.bootstrap();
    assert.equal(
      afterRollback.upload().currentNodes.map((n) => n.height),
      [head - 1],
    );
    const again = await new sdk.WalletApi(afterRollback).makeNewTx(toWif(account.secretKey), from, to, 'SK', 100, 'after rollback');
    assert.is(again.res, 'ok', JSON.stringify(again));
    assert.is((await afterRollback.getWallet(from)).seq, 1);
    assert.equal(sandbox.refused, []);
  } finally {
    sandbox.restore();
    await node.close();
  }
});

test.run();
