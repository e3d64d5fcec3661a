// The live update stream /api/ws: the reference protocol's subscriptions and pushes, typed
// errors and the subscription limit, and the client's watchBlocks/watchTx/watchAddress with
// an AbortSignal, and with a node that refuses a subscription.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { ApiError, createClient, UnknownTxError, type BlockSummary, type AddressChange } from '../../src/client/index.js';
import { MAX_SUBSCRIPTIONS } from '../../src/node/api/ws-hub.js';
import { fee, pay, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
let wsUrl: string;
let t = Date.now();
let seq = 0;

/** A raw stream connection that collects every message. */
async function connect(): Promise<{ socket: WebSocket; messages: any[]; next: (match: (m: any) => boolean) => Promise<any> }> {
  const socket = new WebSocket(wsUrl);
  const messages: any[] = [];
  const waiters: { match: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  socket.on('message', (data) => {
    const m = JSON.parse(data.toString());
    messages.push(m);
    for (const w of [...waiters]) {
      if (!w.match(m)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  await new Promise((r, j) => (socket.once('open', r), socket.once('error', j)));
  const next = (match: (m: any) => boolean) =>
    new Promise<any>((resolve, reject) => {
      const seen = messages.find(match);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no matching message; got ${JSON.stringify(messages).slice(0, 400)}`)), 5000);
      waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  return { socket, messages, next };
}

function send(to: Uint8Array, amount = 1, extra?: Record<string, string>): Promise<{ status: number; body: any }> {
  const a = node.chain.accounts[0];
  return node.submit(transfer({ key: a.secretKey, from: a.address, to, seq: ++seq, t: ++t, payload: [pay(amount), fee(20)], extra }));
}

test.before(async () => {
  node = await startTestNode({ accounts: 2 });
  wsUrl = node.url.replace('http', 'ws') + '/api/ws';
});

test.after(async () => {
  await node.close();
});

test('subscriptions are acknowledged in the reference shape; blocks, block stats, tx results and address changes are pushed', async () => {
  const c = await connect();
  const to = node.chain.accounts[1].address;
  const toText = addressToText(to);
  c.socket.send('{"sub":"block"}');
  c.socket.send('{"sub":"blockstat"}');
  c.socket.send('{"sub":"tx"}');
  c.socket.send(JSON.stringify({ sub: 'addr', addr: toText, get: 'tx,bal' }));
  const acks = await Promise.all([0, 1, 2, 3].map((i) => c.next((m) => m.ok === true && m.moresubs === MAX_SUBSCRIPTIONS - 1 - i)));
  assert.equal(
    acks.map((a) => a.subscribe),
    [
      ['new_block', 'full', 'json'],
      ['new_block', 'stat', 'json'],
      ['tx', 'any'],
      ['address', toText, ['tx', 'bal']],
    ],
  );

  const { body } = await send(to, 7);
  const txid = body.txid;
  const block = await c.next((m) => m.block && m.block.txs[txid]);
  const stat = await c.next((m) => m.blockstat && m.blockstat.hash === block.block.hash);
  assert.is(stat.blockstat.txs, 1);
  assert.is(stat.blockstat.height, block.block.header.height);
  const result = await c.next((m) => m.tx === txid);
  assert.is(result.res.res, 'ok');
  assert.is(result.res.block, block.block.hash);
  const balance = await c.next((m) => m.address === toText && m.balance);
  assert.is(balance.balance.amount.SK, 1_000_000_000_000_007);
  assert.is(balance.balance.lastblk, block.block.hash);
  const txs = await c.next((m) => m.address === toText && m.txs);
  assert.equal(Object.keys(txs.txs), [txid]);
  c.socket.close();
});

test('a block of many chunks (long hex, multi-byte text) is pushed as one message, byte for byte the block GET /api/block answers', async () => {
  const socket = new WebSocket(wsUrl);
  const texts: string[] = [];
  socket.on('message', (data, isBinary) => {
    assert.not.ok(isBinary, 'a text message');
    texts.push(data.toString());
  });
  await new Promise((r, j) => (socket.once('open', r), socket.once('error', j)));
  socket.send('{"sub":"block"}');
  while (texts.length === 0) await new Promise((r) => setTimeout(r, 10));
  // 40 KB of ASCII (80 KB as hex in the body) and 4,500 characters of 2 to 4 bytes each.
  const msg = 'a'.repeat(40_000) + 'ü€😀'.repeat(1_500);
  const { status, body } = await send(node.chain.accounts[1].address, 1, { msg });
  assert.is(status, 200, JSON.stringify(body));
  for (let i = 0; i < 500 && !texts.some((x) => x.includes(body.txid)); i++) await new Promise((r) => setTimeout(r, 10));
  const pushed = texts.find((x) => x.includes(body.txid));
  assert.ok(pushed, 'the block was pushed');
  assert.ok(Buffer.byteLength(pushed!) > 2 * 64 * 1024, `spans several chunks: ${Buffer.byteLength(pushed!)} bytes`);
  const hash = JSON.parse(pushed!).block.hash;
  const answered = await (await fetch(`${node.url}/api/block/${hash}`)).text();
  assert.ok(answered.startsWith('{"result":"ok","block":') && answered.endsWith(',"ok":true}'));
  assert.is(pushed!.slice('{"block":'.length, -1), answered.slice('{"result":"ok","block":'.length, -',"ok":true}'.length));
  assert.is(JSON.parse(pushed!).block.txs[body.txid].txext.msg, msg);
  socket.close();
});

test('tx by id: a settled one is answered at once, a pending one when its block commits, an unknown one is TX_NOT_FOUND', async () => {
  const { body } = await send(node.chain.accounts[1].address);
  await node.chain.settle();
  const c = await connect();
  c.socket.send(JSON.stringify({ sub: 'tx', txid: body.txid, id: 7 }));
  const ack = await c.next((m) => m.ok === true);
  assert.is(ack.id, 7);
  assert.is((await c.next((m) => m.tx === body.txid)).res.res, 'ok');
  c.socket.send(JSON.stringify({ sub: 'tx', txid: '26CmF99wJRUJHd1-c4n1' }));
  const unknown = await c.next((m) => m.ok === false);
  assert.is(unknown.error, 'TX_NOT_FOUND');
  assert.is(unknown.code, 10007);
  c.socket.close();
});

test('bad subscriptions get typed errors; the limit is the reference one; the connection stays usable', async () => {
  const c = await connect();
  for (const [message, detail] of [
    ['not json', /JSON/],
    ['[1]', /object/],
    ['{"sub":"blocks"}', /must be one of/],
    ['{"sub":"addr"}', /"addr"/],
    ['{"sub":"addr","addr":"AA100000001677721813"}', /./],
    ['{"sub":"addr","addr":"AA100000001677721810","get":"tx,secret"}', /"get"/],
    ['{"sub":"tx","txid":5}', /"txid"/],
  ] as const) {
    const before = c.messages.length;
    c.socket.send(message);
    const answer = await c.next((m) => c.messages.indexOf(m) >= before && m.ok === false);
    assert.ok(['SUBSCRIPTION_INVALID', 'ADDRESS_CHECKSUM'].includes(answer.error), `${message}: ${JSON.stringify(answer)}`);
    assert.match(answer.msg, detail, message);
  }
  // identical subscriptions are one; distinct ones count up to the limit
  for (let i = 0; i < 3; i++) c.socket.send('{"sub":"blockstat"}');
  await c.next((m) => m.moresubs === MAX_SUBSCRIPTIONS - 1 && c.messages.filter((x) => x.moresubs !== undefined).length === 3);
  for (let i = 1; i < MAX_SUBSCRIPTIONS; i++) c.socket.send(JSON.stringify({ sub: 'addr', addr: addressToText(makeAddress({ group: 10, block: 1, wallet: i })) }));
  await c.next((m) => m.moresubs === 0);
  c.socket.send('{"sub":"block"}');
  const limited = await c.next((m) => m.error === 'SUBSCRIPTION_LIMIT');
  assert.is(limited.code, 10051);
  c.socket.close();
  // other paths do not upgrade, and the node answers as before
  const elsewhere = new WebSocket(node.url.replace('http', 'ws') + '/api/nope');
  const refused = await new Promise<number>((r) => elsewhere.on('unexpected-response', (_req, res) => r(res.statusCode ?? 0)));
  assert.is(refused, 404);
  assert.is((await node.get('/api/node/status')).status, 200);
});

test('client: watchBlocks and watchAddress call back until aborted; watchTx resolves with the result, or UnknownTxError', async () => {
  const client = createClient({ baseUrl: node.url });
  const to = makeAddress({ group: 10, block: 1, wallet: 4242 });
  const blocks: BlockSummary[] = [];
  const changes: AddressChange[] = [];
  const stop = new AbortController();
  let resolveFirst!: () => void;
  const firstBlock = new Promise<void>((r) => (resolveFirst = r));
  const watching = client.watchBlocks((b) => (blocks.push(b), resolveFirst()), { signal: stop.signal });
  const addressWatch = client.watchAddress(to, (c) => changes.push(c), { signal: stop.signal });
  await new Promise((r) => setTimeout(r, 100)); // both subscriptions are in place
  const { body } = await send(to, 11);
  const status = await client.watchTx(body.txid);
  assert.is(status.ok, true);
  await firstBlock;
  await new Promise((r) => setTimeout(r, 50));
  stop.abort();
  await watching;
  await addressWatch;
  assert.ok(blocks.length >= 1);
  assert.is(blocks.at(-1)!.height, node.chain.height);
  const balance = changes.find((c) => c.balance)!.balance!;
  assert.is(balance.amount.SK, 11n);
  assert.ok(changes.some((c) => c.txs && body.txid in c.txs));
  try {
    await client.watchTx('26CmF99wJRUJHd1-c4n1');
    assert.unreachable('unknown txid');
  } catch (err) {
    assert.instance(err, UnknownTxError);
  }
});

test('client: a subscription the node refuses rejects with an ApiError of status 400 carrying its code and reason; the stream is closed', async () => {
  // A node that does not serve address subscriptions, answering as the reference protocol does.
  const server = http.createServer();
  const streams = new WebSocketServer({ server });
  const closed = new Promise<void>((resolve) =>
    streams.on('connection', (socket) => {
      socket.once('close', () => resolve());
      socket.once('message', () =>
        socket.send(JSON.stringify({ ok: false, result: 'error', code: 10050, msg: 'Invalid subscription', error: 'SUBSCRIPTION_INVALID', details: 'address subscriptions are not served' })),
      );
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const address = addressToText(makeAddress({ group: 10, block: 1, wallet: 4243 }));
    const err = await client
      .watchAddress(address, () => assert.unreachable('a change from a refused subscription'))
      .then(
        () => assert.unreachable('a refused subscription resolved'),
        (e: unknown) => e,
      );
    assert.instance(err, ApiError);
    const refused = err as ApiError;
    assert.equal([refused.status, refused.apiCode, refused.nodeError, refused.apiMessage], [400, 10050, 'SUBSCRIPTION_INVALID', 'Invalid subscription']);
    assert.is(refused.message, `Node refused WS /api/ws {"sub":"addr","addr":"${address}","get":"tx,bal"}: HTTP 400 code 10050: Invalid subscription`);
    await closed;
  } finally {
    streams.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('addresses in one block of two transfers: the sender gets both, each receiver its own, a balance-only watcher no transactions', async () => {
  const onDemand = await startTestNode({ instant: false, mineOnDemand: true });
  const socket = new WebSocket(onDemand.url.replace('http', 'ws') + '/api/ws');
  try {
    const messages: any[] = [];
    socket.on('message', (d) => messages.push(JSON.parse(String(d))));
    await new Promise((r, j) => (socket.once('open', r), socket.once('error', j)));
    const [a, b] = onDemand.chain.accounts;
    const x = makeAddress({ group: 10, block: 1, wallet: 5151 });
    const [aText, bText, xText] = [a.address, b.address, x].map((w) => addressToText(w));
    socket.send(JSON.stringify({ sub: 'addr', addr: aText, get: 'tx' }));
    socket.send(JSON.stringify({ sub: 'addr', addr: bText, get: 'tx' }));
    socket.send(JSON.stringify({ sub: 'addr', addr: xText, get: 'bal' }));
    for (let i = 0; i < 600 && messages.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    const toB = await onDemand.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: t0, payload: [pay(2)] }));
    const toX = await onDemand.submit(transfer({ key: a.secretKey, from: a.address, to: x, seq: 2, t: t0 + 1, payload: [pay(3)] }));
    await onDemand.chain.mineBlock();
    for (let i = 0; i < 600 && messages.length < 6; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100)); // nothing more is coming
    const pushed = messages.slice(3);
    assert.equal(
      pushed.map((m) => [m.address, m.txs ? Object.keys(m.txs).sort() : 'balance']),
      [
        [aText, [toB.body.txid, toX.body.txid].sort()],
        [bText, [toB.body.txid]],
        [xText, 'balance'],
      ],
    );
    assert.is(pushed[2].balance.amount.SK, 3);
  } finally {
    socket.close();
    await onDemand.close();
  }
});

test('client: watchTx waits for a pending transaction and rejects with AbortError when aborted', async () => {
  const onDemand = await startTestNode({ instant: false, mineOnDemand: true });
  try {
    const client = createClient({ baseUrl: onDemand.url });
    const a = onDemand.chain.accounts[0];
    const { body } = await onDemand.submit(transfer({ key: a.secretKey, from: a.address, to: onDemand.chain.accounts[1].address, seq: 1, t: Date.now(), payload: [pay(1)] }));
    const stop = new AbortController();
    const waiting = client.watchTx(body.txid, { signal: stop.signal }).then(
      () => 'resolved',
      (e) => e,
    );
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    assert.is((await waiting).code, 'ABORTED');
    const included = client.watchTx(body.txid);
    await new Promise((r) => setTimeout(r, 100));
    await onDemand.chain.mineBlock();
    assert.is((await included).ok, true);
  } finally {
    await onDemand.close();
  }
});

test.run();
