// What the node must give back or remember exactly: a live-stream connection that closed no
// longer counts against the limit, a request held by a delay fault is let go when the node
// closes, a key's wallet is found again in a later block; and the contract paths it does not
// serve say so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { register, startTestNode, waitStatus } from '../helpers/node-helpers.js';
import { within } from '../helpers/helpers.js';

test('live-stream connections that closed free their place: four in turn under a limit of two', async () => {
  const node = await startTestNode({ limits: { wsConnections: 2, wsConnectionsPerAddress: 2 } });
  try {
    for (let i = 0; i < 4; i++) {
      const ws = new WebSocket(node.url.replace('http', 'ws') + '/api/ws');
      const first = await new Promise<string>((resolve, reject) => {
        ws.once('message', (data) => resolve(String(data)));
        ws.once('open', () => ws.send(JSON.stringify({ sub: 'blockstat' })));
        ws.once('error', reject);
        setTimeout(() => reject(new Error(`connection ${i} got no answer`)), 10_000).unref();
      });
      assert.ok(JSON.parse(first).ok, `connection ${i}: ${first}`);
      const closed = new Promise((r) => ws.once('close', r));
      ws.close();
      await closed;
      // The node sees the close a moment after the client does.
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await node.close();
  }
});

test('closing the node ends a request a delay fault holds: its connection is cut and its timer cleared (no 10-minute wait)', async () => {
  const node = await startTestNode();
  node.control.faults.add({ path: 'node/status', action: 'delay', delayMs: 600_000 });
  const held = fetch(node.url + '/api/node/status').then(
    () => 'answered',
    (err: Error) => `cut: ${(err.cause as { code?: string } | undefined)?.code ?? err.message}`,
  );
  const arrived = async () => {
    while (node.control.faults.list()[0].fired === 0) await new Promise((r) => setTimeout(r, 5));
  };
  await within(arrived(), 10_000, 'the request reaching the node');
  await within(node.close(), 10_000, 'close with a delayed request');
  assert.match(await within(held, 10_000, 'the held request'), /^cut: /);
});

test('a key registered again in a later block gets the wallet it has', async () => {
  const node = await startTestNode({ difficulty: 0 });
  try {
    const key = new Uint8Array(32).fill(5);
    const first = await node.submit(register(key, Date.now(), 0));
    const address = (await waitStatus(node, first.body.txid)).address;
    const second = await node.submit(register(key, Date.now() + 1, 0));
    assert.is((await waitStatus(node, second.body.txid)).address, address);
  } finally {
    await node.close();
  }
});

test("an address's sub-paths: contract paths of a wallet without code 404 WALLET_NOT_FOUND, LStore paths 501, others 404", async () => {
  const node = await startTestNode({ accounts: 1 });
  try {
    const address = (await node.get('/api/dev/accounts')).body.accounts[0].address;
    for (const sub of ['code', 'statekeys', 'state', 'statejson']) {
      const answer = await node.get(`/api/address/${address}/${sub}`);
      assert.is(answer.status, 404, sub);
      assert.is(answer.body.error, 'WALLET_NOT_FOUND', sub);
    }
    for (const sub of ['lstore', 'verify']) {
      const answer = await node.get(`/api/address/${address}/${sub}`);
      assert.is(answer.status, 501, sub);
      assert.is(answer.body.error, 'NOT_IMPLEMENTED', sub);
    }
    const other = await node.get(`/api/address/${address}/nothing`);
    assert.is(other.status, 404);
    assert.is(other.body.error, 'ROUTE_NOT_FOUND');
  } finally {
    await node.close();
  }
});

test.run();
