// What never reaches a route (docs/guide/security.md, "HTTP hardening"): a request Node's
// parser gave up on is answered 400 HTTP_MALFORMED, a stalled one 408 REQUEST_TIMEOUT, a reset
// or closed socket is let go without a word, CONNECT gets 405, and an HTTP/1.1 request without
// Host is malformed. The documented time limits are pinned here too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type http from 'node:http';
import { PassThrough, type Duplex } from 'node:stream';
import { DEFAULT_HTTP_TIMEOUTS, missingHost, onClientError, onConnect } from '../../src/node/http/guards.js';
import { createLogger } from '../../src/node/base/log.js';

/** A socket that records what is written to it and whether it was destroyed. */
function fakeSocket(writable = true) {
  const written: string[] = [];
  let destroyed = false;
  let ended = false;
  const socket = {
    writable,
    remoteAddress: '127.0.0.9',
    end(text?: string) {
      if (text !== undefined) written.push(text);
      ended = true;
    },
    destroy() {
      destroyed = true;
    },
    on() {
      return socket;
    },
  };
  return { socket: socket as unknown as Duplex, written, state: () => ({ destroyed, ended }) };
}

function lines() {
  const out: string[] = [];
  return { out, logger: createLogger('debug', (line) => out.push(line)) };
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

test('the documented time limits: headers 15 s, the request 25 s, kept-alive idle 10 s, checked every second', () => {
  assert.equal(DEFAULT_HTTP_TIMEOUTS, { headers: 15_000, request: 25_000, keepAlive: 10_000, checkEvery: 1_000 });
});

test("a parse error is answered 400 HTTP_MALFORMED naming Node's code, and logged at debug", () => {
  const { out, logger } = lines();
  const s = fakeSocket();
  const err = Object.assign(new Error('Invalid method encountered'), { code: 'HPE_INVALID_METHOD' });
  onClientError(logger)(err, s.socket);
  assert.is(s.written.length, 1);
  assert.match(s.written[0], /^HTTP\/1\.1 400 Bad Request\r\n/);
  const body = bodyOf(s.written[0]);
  assert.is(body.error, 'HTTP_MALFORMED');
  assert.is(body.code, 10012);
  assert.is(body.details, 'HPE_INVALID_METHOD: Invalid method encountered');
  assert.equal(s.state(), { destroyed: false, ended: true });
  assert.is(out.length, 1);
  assert.match(out[0], / debug malformed request \(HPE_INVALID_METHOD\) from 127\.0\.0\.9\n$/);
});

test('an error without a code still says parse error', () => {
  const s = fakeSocket();
  onClientError(createLogger('silent'))(new Error('bad'), s.socket);
  assert.is(bodyOf(s.written[0]).details, 'parse error: bad');
});

test('a stalled request is answered 408 REQUEST_TIMEOUT', () => {
  const { out, logger } = lines();
  const s = fakeSocket();
  onClientError(logger)(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), s.socket);
  assert.match(s.written[0], /^HTTP\/1\.1 408 Request Timeout\r\n/);
  const body = bodyOf(s.written[0]);
  assert.is(body.error, 'REQUEST_TIMEOUT');
  assert.is(body.code, 10014);
  assert.is(body.details, 'the request headers or body did not arrive in time');
  assert.match(out[0], /request timeout from 127\.0\.0\.9/);
});

test('a reset connection, or one that takes no more, is destroyed without an answer', () => {
  const reset = fakeSocket();
  onClientError(createLogger('silent'))(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), reset.socket);
  assert.equal(reset.written, []);
  assert.equal(reset.state(), { destroyed: true, ended: false });
  const closed = fakeSocket(false);
  onClientError(createLogger('silent'))(Object.assign(new Error('x'), { code: 'HPE_INVALID_METHOD' }), closed.socket);
  assert.equal(closed.written, []);
  assert.equal(closed.state(), { destroyed: true, ended: false });
});

test('CONNECT is answered 405 and the request let go', () => {
  const socket = new PassThrough();
  let destroyed = false;
  const req = { destroy: () => (destroyed = true) } as unknown as http.IncomingMessage;
  onConnect(req, socket);
  const raw = String(socket.read());
  assert.match(raw, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  const body = bodyOf(raw);
  assert.is(body.error, 'METHOD_NOT_ALLOWED');
  assert.is(body.msg, 'CONNECT is not allowed: this node is not a proxy');
  assert.ok(destroyed);
  assert.ok(socket.writableEnded);
  // A socket error after the answer destroys the socket instead of throwing.
  socket.emit('error', new Error('EPIPE'));
  assert.ok(socket.destroyed);
});

test('missingHost: HTTP/1.1 needs a Host; HTTP/1.0 does not', () => {
  const err = missingHost({ httpVersion: '1.1', headers: {} } as http.IncomingMessage);
  assert.is(err?.code, 'HTTP_MALFORMED');
  assert.is(err?.message, 'Missing Host header: an HTTP/1.1 request must carry a Host header');
  assert.is(missingHost({ httpVersion: '1.1', headers: { host: 'localhost' } } as http.IncomingMessage), undefined);
  assert.is(missingHost({ httpVersion: '1.1', headers: { host: '' } } as http.IncomingMessage), undefined, 'an empty Host is present; the Host check judges it');
  assert.is(missingHost({ httpVersion: '1.0', headers: {} } as http.IncomingMessage), undefined);
});

test.run();
