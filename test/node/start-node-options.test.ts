// startNode()'s options and the handle it returns: the defaults documented on its options
// (instant blocks, memory, any free port, silent, 3 accounts), blockTime's three forms, the
// summaries and heads its controls give back, keys handed out as copies, whole numbers as
// bigint, number or decimal text, fault rules checked as the dev API checks them, a --static
// folder that is not there, and a close that may be called twice.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startNode } from '../../src/node/index.js';
import { createClient } from '../../src/client/index.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { rejection } from '../helpers/helpers.js';

const FRESH = addressToText(makeAddress({ group: 10, block: 1, wallet: 4343 }));

test('defaults: instant blocks, in memory, a free port, three accounts; blockTime in ms, instant or on demand; anything else refused', async () => {
  const node = await startNode({ difficulty: 0 });
  try {
    const status = await createClient({ baseUrl: node.url }).nodeStatus();
    assert.is(status.blocks, 'instant');
    assert.is(node.accounts.length, 3);
    assert.is.not(new URL(node.url).port, '43280');
    assert.is(node.wsUrl, `${node.url.replace('http://', 'ws://')}/api/ws`);
  } finally {
    await node.close();
  }
  for (const [blockTime, blocks] of [
    [250, 'interval'],
    ['on-demand', 'on-demand'],
  ] as const) {
    const other = await startNode({ difficulty: 0, blockTime, accounts: 0 });
    try {
      assert.is((await createClient({ baseUrl: other.url }).nodeStatus()).blocks, blocks, String(blockTime));
      assert.is(other.accounts.length, 0);
    } finally {
      await other.close();
    }
  }
  const bad = await rejection(startNode({ blockTime: 'fast' as never }));
  assert.is(bad.code, 'CONFIG_INVALID');
  assert.is(bad.field, 'blockTime');
  assert.is((await rejection(startNode({ blockTime: 0 }))).code, 'CONFIG_INVALID');
  assert.is((await rejection(startNode({ accounts: 1001 }))).code, 'CONFIG_INVALID');
  const missing = await rejection(startNode({ config: { staticDir: '/no/such/folder/here' } }));
  assert.is(missing.code, 'CONFIG_INVALID');
  assert.is(missing.field, 'staticDir');
});

test('the handle: faucet in SK by default, snapshots without a name unnamed, revert and rollback give the head, setTime the clock', async () => {
  const node = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 1 });
  try {
    const client = createClient({ baseUrl: node.url });
    const start = node.height();
    const credited = await node.faucet(FRESH, 5);
    assert.equal(credited, { hash: credited.hash, height: start + 1 });
    assert.match(credited.hash, /^[0-9A-F]{64}$/);
    assert.equal((await client.getAddress(FRESH)).amount, { SK: 5n });
    await node.faucet(FRESH, 2n, 'FTT');
    assert.equal((await client.getAddress(FRESH)).amount, { SK: 5n, FTT: 2n });
    const plain = await node.snapshot();
    assert.equal(Object.keys(plain).sort(), ['height', 'id']);
    assert.is(plain.height, start + 2);
    const named = await node.snapshot('two');
    assert.equal(node.snapshots(), [plain, named]);
    const [mined] = await node.mine();
    assert.is(mined.height, start + 3);
    assert.is(node.height(), start + 3, 'mine() makes one block by default');
    const back = await node.revert(plain.id);
    assert.is(back.height, start + 2);
    assert.match(back.hash, /^[0-9A-F]{64}$/);
    assert.is(node.height(), start + 2);
    const head = await node.rollback(start + 1);
    assert.equal(head, { height: start + 1, hash: credited.hash });
    await node.deleteSnapshot(plain.id);
    assert.equal(
      node.snapshots().map((s) => s.id),
      [],
    );
    const moved = await node.setTime({ offsetMs: 3_600_000 });
    assert.is(moved.offsetMs, 3_600_000);
    assert.ok(Math.abs(moved.now - (Date.now() + 3_600_000)) < 60_000);
    assert.ok(Math.abs(node.now() - (Date.now() + 3_600_000)) < 60_000);
  } finally {
    await node.close();
  }
});

test('keys are handed out as copies; whole numbers as bigint, number or decimal text; rules checked as the dev API checks them', async () => {
  const node = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 1 });
  try {
    const [account] = node.accounts;
    account.secretKey.fill(0);
    account.publicKey.fill(0);
    const again = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 1 });
    try {
      assert.equal(again.accounts[0].secretKeyHex, account.secretKeyHex);
    } finally {
      await again.close();
    }
    assert.is(/^0+$/.test(account.secretKeyHex), false);
    const client = createClient({ baseUrl: node.url });
    const [held] = await client.dev.accounts();
    assert.is(held.secretKeyHex, account.secretKeyHex, "the node's own key is untouched");
    assert.is(held.publicKeyHex, account.publicKeyHex);
    await node.setBalance(FRESH, '18446744073709551615' as never);
    assert.is((await client.getAddress(FRESH)).amount.SK, 18446744073709551615n);
    await node.setBalance(FRESH, 7, 'FTT');
    assert.is((await client.getAddress(FRESH)).amount.FTT, 7n);
    await node.setSeq(FRESH, 12);
    assert.is(await client.getSeq(FRESH), 12n);
    await node.setSeq(FRESH, '9' as never);
    assert.is(await client.getSeq(FRESH), 9n, 'one digit is decimal text too');
    for (const bad of [1.5, '-1', '1e3', '123456789012345678901']) assert.is((await rejection(node.setSeq(FRESH, bad as never))).code, 'BAD_REQUEST_PARAM', String(bad));
    assert.is(await node.createWallet({ address: addressToText(makeAddress({ group: 10, block: 1, wallet: 4444 })) }), addressToText(makeAddress({ group: 10, block: 1, wallet: 4444 })));
    const rule = node.faults.add({ path: '/api/settings', action: 'error' });
    assert.equal(rule, { path: 'settings', action: 'error', status: 503, code: 'NODE_INTERNAL', id: 1, fired: 0 });
    assert.is((await rejection(client.getSettings())).code, 'API_ERROR');
    assert.is(node.faults.list()[0].fired, 1);
    let code: string | undefined;
    try {
      node.faults.add({ path: 'dev/mine', action: 'drop' });
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    assert.is(code, 'BAD_REQUEST_PARAM');
    assert.is(node.faults.clear([1]), 1);
    assert.equal(await client.getSettings('current.register'), { diff: 0 });
  } finally {
    const first = node.close();
    assert.is(node.close(), first, 'a second close is the same closing');
    await first;
  }
});

test('beyond loopback the dev API goes off unless asked for; with blocks on demand that is refused, since no block could be made', async () => {
  const err = await rejection(startNode({ host: '0.0.0.0', blockTime: 'on-demand' }));
  assert.is(err.code, 'CONFIG_INVALID');
  assert.is(err.field, 'mineOnDemand');
  assert.match(err.message, /development API is off on 0\.0\.0\.0/);
  const node = await startNode({ host: '0.0.0.0', blockTime: 'on-demand', difficulty: 0, accounts: 0, config: { devApiBeyondLoopback: true } });
  try {
    const port = new URL(node.url).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/dev/mine`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.is(res.status, 200);
  } finally {
    await node.close();
  }
});

test.run();
