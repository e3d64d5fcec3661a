// The development controls at each bound, at the limit and one past it: a balance and a seq
// of 0 to 2^64 - 1 (the ledger's uint64), a currency name of 1 to 32 printable characters,
// 1 to 100 blocks a call spaced 0 to 86400000 ms, a rollback height from 0 to the head; what is
// refused changes nothing. Through startNode() and through the HTTP routes alike.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startNode, type RunningNode } from '../../src/node/index.js';
import { createClient } from '../../src/client/index.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { rejection } from '../helpers/helpers.js';
import { parseApiJson } from '../../src/client/api-json.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { bytesToHex } from '../../src/bytes.js';

const MAX_U64 = 2n ** 64n - 1n;
const FRESH = addressToText(makeAddress({ group: 10, block: 1, wallet: 4242 }));

async function withNode(run: (node: RunningNode) => Promise<void>): Promise<void> {
  const node = await startNode({ difficulty: 0, blockTime: 'on-demand', accounts: 1 });
  try {
    await run(node);
  } finally {
    await node.close();
  }
}

async function post(node: RunningNode, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${node.url}/api/dev/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  // Amounts past 2^53 come back exact, as the client reads them.
  return { status: res.status, body: parseApiJson(await res.text()) };
}

test('setBalance: 0 and 2^64 - 1 are set exactly, 2^64 and -1 are refused with nothing changed; 0 removes the currency', async () => {
  await withNode(async (node) => {
    const client = createClient({ baseUrl: node.url });
    await node.setBalance(FRESH, MAX_U64);
    assert.is((await client.getAddress(FRESH)).amount.SK, MAX_U64);
    for (const amount of [MAX_U64 + 1n, -1n]) {
      const err = await rejection(node.setBalance(FRESH, amount));
      assert.is(err.code, 'BAD_REQUEST_PARAM', String(amount));
      assert.is(err.field, 'amount');
    }
    assert.is((await client.getAddress(FRESH)).amount.SK, MAX_U64, 'unchanged by the refusals');
    await node.setBalance(FRESH, 7n, 'FTT');
    await node.setBalance(FRESH, 0n);
    assert.equal((await client.getAddress(FRESH)).amount, { FTT: 7n });
    const http = await post(node, 'setBalance', { address: FRESH, amount: (MAX_U64 + 1n).toString() });
    assert.is(http.status, 400);
    assert.is(http.body.error, 'BAD_REQUEST_PARAM');
    const edge = await post(node, 'setBalance', { address: FRESH, currency: 'SK', amount: MAX_U64.toString() });
    assert.is(edge.status, 200);
    assert.is(edge.body.info.amount.SK, MAX_U64);
  });
});

test('a currency name is 1 to 32 printable characters', async () => {
  await withNode(async (node) => {
    await node.setBalance(FRESH, 1n, 'C'.repeat(32));
    for (const currency of ['C'.repeat(33), '', 'S K']) {
      assert.is((await rejection(node.setBalance(FRESH, 1n, currency))).code, 'BAD_REQUEST_PARAM', currency);
      assert.is((await post(node, 'setBalance', { address: FRESH, currency, amount: '1' })).status, 400, currency);
    }
    const faucet = await post(node, 'faucet', { address: FRESH, amount: 1, currency: 'C'.repeat(33) });
    assert.is(faucet.body.field, 'currency');
  });
});

test('setSeq: 0 and 2^64 - 1 are set, 2^64 and -1 are not; a wallet that does not exist is WALLET_NOT_FOUND', async () => {
  await withNode(async (node) => {
    const client = createClient({ baseUrl: node.url });
    assert.is((await rejection(node.setSeq(FRESH, 1n))).code, 'WALLET_NOT_FOUND');
    await node.setBalance(FRESH, 1n);
    await node.setSeq(FRESH, MAX_U64);
    assert.is(await client.getSeq(FRESH), MAX_U64);
    await node.setSeq(FRESH, 0n);
    assert.is(await client.getSeq(FRESH), 0n);
    for (const seq of [MAX_U64 + 1n, -1n]) assert.is((await rejection(node.setSeq(FRESH, seq))).field, 'seq', String(seq));
    assert.is((await post(node, 'setSeq', { address: FRESH, seq: '18446744073709551615' })).status, 200);
    assert.is((await post(node, 'setSeq', { address: FRESH, seq: '018446744073709551615' })).status, 400, 'at most 20 digits');
    assert.is((await post(node, 'setSeq', { address: FRESH, seq: -1 })).status, 400);
    assert.is((await post(node, 'setSeq', { address: FRESH, seq: 0 })).status, 200, 'a JSON number 0');
    assert.is(await client.getSeq(FRESH), 0n);
    assert.is((await post(node, 'setSeq', { address: FRESH, seq: 3 })).status, 200);
    assert.is(await client.getSeq(FRESH), 3n);
  });
});

test('mine: 1 to 100 blocks a call, 0 to 86400000 ms apart; the clock moves that far before each block', async () => {
  await withNode(async (node) => {
    const start = node.height();
    for (const blocks of [0, 101, 1.5, '2']) {
      const refused = await post(node, 'mine', { blocks });
      assert.is(refused.status, 400, String(blocks));
      assert.is(refused.body.field, 'blocks');
    }
    for (const intervalMs of [-1, 86_400_001]) {
      assert.is((await post(node, 'mine', { blocks: 1, intervalMs })).body.field, 'intervalMs', String(intervalMs));
      assert.is((await rejection(node.mine(1, { intervalMs }))).code, 'CONFIG_INVALID', String(intervalMs));
    }
    assert.is(node.height(), start, 'nothing mined by a refusal');
    const hundred = await post(node, 'mine', { blocks: 100 });
    assert.is(hundred.body.blocks.length, 100);
    const [still] = await node.mine(1, { intervalMs: 0 });
    const spaced = await node.mine(2, { intervalMs: 86_400_000 });
    assert.is(spaced[0].time - still.time >= 86_400_000, true, 'a day later');
    assert.is(spaced[1].time - spaced[0].time >= 86_400_000, true);
    assert.is((await node.setTime({ offsetMs: 0 })).offsetMs, 0);
    const viaHttp = await post(node, 'mine', { blocks: 1, intervalMs: 86_400_000 });
    assert.is(viaHttp.status, 200);
    assert.is((await node.setTime({ offsetMs: 0 })).offsetMs, 0);
    assert.is(node.height(), start + 104);
  });
});

test('rollback: to 0 and to the head itself are taken, -1 and above the head are refused', async () => {
  await withNode(async (node) => {
    await node.mine(3);
    const head = node.height();
    for (const height of [-1, head + 1, 1.5]) {
      const err = await rejection(node.rollback(height));
      assert.is(err.code, 'BAD_REQUEST_PARAM', String(height));
      assert.is(err.field, 'height');
    }
    assert.is((await node.rollback(head)).height, head);
    assert.is((await post(node, 'rollback', {})).body.field, 'height');
    assert.is((await post(node, 'rollback', { height: head + 1 })).status, 400);
    assert.is((await node.rollback(0)).height, 0);
    assert.is(node.height(), 0);
  });
});

test('setTime takes one of offsetMs and setMs; setMs puts the clock there', async () => {
  await withNode(async (node) => {
    for (const to of [{}, { offsetMs: 1, setMs: 1 }]) assert.is((await rejection(node.setTime(to as never))).code, 'BAD_REQUEST_PARAM');
    const at = 4_000_000_000_000;
    const moved = await node.setTime({ setMs: at });
    assert.ok(moved.now >= at && moved.now < at + 60_000, `now ${moved.now}`);
    assert.ok(Math.abs(moved.offsetMs - (at - Date.now())) < 60_000);
    assert.is((await post(node, 'time', { offsetMs: 'x' })).body.field, 'offsetMs');
  });
});

test('createWallet: a key twice is one wallet; an address taken is refused; neither key nor address is refused', async () => {
  await withNode(async (node) => {
    const key = bytesToHex(publicKeyOf(new Uint8Array(32).fill(7)));
    const first = await node.createWallet({ publicKey: key });
    assert.is(await node.createWallet({ publicKey: key }), first);
    const again = await post(node, 'createWallet', { publicKey: key });
    assert.equal([again.body.address, again.body.created], [first, false]);
    const other = await post(node, 'createWallet', { public_key: bytesToHex(publicKeyOf(new Uint8Array(32).fill(8))) });
    assert.equal([other.status, other.body.created], [200, true]);
    assert.is.not(other.body.address, first);
    assert.is((await rejection(node.createWallet({ address: first }))).code, 'BAD_REQUEST_PARAM');
    assert.is((await post(node, 'createWallet', {})).body.error, 'BAD_REQUEST_PARAM');
    assert.is((await post(node, 'createWallet', { publicKey: 5 })).body.field, 'publicKey');
    assert.is(await node.createWallet({ address: FRESH }), FRESH);
  });
});

test('the fault routes: clear takes true or a list of ids; a batch with one bad rule adds none', async () => {
  await withNode(async (node) => {
    const added = await post(node, 'faults', {
      rules: [
        { path: 'settings', action: 'drop' },
        { path: 'address', action: 'drop' },
      ],
    });
    assert.equal(
      added.body.added.map((f: { id: number }) => f.id),
      [1, 2],
    );
    const bad = await post(node, 'faults', {
      rules: [
        { path: 'a', action: 'drop' },
        { path: 'b', action: 'boom' },
      ],
    });
    assert.is(bad.body.field, 'action');
    assert.is(node.faults.list().length, 2);
    for (const clear of ['all', [1, 'x'], 1]) assert.is((await post(node, 'faults', { clear })).body.field, 'clear', String(clear));
    const one = await post(node, 'faults', { clear: [1] });
    assert.equal([one.body.cleared, one.body.faults.map((f: { id: number }) => f.id)], [1, [2]]);
    assert.is((await post(node, 'faults', { clear: true })).body.cleared, 1);
    assert.is((await post(node, 'faults', 'not json')).body.error, 'NOT_JSON');
    assert.is((await post(node, 'faults', '[1]')).body.error, 'BAD_REQUEST_PARAM');
  });
});

test('route defaults: an empty body is {}, one block; SK where no currency is given; a snapshot id may be a number', async () => {
  await withNode(async (node) => {
    const client = createClient({ baseUrl: node.url });
    const start = node.height();
    const res = await fetch(`${node.url}/api/dev/mine`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    assert.is(res.status, 200);
    assert.is(node.height(), start + 1);
    const credited = await post(node, 'faucet', { address: FRESH, amount: 4 });
    assert.is(credited.body.currency, 'SK');
    await post(node, 'setBalance', { address: FRESH, amount: '6', currency: 'FTT' });
    assert.equal((await client.getAddress(FRESH)).amount, { SK: 4n, FTT: 6n });
    await post(node, 'setBalance', { address: FRESH, amount: '9' });
    assert.equal((await client.getAddress(FRESH)).amount, { SK: 9n, FTT: 6n });
    const snap = await post(node, 'snapshot', {});
    await node.mine();
    const back = await post(node, 'revert', { id: Number(snap.body.id) });
    assert.is(back.status, 200);
    assert.is(back.body.height, start + 2);
    assert.is((await post(node, 'revert', { id: 1.5 })).body.field, 'id');
  });
});

test.run();
