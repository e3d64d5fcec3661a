// client.dev against scripted answers: each development call sends the request
// docs/guide/dev-controls.md gives it (path, method, JSON body with its defaults) and reads the
// node's answer into the documented shape.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/index.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';

const ADDR = addressToText(makeAddress({ group: 10, block: 1, wallet: 7 }));
const ADDR_BYTES = makeAddress({ group: 10, block: 1, wallet: 7 });

/** A client whose node answers each `METHOD path` from `answers` and records what was sent. */
function devNode(answers: Record<string, unknown>) {
  const sent: { call: string; body: unknown }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const call = `${init.method} ${url.pathname}`;
    sent.push({ call, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    const answer = answers[call];
    if (answer === undefined) return new Response('{"ok":false,"msg":"Not found"}', { status: 404 });
    return new Response(JSON.stringify({ result: 'ok', ...(answer as object), ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { dev: createClient({ baseUrl: 'http://127.0.0.1:43280', fetch }).dev, sent };
}

test('faucet: the address in text form, the amount as decimal text, SK unless a currency is given; the block read back', async () => {
  const { dev, sent } = devNode({ 'POST /api/dev/faucet': { block: 'AB12', height: 4, txs: 1 } });
  assert.equal(await dev.faucet(ADDR_BYTES, 10n ** 19n), { hash: 'AB12', height: 4, txs: 1 });
  await dev.faucet('0x8001400001000007', 5, { currency: 'FEE' });
  assert.equal(
    sent.map((s) => s.body),
    [
      { address: ADDR, amount: '10000000000000000000', currency: 'SK' },
      { address: ADDR, amount: '5', currency: 'FEE' },
    ],
  );
});

test('mine: one block by default; intervalMs is sent only when given and not 0', async () => {
  const { dev, sent } = devNode({
    'POST /api/dev/mine': {
      blocks: [
        { hash: 'H1', height: 2, txs: 0 },
        { hash: 'H2', height: '3', txs: 5 },
      ],
    },
  });
  assert.equal(await dev.mine(), [
    { hash: 'H1', height: 2, txs: 0 },
    { hash: 'H2', height: 3, txs: 5 },
  ]);
  await dev.mine(3, { intervalMs: 0 });
  await dev.mine(2, { intervalMs: 60_000 });
  assert.equal(
    sent.map((s) => s.body),
    [{ blocks: 1 }, { blocks: 3 }, { blocks: 2, intervalMs: 60_000 }],
  );
});

test('accounts: keys as bytes and hex, balances exact', async () => {
  const { dev } = devNode({
    'GET /api/dev/accounts': {
      accounts: [{ index: 0, address: ADDR, hex: '0x8001400001000007', public_key: '02' + 'ab'.repeat(32), secret_key: 'CD'.repeat(32), amount: { SK: 18446744073709551617n.toString() } }],
    },
  });
  const [account] = await dev.accounts();
  assert.is(account.index, 0);
  assert.is(account.address, ADDR);
  assert.is(account.hex, '0x8001400001000007');
  assert.is(account.publicKey.length, 33);
  assert.is(account.publicKeyHex, '02' + 'AB'.repeat(32), 'uppercase, as documented');
  assert.is(account.publicKey[1], 0xab);
  assert.is(account.secretKey.length, 32);
  assert.is(account.secretKeyHex, 'cd'.repeat(32), 'lowercase, as the banner prints it');
  assert.equal(account.amount, { SK: 18446744073709551617n });
});

test('snapshots: a name only when given, the list read, revert by id, delete by id', async () => {
  const { dev, sent } = devNode({
    'POST /api/dev/snapshot': { id: '3', name: 'clean', height: 7, createdAt: 1_700_000_000_000 },
    'GET /api/dev/snapshot': {
      snapshots: [
        { id: '1', height: 0, createdAt: 5 },
        { id: 3, name: 'clean', height: 7, createdAt: 6 },
      ],
    },
    'POST /api/dev/revert': { height: 7, hash: 'CAFE', now: 1_700_000_000_500, clockOffsetMs: -20 },
  });
  assert.equal(await dev.snapshot('clean'), { id: '3', name: 'clean', height: 7, createdAt: 1_700_000_000_000 });
  await dev.snapshot();
  assert.equal(await dev.snapshots(), [
    { id: '1', height: 0, createdAt: 5 },
    { id: '3', name: 'clean', height: 7, createdAt: 6 },
  ]);
  assert.equal(await dev.revert('clean'), { height: 7, hash: 'CAFE', now: 1_700_000_000_500, clockOffsetMs: -20 });
  assert.is(await dev.deleteSnapshot('3'), undefined);
  assert.equal(sent, [
    { call: 'POST /api/dev/snapshot', body: { name: 'clean' } },
    { call: 'POST /api/dev/snapshot', body: {} },
    { call: 'GET /api/dev/snapshot', body: undefined },
    { call: 'POST /api/dev/revert', body: { id: 'clean' } },
    { call: 'POST /api/dev/snapshot', body: { delete: '3' } },
  ]);
});

test('rollback, setTime and time send the height and the clock as given and read the chain moved', async () => {
  const moved = { height: 2, hash: 'BEEF', now: 1_800_000_000_000, clockOffsetMs: 7_200_000 };
  const { dev, sent } = devNode({ 'POST /api/dev/rollback': moved, 'POST /api/dev/time': moved, 'GET /api/dev/time': { now: 1_800_000_000_000, offsetMs: 7_200_000 } });
  assert.equal(await dev.rollback(2), moved);
  assert.equal(await dev.setTime({ offsetMs: 7_200_000 }), moved);
  assert.equal(await dev.setTime({ setMs: 1_800_000_000_000 }), moved);
  assert.equal(await dev.time(), { now: 1_800_000_000_000, offsetMs: 7_200_000 });
  assert.equal(
    sent.map((s) => [s.call, s.body]),
    [
      ['POST /api/dev/rollback', { height: 2 }],
      ['POST /api/dev/time', { offsetMs: 7_200_000 }],
      ['POST /api/dev/time', { setMs: 1_800_000_000_000 }],
      ['GET /api/dev/time', undefined],
    ],
  );
});

test('setBalance (SK by default), setSeq and createWallet send addresses in text form and amounts as text', async () => {
  const { dev, sent } = devNode({ 'POST /api/dev/setBalance': {}, 'POST /api/dev/setSeq': {}, 'POST /api/dev/createWallet': { address: ADDR, created: true } });
  assert.is(await dev.setBalance(ADDR_BYTES, 18446744073709551615n), undefined);
  await dev.setBalance('0x8001400001000007', 0, { currency: 'FTT' });
  await dev.setSeq(ADDR_BYTES, 9007199254740993n);
  assert.is(await dev.createWallet({ publicKey: new Uint8Array([2, 0xab, 0xcd]) }), ADDR);
  await dev.createWallet({ publicKey: '02ff', address: '0x8001400001000007' });
  await dev.createWallet({ address: ADDR });
  assert.equal(
    sent.map((s) => s.body),
    [
      { address: ADDR, currency: 'SK', amount: '18446744073709551615' },
      { address: ADDR, currency: 'FTT', amount: '0' },
      { address: ADDR, seq: '9007199254740993' },
      { publicKey: '02abcd' },
      { publicKey: '02ff', address: ADDR },
      { address: ADDR },
    ],
  );
});

test('faults: one rule goes as a list of one, clear without ids clears all; ids and fired counts read as numbers', async () => {
  const { dev, sent } = devNode({
    'POST /api/dev/faults': { added: [{ id: '4', path: 'tx/new', action: 'drop', fired: 0 }], cleared: '2' },
    'GET /api/dev/faults': {
      faults: [
        { id: 4, path: 'tx/new', action: 'drop', fired: '3' },
        { id: 5, path: 'address', action: 'drop' },
      ],
    },
  });
  assert.equal(await dev.addFaults({ path: 'tx/new', action: 'drop' }), [{ id: 4, path: 'tx/new', action: 'drop', fired: 0 }]);
  await dev.addFaults([
    { path: 'tx/new', action: 'drop' },
    { path: 'address', action: 'drop' },
  ]);
  assert.equal(await dev.faults(), [
    { id: 4, path: 'tx/new', action: 'drop', fired: 3 },
    { id: 5, path: 'address', action: 'drop', fired: 0 },
  ]);
  assert.is(await dev.clearFaults(), 2);
  await dev.clearFaults([4, 5]);
  assert.equal(
    sent.filter((s) => s.call.startsWith('POST')).map((s) => s.body),
    [
      { rules: [{ path: 'tx/new', action: 'drop' }] },
      {
        rules: [
          { path: 'tx/new', action: 'drop' },
          { path: 'address', action: 'drop' },
        ],
      },
      { clear: true },
      { clear: [4, 5] },
    ],
  );
});

test('a node without the development API (404) is an ApiError with its status', async () => {
  const { dev } = devNode({});
  let status: number | undefined;
  try {
    await dev.accounts();
  } catch (err) {
    status = (err as { status?: number }).status;
  }
  assert.is(status, 404);
});

test.run();
