// What startNode() gives back and in which order: a start that fails after the store opened
// closes that store (before the error reaches the caller), also when the port is taken between
// the check and the listen; close() ends the live-stream connections, lets a request in flight
// finish before the store closes, and resolves only once the store is closed; the slow-signature
// warning is given only when libsecp256k1 is missing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, createServer, type Server, type Socket } from 'node:net';
import WebSocket from 'ws';
import { MemoryStore, type Store, type StoreOp } from '../../src/node/store/store.js';
import { verifierBackend } from '../../src/node/ledger/native-verifier.js';
import type { Logger } from '../../src/node/base/log.js';
import { startTestNode } from '../helpers/node-helpers.js';
import { rejection, within } from '../helpers/helpers.js';

/** A MemoryStore that says when it is closed, takes a moment to close, and can run a step before its first use or fail its reads. */
class WatchedStore implements Store {
  readonly persistent = false;
  private readonly inner = new MemoryStore();
  closed = false;
  readonly whenClosed: Promise<void>;
  private markClosed!: () => void;
  failReads = false;
  beforeFirstUse?: () => Promise<void>;

  constructor() {
    this.whenClosed = new Promise((resolve) => (this.markClosed = resolve));
  }

  private async use(): Promise<void> {
    const step = this.beforeFirstUse;
    this.beforeFirstUse = undefined;
    if (step) await step();
    if (this.failReads) throw new Error('the disk is gone');
  }

  async get(key: string) {
    await this.use();
    return this.inner.get(key);
  }

  async getMany(keys: string[]) {
    await this.use();
    return this.inner.getMany(keys);
  }

  async batch(ops: StoreOp[]) {
    await this.use();
    return this.inner.batch(ops);
  }

  async *entries(prefix: string, after?: string) {
    await this.use();
    yield* this.inner.entries(prefix, after);
  }

  async close() {
    // Closing takes a few turns of the event loop, as a LevelDB close does: a caller that does not wait sees it still open.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await this.inner.close();
    this.closed = true;
    this.markClosed();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a start whose store cannot be read fails and closes that store before the error comes back', async () => {
  const store = new WatchedStore();
  store.failReads = true;
  const err = await startTestNode({}, { store }).then(
    () => assert.unreachable('the node started on a store it cannot read'),
    (e: Error) => e,
  );
  assert.match(String(err?.message), /the disk is gone/);
  assert.ok(store.closed, 'the store was closed before startNode rejected');
});

test('a port taken between the check and the listen: the start fails with the port named and the opened chain closed', async () => {
  const port = await freePort();
  const store = new WatchedStore();
  let squatter: Server | undefined;
  // The store is first used after the port check: another server takes the port right then.
  store.beforeFirstUse = () =>
    new Promise<void>((resolve, reject) => {
      squatter = createServer();
      squatter.once('error', reject);
      squatter.listen(port, '127.0.0.1', () => resolve());
    });
  try {
    const err = await rejection(startTestNode({ host: '127.0.0.1', port }, { store }));
    assert.ok(squatter, 'the port was taken during the start');
    assert.match(err.message, String(port));
    assert.ok(store.closed, 'the chain (and its store) closed before startNode rejected');
  } finally {
    await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(undefined)));
  }
});

test('close() ends an open live-stream connection and resolves', async () => {
  const node = await startTestNode();
  const ws = new WebSocket(node.url.replace('http', 'ws') + '/api/ws');
  const first = await within(
    new Promise<string>((resolve, reject) => {
      ws.once('message', (data) => resolve(String(data)));
      ws.once('open', () => ws.send(JSON.stringify({ sub: 'blockstat' })));
      ws.once('error', reject);
    }),
    60_000,
    'the subscription',
  );
  assert.ok(JSON.parse(first).ok, first);
  const ended = new Promise((resolve) => ws.once('close', resolve));
  await within(node.close(), 60_000, 'close with a live-stream connection open');
  await within(ended, 60_000, 'the live-stream connection ending');
});

test('close() lets a request in flight finish before the store closes, and resolves only after the store closed', async () => {
  const store = new WatchedStore();
  const node = await startTestNode({}, { store });
  const { host, port } = new URL(node.url);
  const body = '{"tx":"AAAA"}';
  const socket: Socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (answer += chunk));
  const answered = new Promise<void>((resolve) => socket.on('data', () => answer.includes('\r\n\r\n') && resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /api/tx/new HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
  // A whole request on another connection: by its answer the node has read the first request's head.
  assert.is((await node.get('/api/node/status')).status, 200);
  let closeResolved = false;
  const closing = node.close().then(() => (closeResolved = true));
  // The store must stay open while the request waits for the rest of its body.
  await Promise.race([store.whenClosed, pause(1000)]);
  assert.not.ok(store.closed, 'the store closed while a request was in flight');
  assert.not.ok(closeResolved, 'close() resolved while a request was in flight');
  socket.write(body.slice(5));
  await within(answered, 60_000, 'the answer to the request in flight');
  assert.match(answer, /^HTTP\/1\.1 \d{3} /);
  socket.end();
  await within(closing, 60_000, 'close after the request finished');
  assert.ok(store.closed, 'close() resolved before the store was closed');
});

test('the slow-signature warning is given exactly when libsecp256k1 is not installed', async () => {
  const warnings: string[] = [];
  const logger: Logger = { level: 'warn', error: () => {}, warn: (m) => warnings.push(m), info: () => {}, debug: () => {} };
  const node = await startTestNode({}, { logger });
  await node.close();
  const slow = warnings.filter((w) => w.includes('@noble/curves') && w.includes('npm install secp256k1'));
  assert.is(slow.length, verifierBackend() === 'libsecp256k1' ? 0 : 1, warnings.join('\n'));
});

test.run();
