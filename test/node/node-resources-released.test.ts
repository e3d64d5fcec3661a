// What the node must give back or remember exactly: a live-stream connection that closed no
// longer counts against the limit, close() ends the signature-check threads (so does a failed
// open), a request held by
// a delay fault is let go when the node closes, a key's wallet is found again in a later block;
// and the contract paths it does not serve say so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { pay, register, startTestNode, testConfig, transfer, waitStatus } from '../helpers/node-helpers.js';
import { rejection, within } from '../helpers/helpers.js';
import { Chain } from '../../src/node/ledger/chain.js';
import { heightKey } from '../../src/node/store/keys.js';
import { MemoryStore } from '../../src/node/store/store.js';

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

test('close() ends the signature-check threads: none is left running in the process', async () => {
  // The worker threads this process runs, as its diagnostic report lists them.
  const threads = () => (process.report.getReport() as { workers: unknown[] }).workers.length;
  const before = threads();
  const node = await startTestNode({ verifyThreads: 2, accounts: 2 });
  try {
    const [a, b] = node.chain.accounts;
    const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(1)] }));
    assert.is(sent.status, 200, JSON.stringify(sent.body));
    await waitStatus(node, sent.body.txid);
    assert.ok(threads() > before, 'the node checked the signature on its threads');
  } finally {
    await node.close();
  }
  assert.is(threads(), before);
});

test('a chain that fails to open ends its signature-check threads before the error reaches the caller', async () => {
  const threads = () => (process.report.getReport() as { workers: unknown[] }).workers.length;
  const before = threads();
  // Records but no head: the chain refuses the store as damaged, after its threads started.
  const store = new MemoryStore();
  await store.batch([{ type: 'put', key: heightKey(3), value: new TextEncoder().encode('{}') }]);
  const err = await rejection(Chain.open(testConfig({ verifyThreads: 2 }), store));
  assert.is(err.code, 'STORE_DAMAGED');
  // Threads still starting would be listed within this second; a pool let go starts none.
  await new Promise((r) => setTimeout(r, 1000));
  assert.is(threads(), before, 'no thread is left running');
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
  await within(arrived(), 60_000, 'the request reaching the node');
  await within(node.close(), 60_000, 'close with a delayed request');
  assert.match(await within(held, 60_000, 'the held request'), /^cut: /);
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

test('transaction statuses held in memory stay within their bound; older ones are read from the store', async () => {
  const node = await startTestNode({ accounts: 2, instant: false, mineOnDemand: true }, { statusCacheEntries: 3 });
  try {
    const [a, b] = node.chain.accounts;
    const txids: string[] = [];
    for (let seq = 1; seq <= 5; seq++) {
      const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq, t: Date.now(), payload: [pay(1)] }));
      txids.push(sent.body.txid);
      await node.control.mine(1);
    }
    assert.is(node.chain.cachedStatuses, 3, 'the newest three');
    for (const txid of txids) assert.is((await waitStatus(node, txid)).ok, true, txid);
  } finally {
    await node.close();
  }
});

test.run();
