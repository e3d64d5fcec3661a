// Edges of three small pieces of the HTTP front. The body limit: a declared or counted size at
// the limit and one past it, the discard bound of 16 MiB (docs/guide/security.md) at and past
// it, an abandoned upload. The port probe: a busy port is PORT_IN_USE before anything opens,
// and the probe leaves the port free. TLS: the user's files, or a development certificate
// made once, kept in the data dir with a private key only its owner reads, and reused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { TpkitError } from '../../src/errors.js';
import { DISCARD_BOUND, isBodyTooLarge, readBody, type BodyTooLarge } from '../../src/node/http/request-body.js';
import { ensurePortFree } from '../../src/node/http/port-check.js';
import { loadTls } from '../../src/node/http/tls.js';

/** A request fed by the test, with the headers given. */
function upload(headers: http.IncomingHttpHeaders = {}) {
  const stream = new Readable({ read() {} });
  const req = Object.assign(stream, { headers, complete: false }) as unknown as http.IncomingMessage & Readable;
  return {
    req,
    send: (size: number) => stream.push(Buffer.alloc(size, 0x61)),
    end: () => {
      req.complete = true;
      stream.push(null);
    },
  };
}

const outcome = (p: Promise<Uint8Array>) =>
  p.then(
    (b) => b,
    (e: unknown) => e,
  );

test('the discard bound is the documented 16 MiB', () => {
  assert.is(DISCARD_BOUND, 16 * 1024 * 1024);
});

test('a declared length at the limit is read; one past it is refused after the body, naming the length', async () => {
  const at = upload({ 'content-length': '10' });
  const body = readBody(at.req, 10);
  at.send(10);
  at.end();
  assert.is((await body).length, 10);
  const over = upload({ 'content-length': '11' });
  const refused = outcome(readBody(over.req, 10));
  over.send(11);
  over.end();
  const err = (await refused) as BodyTooLarge;
  assert.ok(isBodyTooLarge(err));
  assert.is(err.close, false);
  assert.is(err.error.details, 'limit 10 bytes, got 11');
});

test('a counted body at the limit is read; one byte more is refused once it ends', async () => {
  const at = upload();
  const body = readBody(at.req, 10);
  at.send(4);
  at.send(6);
  at.end();
  assert.is((await body).length, 10);
  const over = upload();
  const refused = outcome(readBody(over.req, 10));
  over.send(4);
  over.send(7);
  over.end();
  const err = (await refused) as BodyTooLarge;
  assert.ok(isBodyTooLarge(err));
  assert.is(err.error.details, 'limit 10 bytes, got more than 10');
  assert.is(err.close, false);
});

test('a declared length past limit + 16 MiB is refused at once, closing; at the bound it is read on', async () => {
  const past = upload({ 'content-length': String(10 + DISCARD_BOUND + 1) });
  const err = (await outcome(readBody(past.req, 10))) as BodyTooLarge;
  assert.ok(isBodyTooLarge(err));
  assert.is(err.close, true);
  assert.is(err.error.details, `limit 10 bytes, got ${10 + DISCARD_BOUND + 1}`);
  assert.is(past.req.listenerCount('data'), 0, 'nothing is read');

  const at = upload({ 'content-length': String(10 + DISCARD_BOUND) });
  const refused = outcome(readBody(at.req, 10));
  for (let sent = 0; sent < 10 + DISCARD_BOUND; sent += 1024 * 1024) at.send(Math.min(1024 * 1024, 10 + DISCARD_BOUND - sent));
  at.end();
  const late = (await refused) as BodyTooLarge;
  assert.is(late.close, false, 'the whole body was discarded: the connection can stay');
});

test('a body counted past limit + 16 MiB is refused as it arrives, and the request paused', async () => {
  const u = upload();
  const refused = outcome(readBody(u.req, 10));
  u.send(10 + DISCARD_BOUND);
  await new Promise((r) => setImmediate(r));
  let settled = false;
  void refused.then(() => (settled = true));
  await new Promise((r) => setImmediate(r));
  assert.not.ok(settled, 'exactly at the bound it reads on');
  u.send(1);
  const err = (await refused) as BodyTooLarge;
  assert.is(err.close, true);
  assert.is(err.error.details, 'limit 10 bytes, got more than 10');
  assert.ok(u.req.isPaused());
});

test('an upload that closes before its end, or fails, is REQUEST_ABORTED', async () => {
  const closed = upload({ 'content-length': '100' });
  const a = outcome(readBody(closed.req, 1000));
  closed.send(10);
  await new Promise((r) => setImmediate(r));
  closed.req.emit('close');
  const err = (await a) as TpkitError;
  assert.is(err.code, 'REQUEST_ABORTED');
  assert.is(err.message, 'Request aborted: the client closed the connection before the body was complete');
  const failed = upload();
  const b = outcome(readBody(failed.req, 1000));
  failed.req.emit('error', new Error('ECONNRESET'));
  assert.is(((await b) as TpkitError).code, 'REQUEST_ABORTED');
  // A connection that closes once the whole body is in is no abort, even before the body's end is read.
  const whole = upload({ 'content-length': '3' });
  const d = readBody(whole.req, 1000);
  whole.send(3);
  whole.req.complete = true;
  whole.req.emit('close');
  whole.end();
  assert.is((await d).length, 3);
  // A close after a complete body changes nothing.
  const done = upload();
  const c = readBody(done.req, 1000);
  done.send(3);
  done.end();
  assert.is((await c).length, 3);
  done.req.emit('close');
});

test('isBodyTooLarge tells the refusal from other values', () => {
  assert.ok(isBodyTooLarge({ error: 1, close: false }));
  assert.not.ok(isBodyTooLarge({ error: 1 }));
  assert.not.ok(isBodyTooLarge({ close: true }));
  assert.not.ok(isBodyTooLarge(null));
  assert.not.ok(isBodyTooLarge('error close'));
  assert.not.ok(isBodyTooLarge(new Error('x')));
});

test('ensurePortFree: a busy port is PORT_IN_USE; a free one is left free; port 0 is not probed', async () => {
  const busy = net.createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  const port = (busy.address() as net.AddressInfo).port;
  try {
    const err = await ensurePortFree('127.0.0.1', port).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(err, TpkitError);
    assert.is((err as TpkitError).code, 'PORT_IN_USE');
    assert.is((err as TpkitError).shortMessage, `Port ${port} on 127.0.0.1 is already in use`);
  } finally {
    await new Promise((r) => busy.close(r));
  }
  await ensurePortFree('127.0.0.1', port);
  // The probe closed: the port can be listened on again at once.
  const again = net.createServer();
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject);
    again.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve());
  });
  await new Promise((r) => again.close(r));
  await ensurePortFree('127.0.0.1', 0);
  await ensurePortFree('192.0.2.1', 0); // not probed: the real listen reports it
  const err = await ensurePortFree('192.0.2.1', port).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.is((err as TpkitError).code, 'CONFIG_INVALID', 'an address this machine does not have');
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tpkit-tls-'));
}

test('loadTls: the user files as they are; an unreadable one is CONFIG_INVALID naming its flag', () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'c.pem'), 'CERT');
    writeFileSync(join(dir, 'k.pem'), 'KEY');
    assert.equal(loadTls({ host: '127.0.0.1', dataDir: dir, memory: false, tls: { cert: join(dir, 'c.pem'), key: join(dir, 'k.pem'), selfSigned: true } }), { cert: 'CERT', key: 'KEY' });
    for (const [tls, flag] of [
      [{ cert: join(dir, 'none.pem'), key: join(dir, 'k.pem') }, '--tls-cert'],
      [{ cert: join(dir, 'c.pem'), key: join(dir, 'none.pem') }, '--tls-key'],
    ] as const) {
      try {
        loadTls({ host: '127.0.0.1', dataDir: dir, memory: false, tls: { ...tls, selfSigned: false } });
        assert.unreachable('read a missing file');
      } catch (err) {
        assert.is((err as TpkitError).code, 'CONFIG_INVALID');
        assert.is((err as TpkitError).field, flag);
        assert.match((err as Error).message, new RegExp(`^${flag}: cannot read .*none\\.pem`));
      }
    }
    assert.is(loadTls({ host: '127.0.0.1', dataDir: dir, memory: false, tls: { cert: join(dir, 'c.pem'), selfSigned: false } }), undefined, 'a cert without a key is no TLS');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('loadTls: a development certificate for the local names and the listening host, kept and reused', () => {
  const dir = tempDir();
  try {
    const first = loadTls({ host: '192.0.2.7', dataDir: dir, memory: false, tls: { selfSigned: true } })!;
    assert.is(first.devCertPath, join(dir, 'tls', 'dev-cert.pem'));
    assert.is(readFileSync(join(dir, 'tls', 'dev-cert.pem'), 'utf8'), first.cert);
    assert.is(readFileSync(join(dir, 'tls', 'dev-key.pem'), 'utf8'), first.key);
    assert.is(statSync(join(dir, 'tls', 'dev-key.pem')).mode & 0o777, 0o600);
    assert.is(statSync(join(dir, 'tls', 'dev-cert.pem')).mode & 0o777, 0o644);
    assert.equal(readdirSync(join(dir, 'tls')).sort(), ['dev-cert.pem', 'dev-key.pem'], 'no temporary file left');
    assert.is(new X509Certificate(first.cert).subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:192.0.2.7');
    const second = loadTls({ host: '192.0.2.7', dataDir: dir, memory: false, tls: { selfSigned: true } })!;
    assert.equal(second, first, 'the same certificate across restarts');
    // A pair left half written (the certificate gone) is made anew, both files together.
    rmSync(join(dir, 'tls', 'dev-cert.pem'));
    const third = loadTls({ host: '192.0.2.7', dataDir: dir, memory: false, tls: { selfSigned: true } })!;
    assert.is.not(third.key, first.key);
    assert.is(readFileSync(join(dir, 'tls', 'dev-cert.pem'), 'utf8'), third.cert);
    assert.is(readFileSync(join(dir, 'tls', 'dev-key.pem'), 'utf8'), third.key);
    for (const host of ['0.0.0.0', '::', 'localhost', '127.0.0.1', '::1']) {
      const mem = loadTls({ host, dataDir: dir, memory: true, tls: { selfSigned: true } })!;
      assert.is(mem.devCertPath, undefined);
      assert.is(new X509Certificate(mem.cert).subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1', host);
    }
    const named = loadTls({ host: 'dev.example', dataDir: dir, memory: true, tls: { selfSigned: true } })!;
    assert.is(new X509Certificate(named.cert).subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:dev.example');
    assert.is(loadTls({ host: '127.0.0.1', dataDir: dir, memory: true, tls: { selfSigned: false } }), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
