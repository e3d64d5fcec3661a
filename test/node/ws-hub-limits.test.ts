// The live stream's bounds at their edges (docs/guide/security.md, "Bounds"; node-api.md):
// 100 subscriptions a connection, identical ones counted once; connections capped in all and
// per address, a place freed when one closes; a client message of at most 4 KiB; the paths it
// answers on; resets told only to subscribers; and close() letting go of everything.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket } from 'ws';
import { CLOSE_TOO_SLOW, MAX_SUBSCRIPTIONS } from '../../src/node/api/ws-hub.js';
import { DEFAULT_WS_LIMITS } from '../../src/node/config/config.js';
import { closed, open, serve, until, withHub } from '../helpers/ws-hub-stand-in.js';
import { createLogger } from '../../src/node/base/log.js';

test('the documented bounds: 100 subscriptions, 128 connections, 64 per address, 4 MiB unsent, 1008 for a slow reader', () => {
  assert.is(MAX_SUBSCRIPTIONS, 100);
  assert.equal(DEFAULT_WS_LIMITS, { connections: 128, connectionsPerAddress: 64, bufferedBytes: 4 * 1024 * 1024 });
  assert.is(CLOSE_TOO_SLOW, 1008);
});

test('100 distinct subscriptions are held; the 101st is SUBSCRIPTION_LIMIT with its id; a held one is acknowledged again', async () => {
  await withHub(async (s) => {
    const c = await open(s.port);
    c.socket.send('{"sub":"block"}');
    assert.equal(await c.next((m) => m.ok === true), { ok: true, subscribe: ['new_block', 'full', 'json'], moresubs: 99 });
    for (let i = 1; i < 100; i++) c.socket.send(JSON.stringify({ sub: 'tx', txid: `pending-${i}`, id: i }));
    const last = await c.next((m) => m.id === 99);
    assert.equal(last, { ok: true, subscribe: ['tx', 'pending-99'], moresubs: 0, id: 99 });
    c.socket.send(JSON.stringify({ sub: 'blockstat', id: 'over' }));
    const over = await c.next((m) => m.id === 'over');
    assert.equal([over.ok, over.error, over.code, over.details], [false, 'SUBSCRIPTION_LIMIT', 10051, '100 per connection; open another connection']);
    c.socket.send(JSON.stringify({ sub: 'tx', txid: 'pending-5', id: 'again' }));
    assert.equal(await c.next((m) => m.id === 'again'), { ok: true, subscribe: ['tx', 'pending-5'], moresubs: 0, id: 'again' });
    c.socket.send('ping');
    c.socket.send('{"sub":"tx"}');
    const any = await c.next((m) => (Array.isArray(m.subscribe) && (m.subscribe as unknown[])[1] === 'any') || (m.error === 'SUBSCRIPTION_LIMIT' && m.id === undefined));
    assert.is(any.error, 'SUBSCRIPTION_LIMIT', 'a new kind is one more');
    assert.not.ok(
      c.messages.some((m) => m.error === 'SUBSCRIPTION_INVALID'),
      'ping, the reference keep-alive, is answered by nothing',
    );
    c.socket.close();
  });
});

test('a settled transaction is answered at once and not held; a pending one is held', async () => {
  await withHub(async (s) => {
    const c = await open(s.port);
    c.socket.send('{"sub":"tx","txid":"settled-1"}');
    assert.equal(await c.next((m) => 'tx' in m), { tx: 'settled-1', res: { ok: true, res: 'ok' } });
    assert.is(c.messages[0].moresubs, 99);
    c.socket.send('{"sub":"blockstat"}');
    assert.is((await c.next((m) => (m.subscribe as unknown[])?.[1] === 'stat')).moresubs, 99, 'the settled one was let go');
    c.socket.close();
  });
});

test('connections: per address and in all, refused 429 WS_CONNECTION_LIMIT in JSON; a closed one frees its place', async () => {
  await withHub(
    async (s) => {
      const a = await open(s.port);
      const b = await open(s.port, '/ws');
      const err = await open(s.port).then(
        () => undefined,
        (e: { status: number; body: Record<string, unknown> }) => e,
      );
      assert.is(err?.status, 429);
      assert.equal(
        [err?.body.error, err?.body.code, err?.body.msg],
        [
          'WS_CONNECTION_LIMIT',
          10063,
          'Too many live-stream connections from this address: 127.0.0.1 holds 2, the limit per address (--ws-max-per-address); one connection carries up to 100 subscriptions',
        ],
      );
      assert.is(s.hub.connections, 2);
      const gone = closed(a);
      a.socket.close();
      await gone;
      await until('the place to be freed', () => s.hub.connections === 1);
      const c = await open(s.port, '/api/ws?x=1');
      assert.is(s.hub.connections, 2);
      const again = await open(s.port).then(
        () => undefined,
        (e: { status: number }) => e,
      );
      assert.is(again?.status, 429, 'the freed place is taken again');
      b.socket.close();
      c.socket.close();
    },
    { limits: { connections: 3, connectionsPerAddress: 2 } },
  );
  await withHub(
    async (one) => {
      for (let i = 0; i < 3; i++) {
        const c = await open(one.port);
        const gone = closed(c);
        c.socket.close();
        await gone;
        await until('the place to be freed', () => one.hub.connections === 0);
      }
    },
    { limits: { connections: 3, connectionsPerAddress: 1 } },
  );
  await withHub(
    async (all) => {
      await open(all.port);
      await open(all.port);
      const err = await open(all.port).then(
        () => undefined,
        (e: { status: number; body: Record<string, unknown> }) => e,
      );
      assert.is(err?.status, 429);
      assert.is(err?.body.msg, 'Too many live-stream connections: the node holds 2, its limit (--ws-max-connections); close one or retry later');
    },
    { limits: { connections: 2, connectionsPerAddress: 5 } },
  );
});

test('a message of 4 KiB is read; one byte more closes the connection', async () => {
  await withHub(async (s) => {
    const c = await open(s.port);
    const at = JSON.stringify({ sub: 'block', pad: '' });
    c.socket.send(JSON.stringify({ sub: 'block', pad: 'x'.repeat(4096 - at.length) }));
    assert.is((await c.next((m) => m.ok === true)).moresubs, 99);
    const code = closed(c);
    c.socket.send(JSON.stringify({ sub: 'block', pad: 'x'.repeat(4097 - at.length) }));
    assert.is(await code, 1009);
  });
});

test('other paths are 404 in JSON; a refused Host is 403', async () => {
  await withHub(async (s) => {
    const err = await open(s.port, '/api/wsx').then(
      () => undefined,
      (e: { status: number; body: Record<string, unknown> }) => e,
    );
    assert.is(err?.status, 404);
    assert.is(err?.body.details, 'no WebSocket at /api/wsx; use /api/ws');
    const host = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${s.port}/api/ws`, { headers: { host: 'evil.example' } });
      socket.on('error', () => {});
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    });
    assert.is(host, 403);
  });
});

test('a socket that fails while its upgrade is refused is destroyed; the error reaches no one else', async () => {
  await withHub(async (s) => {
    // The hub's own listener runs first; this one then fails the socket as a reset peer would.
    const seen = new Promise<{ destroyed: boolean; threw: unknown }>((resolve) =>
      s.server.once('upgrade', (_req, socket: import('node:stream').Duplex) => {
        let threw: unknown;
        try {
          socket.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
        } catch (err) {
          threw = err;
        }
        resolve({ destroyed: socket.destroyed, threw });
      }),
    );
    const refused = open(s.port, '/api/wsx').then(
      () => 'opened',
      () => 'failed',
    );
    assert.equal(await seen, { destroyed: true, threw: undefined });
    assert.is(await refused, 'failed');
    const d = await open(s.port);
    assert.is(s.hub.connections, 1, 'the hub goes on');
    d.socket.close();
  });
});

test('a reset is told once to each connection with subscriptions, and to no other', async () => {
  await withHub(async (s) => {
    const subscribed = await open(s.port);
    const idle = await open(s.port);
    subscribed.socket.send('{"sub":"block"}');
    await subscribed.next((m) => m.ok === true);
    for (const l of s.stand.resetListeners) l({ kind: 'revert', height: 3 });
    assert.equal(await subscribed.next((m) => 'reset' in m), { reset: { kind: 'revert', height: 3 } });
    idle.socket.send('{"sub":"blockstat"}');
    await idle.next((m) => m.ok === true);
    assert.not.ok(
      idle.messages.some((m) => 'reset' in m),
      'it had no subscription then',
    );
    subscribed.socket.close();
    idle.socket.close();
  });
});

test('close() ends every connection and stops listening to the chain', async () => {
  const s = await serve();
  const c = await open(s.port);
  assert.is(s.stand.blockListeners.size, 1);
  assert.is(s.stand.resetListeners.size, 1);
  let code: number | undefined;
  c.socket.once('close', (n) => (code = n));
  s.hub.close();
  await until('the connection to be ended', () => code !== undefined);
  assert.is(code, 1006, 'terminated');
  const late = await open(s.port).then(
    () => undefined,
    (e: { status: number }) => e,
  );
  assert.is(late?.status, 503, 'a closed hub takes no new connection');
  assert.is(s.hub.connections, 0);
  await s.stop();
  assert.is(s.stand.blockListeners.size, 0);
  assert.is(s.stand.resetListeners.size, 0);
  assert.is(s.hub.connections, 0);
});

test('a reader that takes nothing is closed once older data passes the bound; one that reads is kept', async () => {
  const warnings: string[] = [];
  await withHub(
    async (s) => {
      const stalled = await open(s.port);
      const reader = await open(s.port);
      for (const c of [stalled, reader]) {
        c.socket.send('{"sub":"tx"}');
        await c.next((m) => m.ok === true);
      }
      const code = new Promise<[number, string]>((r) => stalled.socket.once('close', (n, why) => r([n, String(why)])));
      (stalled.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      // Blocks of 2,000 results (about 90 KB each) until the stalled one is let go.
      const txids = Array.from({ length: 2000 }, (_, i) => `tx-${i}`);
      const record = { hash: 'H', header: { height: 1, parent: 'P' }, time: 1, txs: txids, failed: {}, bals: {}, registered: {} };
      const blk = { record, txs: txids.map((txid) => ({ txid, body: { kind: 'ether' } })), statuses: txids.map(() => '{"ok":true}') };
      let blocks = 0;
      for (; blocks < 300 && s.hub.connections === 2; blocks++) {
        s.stand.blockListeners.forEach((l) => l(blk));
        await until('the reader to take the block', () => reader.messages.length === 1 + 2000 * (blocks + 1));
      }
      assert.is(s.hub.connections, 1, `dropped after ${blocks} blocks`);
      assert.ok(blocks > 1, 'one block past the bound does not drop a reader');
      (stalled.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      // 1008 when the close frame gets out within its grace second, else the socket is cut (1006).
      assert.ok([1008, 1006].includes((await code)[0]));
      assert.is(warnings.filter((w) => / warn  ws: closed a connection from 127\.0\.0\.1 that fell behind \(\d+ bytes unsent, limit 65536\)/.test(w)).length, 1, warnings.join(''));
      await until('the dropped socket to be let go', () => s.hub.closing === 0);
      assert.is(reader.socket.readyState, WebSocket.OPEN);
      // The dropped one's place is freed once, not twice: the reader still holds one of the two.
      const third = await open(s.port);
      const refused = await open(s.port).then(
        () => undefined,
        (e: { status: number }) => e,
      );
      assert.is(refused?.status, 429, 'the reader and the new one fill the two places');
      third.socket.close();
      reader.socket.close();
      await until('every place to be freed', () => s.hub.connections === 0);
      assert.is(s.hub.addresses, 0, 'no address is held once its last connection closed');
    },
    { limits: { bufferedBytes: 64 * 1024, connectionsPerAddress: 2 } },
    createLogger('warn', (line) => warnings.push(line)),
  );
});

/** Makes every hub-side socket report `bytes` unsent (undefined: what it really holds) until restored. */
function fakeUnsent(): { set(bytes: number | undefined): void; restore(): void } {
  const real = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'bufferedAmount')!;
  let unsent: number | undefined;
  Object.defineProperty(WebSocket.prototype, 'bufferedAmount', {
    configurable: true,
    get(this: WebSocket & { _isServer: boolean }) {
      return this._isServer && unsent !== undefined ? unsent : real.get!.call(this);
    },
  });
  return { set: (bytes) => (unsent = bytes), restore: () => Object.defineProperty(WebSocket.prototype, 'bufferedAmount', real) };
}

test("the unsent bound to the byte: at the bound a reader is answered, one byte past it is closed with 1008 at once; the latest block's bytes do not count", async () => {
  const unsent = fakeUnsent();
  const s = await serve({ limits: { bufferedBytes: 1000, connectionsPerAddress: 2 } });
  try {
    const kept = await open(s.port);
    const late = await open(s.port);
    for (const c of [kept, late]) {
      c.socket.send('{"sub":"blockstat"}');
      await c.next((m) => m.ok === true);
    }
    let lateClose: [number, string] | undefined;
    late.socket.once('close', (n, why) => (lateClose = [n, String(why)]));
    unsent.set(1000);
    kept.socket.send('{"sub":"blockstat","id":1}');
    assert.is((await kept.next((m) => m.id === 1)).ok, true, 'exactly at the bound');
    unsent.set(1001);
    late.socket.send('{"sub":"blockstat","id":1}');
    // The close frame goes out at once: no grace second elapses and the socket is not cut (1006).
    await until('the reader one byte past the bound to be closed', () => lateClose !== undefined);
    assert.equal(lateClose, [1008, 'too slow: over 1000 bytes unsent']);
    assert.not.ok(
      late.messages.some((m) => m.id === 1),
      'a dropped reader is not answered',
    );
    await until('the dropped one to be let go', () => s.hub.connections === 1 && s.hub.closing === 0);

    unsent.set(undefined);
    const sizes: number[] = [];
    kept.socket.on('message', (d: Buffer) => sizes.push(d.length));
    const record = { hash: 'H', header: { height: 2, parent: 'P' }, time: 2, txs: ['t'], failed: {}, bals: {}, registered: {} };
    s.stand.blockListeners.forEach((l) => l({ record, txs: [{ txid: 't', body: { kind: 'ether' } }], statuses: ['{"ok":true}'] }));
    await kept.next((m) => 'blockstat' in m);
    const blockBytes = sizes[0];
    unsent.set(1000 + blockBytes);
    kept.socket.send('{"sub":"blockstat","id":2}');
    assert.is((await kept.next((m) => m.id === 2)).ok, true, 'the bound plus the latest block, still unsent');
    let keptClose: number | undefined;
    kept.socket.once('close', (n) => (keptClose = n));
    unsent.set(1001 + blockBytes);
    kept.socket.send('{"sub":"blockstat","id":3}');
    await until('the reader one byte past the bound to be closed', () => keptClose !== undefined);
    assert.is(keptClose, 1008);
    assert.not.ok(kept.messages.some((m) => m.id === 3));
  } finally {
    unsent.restore();
    await s.stop();
  }
});

test.run();
