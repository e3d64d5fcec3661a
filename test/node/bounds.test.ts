// What one client can make the node hold: pending transactions by count, bytes and sender
// (503 MEMPOOL_FULL with the limit named), live-stream connections in all and per address
// (a JSON refusal), and identical subscriptions (held and delivered once).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { fee, pay, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

const hold = { instant: false, blockTime: 3_600_000 };

function send(node: TestNode, account: number, seq: number, extraBytes = 0): Promise<{ status: number; body: any }> {
  const a = node.chain.accounts[account];
  const to = node.chain.accounts[(account + 1) % node.chain.accounts.length].address;
  const payload = [pay(1), fee(5 + Math.ceil(extraBytes / 10))];
  const body = transfer({
    key: a.secretKey,
    from: a.address,
    to,
    seq,
    t: Date.now() + seq,
    payload: extraBytes ? [...payload, ...Array.from({ length: Math.ceil(extraBytes / 12) }, (_, i) => pay(1, `X${i}`))] : payload,
  });
  return node.submit(body);
}

test('a sender holds at most --max-pending-per-sender pending transactions; other senders go on', async () => {
  const node = await startTestNode({ ...hold, accounts: 3, limits: { maxPendingPerSender: 2 } });
  try {
    assert.is((await send(node, 0, 1)).status, 200);
    assert.is((await send(node, 0, 2)).status, 200);
    const third = await send(node, 0, 3);
    assert.is(third.status, 503);
    assert.is(third.body.error, 'MEMPOOL_FULL');
    assert.match(third.body.details, /has 2 waiting for a block, the limit per sender \(--max-pending-per-sender\)/);
    assert.is((await send(node, 1, 1)).status, 200, 'another sender is not held back');
    assert.is(node.chain.mempool.size, 3);
    await node.chain.mineBlock();
    assert.is((await send(node, 0, 3)).status, 200, 'room again once included');
  } finally {
    await node.close();
  }
});

test('transactions held by a fault rule count against --max-pending with those waiting: up to the limit, not one more', async () => {
  const node = await startTestNode({ ...hold, accounts: 3, limits: { maxPending: 3 } });
  try {
    assert.is((await send(node, 0, 1)).status, 200, 'one waits for a block');
    assert.is((await node.post('/api/dev/faults', JSON.stringify({ rules: [{ path: 'tx/new', action: 'hold' }] }))).status, 200);
    assert.is((await send(node, 1, 1)).status, 200, 'held: 2 of 3');
    assert.is((await send(node, 1, 2)).status, 200, 'held: 3 of 3');
    const over = await send(node, 2, 1);
    assert.is(over.status, 503);
    assert.is(over.body.error, 'MEMPOOL_FULL');
    assert.is(over.body.details, '2 are held by a fault rule; revert, roll back or restart to drop them');
    assert.is(node.chain.mempool.size, 1, 'held ones never enter the mempool');
  } finally {
    await node.close();
  }
});

test('pending bytes are bounded by --max-pending-bytes', async () => {
  const node = await startTestNode({ ...hold, accounts: 3, limits: { maxPendingBytes: 1000 } });
  try {
    assert.is((await send(node, 0, 1, 600)).status, 200);
    const over = await send(node, 1, 1, 600);
    assert.is(over.status, 503);
    assert.is(over.body.error, 'MEMPOOL_FULL');
    assert.match(over.body.details, /^\d+ bytes are waiting for a block; with \d+ more they pass the limit of 1000 \(--max-pending-bytes\)/);
    assert.ok(node.chain.mempool.bytes > 500 && node.chain.mempool.bytes <= 1000, String(node.chain.mempool.bytes));
    assert.is((await send(node, 1, 1)).status, 200, 'a small one still fits');
    await node.chain.mineBlock();
    assert.is(node.chain.mempool.bytes, 0);
    assert.is((await send(node, 2, 1, 600)).status, 200);
  } finally {
    await node.close();
  }
});

function refusedUpgrade(url: string): Promise<{ status: number; statusLine: string; body: any }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: '/api/ws',
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new Error('upgraded, expected a refusal'));
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusLine: `${res.statusCode} ${res.statusMessage}`, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const opened = (ws: WebSocket) => new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
const closed = (ws: WebSocket) => new Promise((resolve) => (ws.readyState === ws.CLOSED ? resolve(undefined) : ws.once('close', resolve)));

test('live-stream connections are capped per address and in all; a refusal is JSON with a code', async () => {
  const node = await startTestNode({ limits: { wsConnections: 3, wsConnectionsPerAddress: 2 } });
  const sockets: WebSocket[] = [];
  try {
    const ws = () => new WebSocket(node.url.replace('http', 'ws') + '/api/ws');
    sockets.push(ws(), ws());
    await Promise.all(sockets.map(opened));
    const perAddress = await refusedUpgrade(node.url);
    assert.is(perAddress.status, 429);
    assert.is(perAddress.statusLine, '429 Too Many Requests');
    assert.is(perAddress.body.error, 'WS_CONNECTION_LIMIT');
    assert.is(perAddress.body.code, 10063);
    assert.match(perAddress.body.details, /holds 2, the limit per address \(--ws-max-per-address\)/);
    sockets[0].close();
    await closed(sockets[0]);
    // a closed connection frees its place (the server sees the close a moment later)
    let again: WebSocket | undefined;
    for (let i = 0; i < 100 && !again; i++) {
      const attempt = ws();
      sockets.push(attempt);
      again = await opened(attempt).then(
        () => attempt,
        () => undefined,
      );
      if (!again) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(again, 'a new connection is accepted once one closed');
    assert.is((await node.get('/api/node/status')).status, 200);
  } finally {
    for (const s of sockets) s.terminate();
    await node.close();
  }
  const small = await startTestNode({ limits: { wsConnections: 1 } });
  const one = new WebSocket(small.url.replace('http', 'ws') + '/api/ws');
  try {
    await opened(one);
    const inAll = await refusedUpgrade(small.url);
    assert.is(inAll.status, 429);
    assert.is(inAll.statusLine, '429 Too Many Requests');
    assert.match(inAll.body.details, /holds 1, its limit \(--ws-max-connections\)/);
  } finally {
    one.terminate();
    await small.close();
  }
});

test('identical subscriptions on one connection are acknowledged each time but held and delivered once', async () => {
  const node = await startTestNode({ accounts: 2 });
  const ws = new WebSocket(node.url.replace('http', 'ws') + '/api/ws');
  const messages: any[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  try {
    await opened(ws);
    for (let i = 0; i < 5; i++) ws.send('{"sub":"block"}');
    for (let i = 0; i < 3; i++) ws.send('{"sub":"tx"}');
    const acks = () => messages.filter((m) => m.ok === true && m.subscribe);
    for (let i = 0; i < 200 && acks().length < 8; i++) await new Promise((r) => setTimeout(r, 10));
    assert.is(acks().length, 8, 'every request acknowledged');
    assert.equal(
      acks().map((m) => m.moresubs),
      [99, 99, 99, 99, 99, 98, 98, 98],
    );
    const sent = await send(node, 0, 1);
    assert.is(sent.status, 200);
    const txid = sent.body.txid;
    for (let i = 0; i < 300 && !messages.some((m) => m.tx === txid); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100)); // would-be copies arrive right behind
    assert.is(messages.filter((m) => m.tx === txid).length, 1, 'the transaction once');
    const blocks = messages.filter((m) => m.block);
    assert.is(blocks.length, 1, 'the block once');
    assert.ok(blocks[0].block.txs[txid] !== undefined || JSON.stringify(blocks[0].block).includes(txid));
  } finally {
    ws.terminate();
    await node.close();
  }
});

test.run();
