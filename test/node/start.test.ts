// startNode() from `tpkit/node`, as an integration test suite calls it: a node on a free
// port with its development accounts, the faucet and mining at hand; the SDK-facing API works
// against it; close() frees everything.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/index.js';
import { makeAddress } from '../../src/codec/address.js';
import { pay, transfer } from '../helpers/node-helpers.js';

// Through the package's own export map, as a consumer imports it.
const specifier = 'tpkit/node';
const { startNode } = (await import(specifier)) as typeof import('../../src/node/index.js');

test('startNode(): URL, accounts, faucet, mine, a transfer through the client, close', async () => {
  const node = await startNode({ difficulty: 4, blockTime: 'on-demand', accounts: 2 });
  try {
    assert.match(node.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(node.wsUrl, /^ws:\/\/127\.0\.0\.1:\d+\/api\/ws$/);
    assert.is(node.accounts.length, 2);
    assert.match(node.accounts[0].address, /^AA\d{18}$/);
    assert.is(node.accounts[0].secretKeyHex.length, 64);
    const client = createClient({ baseUrl: node.url });
    const settings = await client.getSettings('current.register');
    assert.is(settings.diff, 4);

    const target = makeAddress({ group: 10, block: 1, wallet: 777 });
    const credited = await node.faucet('AA100000001677721780', 5n);
    assert.is(credited.height, node.height());
    const [a] = node.accounts;
    const txid = await client.submitTx(transfer({ key: a.secretKey, from: makeAddress({ group: 10, block: 1, wallet: 1 }), to: target, seq: 1, t: Date.now(), payload: [pay(9)] }));
    assert.is(await client.getTxStatus(txid), null, 'on demand: pending until mined');
    const [block] = await node.mine();
    assert.is(block.height, node.height());
    assert.is((await client.getTxStatus(txid))!.ok, true);
    assert.is((await client.getAddress(target)).amount.SK, 9n);
  } finally {
    await node.close();
  }
  // closed: the port no longer answers
  let refused = false;
  try {
    await fetch(`${node.url}/api/node/status`);
  } catch {
    refused = true;
  }
  assert.ok(refused);
});

test('startNode(): block time in ms; bad settings are CONFIG_INVALID', async () => {
  const node = await startNode({ blockTime: 50, difficulty: 0 });
  try {
    const start = node.height();
    await new Promise((r) => setTimeout(r, 10));
    const [a, b] = node.accounts;
    const client = createClient({ baseUrl: node.url });
    const txid = await client.submitTx(
      transfer({ key: a.secretKey, from: makeAddress({ group: 10, block: 1, wallet: 1 }), to: makeAddress({ group: 10, block: 1, wallet: 2 }), seq: 1, t: Date.now(), payload: [pay(1)] }),
    );
    assert.is((await client.waitForTx(txid)).ok, true);
    assert.ok(node.height() > start);
    assert.ok(b);
  } finally {
    await node.close();
  }
  const bads = [
    { difficulty: -1 },
    { difficulty: 1.5 },
    { difficulty: 65 },
    { difficulty: 512 },
    { blockTime: 0 },
    { blockTime: 'sometimes' as never },
    { port: 70000 },
    { config: { difficulty: 65 } },
    { config: { blockTimeMs: 50 } as never },
    { config: { limits: { maxPending: 0 } } },
    { config: { logLevel: 'loud' as never } },
  ];
  for (const bad of bads) {
    let code: string | undefined;
    try {
      const started = await startNode(bad);
      await started.close();
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    assert.is(code, 'CONFIG_INVALID', JSON.stringify(bad));
  }
});

test('startNode(): the config option is checked as a config file is, with a suggestion for a misspelt key', async () => {
  let refused: { code?: string; message?: string; details?: string } = {};
  try {
    await startNode({ config: { blockTimeMs: 50 } as never });
  } catch (err) {
    refused = err as typeof refused;
  }
  assert.is(refused.code, 'CONFIG_INVALID');
  assert.match(refused.message!, /blockTimeMs: unknown config key: did you mean blockTime\?/);
  assert.match(refused.details!, /valid keys: .*difficulty/);
  const node = await startNode({ difficulty: 64, config: { limits: { maxPending: 3 }, nodeName: 'house' } });
  try {
    const settings = await (await fetch(node.url + '/api/settings')).json();
    assert.is(settings.settings.current.register.diff, 64);
    assert.equal(settings.settings.nodechain, { house: 1 });
  } finally {
    await node.close();
  }
});

test.run();
