// What a local node tells about itself, in one shape: development accounts alike from
// startNode() and from client.dev.accounts(); node status saying how blocks are made; a
// revert dropping every snapshot taken after its target, even with no block between; and an
// off development API naming the reason that applies.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/index.js';
import { startNode } from '../../src/node/index.js';
import { startTestNode } from '../helpers/node-helpers.js';

test('startNode().accounts and client.dev.accounts() give one shape: keys as bytes and hex', async () => {
  const node = await startNode({ accounts: 2 });
  try {
    const fetched = await createClient({ baseUrl: node.url }).dev.accounts();
    for (const [i, local] of node.accounts.entries()) {
      const { amount, ...remote } = fetched[i];
      assert.equal(Object.keys(remote).sort(), Object.keys(local).sort());
      assert.equal(remote, local);
      for (const bytes of [local.publicKey, local.secretKey]) assert.is(Object.getPrototypeOf(bytes), Uint8Array.prototype, 'plain Uint8Array, not a Buffer');
      assert.is(local.publicKey.length, 33);
      assert.match(local.publicKeyHex, /^0[23][0-9A-F]{64}$/);
      assert.match(local.secretKeyHex, /^[0-9a-f]{64}$/);
      assert.ok(amount.SK > 0n);
    }
  } finally {
    await node.close();
  }
});

test('node status says how the node makes blocks and whether its development API is on', async () => {
  for (const [blockTime, blocks] of [
    ['on-demand', 'on-demand'],
    ['instant', 'instant'],
    [500, 'interval'],
  ] as const) {
    const node = await startNode({ blockTime });
    try {
      const status = await createClient({ baseUrl: node.url }).nodeStatus();
      assert.is(status.blocks, blocks, String(blockTime));
      assert.equal((status.raw.tpkit as Record<string, unknown>).devApi, true);
    } finally {
      await node.close();
    }
  }
});

test('a revert drops the snapshots taken after its target, with no block between them', async () => {
  const node = await startNode();
  try {
    const dev = createClient({ baseUrl: node.url }).dev;
    await dev.snapshot('C');
    await dev.snapshot('D');
    await dev.revert('C');
    assert.equal(
      (await dev.snapshots()).map((s) => s.name),
      ['C'],
    );
    // and with a block between, as before
    await node.mine();
    await dev.snapshot('E');
    await node.mine();
    await dev.snapshot('F');
    await dev.revert('E');
    assert.equal(
      (await dev.snapshots()).map((s) => s.name),
      ['C', 'E'],
    );
  } finally {
    await node.close();
  }
});

test('an off development API says why: --no-dev-api, or a node listening beyond this machine without --dev-api', async () => {
  const off = await startTestNode({ devApi: false });
  const wide = await startTestNode({ host: '0.0.0.0' });
  try {
    const local = (await off.get('/api/dev/accounts')).body;
    assert.is(local.error, 'DEV_API_DISABLED');
    assert.match(local.details, /--no-dev-api/);
    const port = new URL(wide.url).port;
    const beyond = await (await fetch(`http://127.0.0.1:${port}/api/dev/accounts`)).json();
    assert.is(beyond.error, 'DEV_API_DISABLED');
    assert.match(beyond.details, /listens on 0\.0\.0\.0, beyond this machine, .*--dev-api/);
    assert.not.match(beyond.details, /--no-dev-api/);
  } finally {
    await off.close();
    await wide.close();
  }
});

test.run();
