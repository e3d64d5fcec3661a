// The development API of the local node: the faucet credits in a block of its own, mining on
// demand, the development accounts, --no-dev-api, and the faucet's checks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { createClient } from '../../src/client/index.js';
import { pay, startTestNode, transfer } from '../helpers/node-helpers.js';

const fresh = makeAddress({ group: 10, block: 1, wallet: 9001 });
const freshText = addressToText(fresh);

test('faucet: credits an address that did not exist, in a block made at once, recorded in the block and kept across a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-dev-'));
  const overrides = { memory: false, dataDir: dir, instant: false, blockTime: 3_600_000 };
  let node = await startTestNode(overrides);
  try {
    const before = node.chain.height;
    const res = await node.post('/api/dev/faucet', JSON.stringify({ address: freshText, amount: '1000000000000000000', currency: 'SK' }));
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.height, before + 1);
    const wallet = await node.get(`/api/address/${freshText}`);
    assert.is(wallet.body.info.amount.SK, 1_000_000_000_000_000_000);
    const block = await node.get(`/api/block/${res.body.block}`);
    assert.ok(freshText && Object.keys(block.body.block.bals).length >= 1);
    // The stored block keeps the credit under mint; a block without one has no mint at all.
    assert.equal((await node.chain.blockByHash(res.body.block))?.mint, [{ address: freshText, currency: 'SK', amount: '1000000000000000000' }]);
    await node.post('/api/dev/mine', '');
    assert.not.ok('mint' in (await node.chain.blockAt(node.chain.height))!, 'a block with no faucet credit');
    const second = await node.post('/api/dev/faucet', JSON.stringify({ address: freshText, amount: 5, currency: 'XYZ' }));
    assert.is(second.status, 200);
    await node.close();
    node = await startTestNode(overrides);
    const again = await node.get(`/api/address/${freshText}`);
    assert.equal(again.body.info.amount, { SK: 1_000_000_000_000_000_000, XYZ: 5 });
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('faucet refuses what it cannot do, with codes; nothing changes', async () => {
  const node = await startTestNode();
  try {
    const dev = addressToText(node.chain.accounts[0].address);
    for (const [body, error] of [
      ['not json', 'NOT_JSON'],
      ['[1]', 'BAD_REQUEST_PARAM'],
      ['{}', 'BAD_REQUEST_PARAM'],
      [JSON.stringify({ address: 'AA100000001677721813', amount: 1 }), 'ADDRESS_CHECKSUM'],
      [JSON.stringify({ address: dev, amount: 0 }), 'BAD_REQUEST_PARAM'],
      [JSON.stringify({ address: dev, amount: -5 }), 'BAD_REQUEST_PARAM'],
      [JSON.stringify({ address: dev, amount: 1.5 }), 'BAD_REQUEST_PARAM'],
      [JSON.stringify({ address: dev, amount: '18446744073709551615' }), 'BAD_REQUEST_PARAM'],
      [JSON.stringify({ address: dev, amount: 1, currency: '' }), 'BAD_REQUEST_PARAM'],
      [JSON.stringify({ address: dev, amount: 1, currency: 5 }), 'BAD_REQUEST_PARAM'],
    ] as const) {
      const height = node.chain.height;
      const res = await node.post('/api/dev/faucet', body);
      assert.is(res.status, 400, `${body}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.error, error, body);
      assert.is(node.chain.height, height, `${body}: no block`);
    }
    assert.is((await node.get(`/api/address/${dev}`)).body.info.amount.SK, 1_000_000_000_000_000);
  } finally {
    await node.close();
  }
});

test('mine on demand: a transaction waits for POST /api/dev/mine; empty blocks on request; accounts listed', async () => {
  const node = await startTestNode({ instant: false, mineOnDemand: true, accounts: 2 });
  try {
    const [a, b] = node.chain.accounts;
    const { body } = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(3)] }));
    await new Promise((r) => setTimeout(r, 200));
    assert.is((await node.get(`/api/tx/status/${body.txid}`)).body.res, null, 'no block without a request');
    const height = node.chain.height;
    const mined = await node.post('/api/dev/mine', '{"blocks":3}');
    assert.is(mined.status, 200);
    assert.equal(
      mined.body.blocks.map((x: any) => x.height),
      [height + 1, height + 2, height + 3],
    );
    assert.equal(
      mined.body.blocks.map((x: any) => x.txs),
      [1, 0, 0],
    );
    assert.is((await node.get(`/api/tx/status/${body.txid}`)).body.res.res, 'ok');
    assert.is((await node.post('/api/dev/mine', '')).body.blocks.length, 1, 'an empty body mines one');
    for (const bad of ['{"blocks":0}', '{"blocks":101}', '{"blocks":"2"}']) assert.is((await node.post('/api/dev/mine', bad)).body.error, 'BAD_REQUEST_PARAM', bad);

    const client = createClient({ baseUrl: node.url });
    const accounts = await client.dev.accounts();
    assert.equal(
      accounts.map((x) => x.address),
      [addressToText(a.address), addressToText(b.address)],
    );
    assert.equal([...accounts[0].secretKey], [...a.secretKey]);
    assert.is(accounts[1].amount.SK, 1_000_000_000_000_003n);
    const credited = await client.dev.faucet(fresh, 42n);
    assert.is(credited.height, node.chain.height);
    assert.is((await client.getAddress(fresh)).amount.SK, 42n);
  } finally {
    await node.close();
  }
});

test('--no-dev-api: every /api/dev endpoint answers 403 DEV_API_DISABLED', async () => {
  const node = await startTestNode({ devApi: false });
  try {
    for (const res of [await node.get('/api/dev/accounts'), await node.post('/api/dev/faucet', JSON.stringify({ address: freshText, amount: 1 })), await node.post('/api/dev/mine', '{}')]) {
      assert.is(res.status, 403);
      assert.is(res.body.error, 'DEV_API_DISABLED');
      assert.is(res.body.code, 10052);
    }
  } finally {
    await node.close();
  }
});

test.run();
