// The HTTP front on its own, with routes made for the test: how a path finds its route (with
// or without /api, a .json/.bin suffix, percent-encoding, an exact count of segments), the
// answers for a wrong method, a missing route, a thrown error or a crash, the body limit at
// its edge, the Host and Origin checks with their CORS headers and connection handling, and
// the server's own life: a failed accept, close() and a busy port. Streams: http-server-streams.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { startServer, type RunningServer } from '../../src/node/http/server.js';
import { createLogger } from '../../src/node/base/log.js';
import { DISCARD_BOUND } from '../../src/node/http/request-body.js';
import { call, raw, until, options, logLines, staticAsked, intercepted, LIMIT, server, port, serveDuring } from '../helpers/http-server-fixture.js';

serveDuring(test);

test('an error of the listening socket (an accept that failed) is logged, and the server goes on answering', async () => {
  logLines.length = 0;
  const failure = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' });
  server.server.emit('error', failure);
  assert.ok(
    logLines.some((l) => / error server socket: EMFILE accept EMFILE/.test(l)),
    logLines.join(''),
  );
  assert.is((await call('GET', '/api/echo/x')).status, 200);
});

test('startServer: the URL it listens at, the documented time limits, and the Host check its own', () => {
  assert.is(server.url, `http://127.0.0.1:${port}`);
  const s = server.server as http.Server;
  assert.is(s.headersTimeout, 15_000);
  assert.is(s.requestTimeout, 25_000);
  assert.is(s.keepAliveTimeout, 10_000);
});

test('a path with or without /api, decoded, with its query; .json and .bin suffixes set the format', async () => {
  for (const path of ['/api/echo/a%20b?q=1', '/echo/a%20b?q=1', '//api//echo/a%20b/?q=1']) {
    const a = await call('GET', path);
    assert.is(a.status, 200, path);
    assert.equal(JSON.parse(a.body), { params: ['a b'], format: 'json', q: '1' }, path);
  }
  assert.equal(JSON.parse((await call('GET', '/api/echo/x.json')).body), { params: ['x'], format: 'json', q: null });
  assert.equal(JSON.parse((await call('GET', '/api/echo/x.bin')).body), { params: ['x'], format: 'bin', q: null });
  assert.equal(JSON.parse((await call('GET', '/api/echo/x.binary')).body), { params: ['x.binary'], format: 'json', q: null });
  const mp = await call('GET', '/api/echo/x.mp');
  assert.is(mp.status, 501);
  assert.is(JSON.parse(mp.body).error, 'NOT_IMPLEMENTED');
  assert.equal(JSON.parse((await call('GET', '/api/rest')).body), []);
  assert.equal(JSON.parse((await call('GET', '/rest/a/b/c')).body), ['a', 'b', 'c']);
});

test('a malformed percent-encoding is 400 BAD_REQUEST_PARAM naming the segment', async () => {
  const a = await call('GET', '/api/echo/%zz');
  assert.is(a.status, 400);
  const body = JSON.parse(a.body);
  assert.is(body.code, 10039);
  assert.is(body.details, '"%zz"');
});

test('a route takes exactly its count of segments; anything else is 404 ROUTE_NOT_FOUND naming the path', async () => {
  for (const path of ['/api/echo', '/api/echo/a/b', '/api/nothing', '/']) {
    const a = await call('GET', `${path}?q=hidden`);
    assert.is(a.status, 404, path);
    const body = JSON.parse(a.body);
    assert.equal([body.code, body.error, body.result, body.details], [10010, 'ROUTE_NOT_FOUND', 'not_found', `GET ${path}`], path);
    assert.is(a.headers.allow, undefined);
  }
});

test('a wrong method is 405 with the allowed ones; HEAD is GET without the body', async () => {
  const a = await call('POST', '/api/echo/x', {}, '');
  assert.is(a.status, 405);
  assert.is(a.headers.allow, 'GET, OPTIONS');
  assert.equal(JSON.parse(a.body).details, 'allowed: GET');
  assert.is(JSON.parse(a.body).msg, 'POST is not allowed here: allowed: GET');
  const both = await call('PUT', '/api/dev/thing', { 'content-type': 'application/json' }, '{}');
  assert.is(both.status, 405);
  assert.is(both.headers.allow, 'POST, GET, OPTIONS');
  const get = await call('GET', '/api/echo/x');
  const head = await call('HEAD', '/api/echo/x');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  assert.is(head.headers['content-length'], get.headers['content-length']);
});

test('thrown errors answer by the table; a crash is 500 NODE_INTERNAL, logged', async () => {
  const thrown = await call('GET', '/api/throws');
  assert.is(thrown.status, 404);
  assert.equal(JSON.parse(thrown.body), { ok: false, result: 'not_found', code: 10007, msg: 'No such transaction: x', error: 'TX_NOT_FOUND', details: 'x' });
  const rejected = await call('GET', '/api/rejects');
  assert.is(rejected.status, 404);
  assert.is(JSON.parse(rejected.body).code, 10006);
  logLines.length = 0;
  const crash = await call('GET', '/api/crash');
  assert.is(crash.status, 500);
  assert.equal(JSON.parse(crash.body), { ok: false, result: 'error', code: 10099, msg: 'Internal error', error: 'NODE_INTERNAL' });
  assert.ok(
    logLines.some((l) => / error GET \/api\/crash: TypeError: boom/.test(l)),
    logLines.join(''),
  );
  assert.not.ok(
    logLines.some((l) => / error GET \/api\/throws/.test(l)),
    'a 404 is not logged as an error',
  );
});

test('every JSON answer: type, nosniff, length in bytes, CORS for any origin without Origin; a status and type of its own', async () => {
  const a = await call('GET', '/api/echo/%C3%A9');
  assert.is(a.headers['content-type'], 'application/json');
  assert.is(a.headers['x-content-type-options'], 'nosniff');
  assert.is(a.headers['access-control-allow-origin'], '*');
  assert.is(a.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
  assert.is(a.headers.vary, undefined);
  assert.ok(a.body.includes('\u00c3\u00a9'), 'the body holds the two bytes of é');
  assert.is(Number(a.headers['content-length']), a.body.length, 'the length counts bytes');
  const octets = await call('GET', '/api/octets');
  assert.is(octets.headers['content-type'], 'application/octet-stream');
  assert.is(octets.headers['content-length'], '4');
  assert.is(octets.body, 'abcd');
  const posted = await call('POST', '/api/body', {}, 'xyz');
  assert.is(posted.status, 201);
});

test('the body limit: exactly the limit is read whole; one byte more is 413 naming both', async () => {
  const at = await call('POST', '/api/body', {}, 'x'.repeat(LIMIT - 1) + 'z');
  assert.is(at.status, 201);
  assert.equal(JSON.parse(at.body), { length: LIMIT, last: 0x7a });
  const over = await call('POST', '/api/body', {}, 'x'.repeat(LIMIT + 1));
  assert.is(over.status, 413);
  const body = JSON.parse(over.body);
  assert.equal([body.code, body.error, body.details], [10037, 'REQUEST_TOO_LARGE', `limit ${LIMIT} bytes, got ${LIMIT + 1}`]);
  assert.is(over.headers.connection, 'keep-alive', 'the body was read: the connection can stay');
  const empty = await call('POST', '/api/body', {}, '');
  assert.equal(JSON.parse(empty.body), { length: 0, last: null });
});

test('a chunked upload past the limit is 413 too; a declared length past the discard bound closes at once', async () => {
  const chunked = await call('POST', '/api/body', { 'transfer-encoding': 'chunked' }, Buffer.alloc(LIMIT + 1, 0x78));
  assert.is(chunked.status, 413);
  assert.is(JSON.parse(chunked.body).details, `limit ${LIMIT} bytes, got more than ${LIMIT}`);
  const declared = LIMIT + DISCARD_BOUND + 1;
  const answer = await raw(`POST /api/body HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${declared}\r\n\r\nxx`);
  assert.match(answer, /^HTTP\/1\.1 413 /);
  assert.match(answer, /\r\nconnection: close\r\n/i);
  assert.match(answer, new RegExp(`"details":"limit ${LIMIT} bytes, got ${declared}"`));
});

test('HTTP/1.1 without Host is 400 and closed; HTTP/1.0 without Host is served', async () => {
  const missing = await raw('GET /api/echo/x HTTP/1.1\r\n\r\n');
  assert.match(missing, /^HTTP\/1\.1 400 /);
  assert.match(missing, /\r\nconnection: close\r\n/i);
  assert.match(missing, /"error":"HTTP_MALFORMED"/);
  const old = await raw('GET /api/echo/x HTTP/1.0\r\n\r\n');
  assert.match(old, /^HTTP\/1\.1 200 /);
  assert.match(old, /"params":\["x"\]/);
});

test('a refused Host is 403 before any route; a refused write also closes the connection', async () => {
  const get = await call('GET', '/api/echo/x', { host: 'evil.example' });
  assert.is(get.status, 403);
  assert.is(JSON.parse(get.body).code, 10060);
  assert.is(get.headers.connection, 'keep-alive');
  const post = await call('POST', '/api/body', { host: 'evil.example' }, 'x');
  assert.is(post.status, 403);
  assert.is(post.headers.connection, 'close');
  const origin = await call('POST', '/api/body', { origin: 'http://evil.example' }, 'x');
  assert.is(origin.status, 403);
  assert.is(JSON.parse(origin.body).code, 10061);
  assert.is(origin.headers.connection, 'close');
  assert.is(origin.headers.vary, 'Origin');
  assert.is(origin.headers['access-control-allow-origin'], undefined);
});

test('a page of this machine gets its origin echoed; a foreign page may GET without CORS', async () => {
  const own = await call('GET', '/api/echo/x', { origin: 'http://localhost:5173' });
  assert.is(own.headers['access-control-allow-origin'], 'http://localhost:5173');
  assert.is(own.headers.vary, 'Origin');
  const foreign = await call('GET', '/api/echo/x', { origin: 'http://evil.example' });
  assert.is(foreign.status, 200);
  assert.is(foreign.headers['access-control-allow-origin'], undefined);
  assert.is(foreign.headers.vary, 'Origin');
  const asked = await call('GET', '/api/echo/x', { 'access-control-request-headers': 'x-a' });
  assert.is(asked.headers['access-control-allow-headers'], 'x-a');
});

test('OPTIONS is a 204 preflight with CORS and nosniff, for any path', async () => {
  const pre = await call('OPTIONS', '/api/nothing', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
  assert.is(pre.status, 204);
  assert.is(pre.headers['access-control-allow-origin'], 'http://localhost:5173');
  assert.is(pre.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
  assert.is(pre.headers['access-control-max-age'], '86400');
  assert.is(pre.headers['x-content-type-options'], 'nosniff');
  assert.is(pre.body, '');
  const refused = await call('OPTIONS', '/api/echo/x', { origin: 'http://evil.example' });
  assert.is(refused.status, 403);
  assert.is(refused.headers.connection, 'keep-alive', 'a refused preflight changes nothing');
});

test('dev POSTs take JSON only (415, connection closed); dev GETs and other POSTs need no type', async () => {
  const form = await call('POST', '/api/dev/thing', { 'content-type': 'text/plain' }, '{}');
  assert.is(form.status, 415);
  assert.is(JSON.parse(form.body).code, 10062);
  assert.is(form.headers.connection, 'close');
  const bare = await call('POST', '/dev/thing', {}, '{}');
  assert.is(bare.status, 415);
  const json = await call('POST', '/dev/thing', { 'content-type': 'application/json' }, '{}');
  assert.is(json.status, 200);
  assert.is((await call('GET', '/api/dev/thing')).status, 200);
  assert.is((await call('POST', '/api/body', { 'content-type': 'text/plain' }, 'x')).status, 201);
});

test('static files come before routes for GET outside /api/; a failing one is 500', async () => {
  const page = await call('GET', '/page.txt');
  assert.equal([page.status, page.body], [200, 'a page']);
  staticAsked.length = 0;
  assert.is((await call('GET', '/api/page.txt')).status, 404, '/api/ is never a file');
  assert.equal(staticAsked, [], 'the files are not even asked');
  assert.is((await call('GET', '/apix/page.txt')).status, 404);
  assert.equal(staticAsked, ['/apix/page.txt']);
  assert.is((await call('POST', '/page.txt', {}, '')).status, 404, 'files answer GET and HEAD only');
  const broken = await call('GET', '/broken');
  assert.is(broken.status, 500);
  assert.is(JSON.parse(broken.body).code, 10099);
  assert.is((await call('GET', '/echo/y')).status, 200, 'no file: the route answers');
});

test('the interceptor sees a request before routing and may answer it, closing the connection', async () => {
  const a = await call('GET', '/faulted');
  assert.ok(intercepted.seen);
  assert.equal([a.status, a.body, a.headers.connection], [503, '{"fault":true}', 'close']);
});

test('debug logging: one line per answer with method, path, status and time', async () => {
  logLines.length = 0;
  await call('GET', '/api/echo/logged');
  await until('the access line', () => logLines.some((l) => l.includes('GET /api/echo/logged 200 ')));
  assert.match(
    logLines.find((l) => l.includes('/api/echo/logged'))!,
    / debug GET \/api\/echo\/logged 200 \d+\.\d ms\n$/,
  );
});

test('close() ends the server with its idle connections', async () => {
  const other = await startServer({ ...options, logger: createLogger('silent') }, '127.0.0.1', 0);
  const keep = new http.Agent({ keepAlive: true });
  const otherPort = Number(new URL(other.url).port);
  await new Promise<void>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: otherPort, path: '/api/echo/k', agent: keep, headers: { host: 'localhost' } }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      })
      .on('error', reject);
  });
  await other.close();
  assert.not.ok(other.server.listening);
  keep.destroy();
});

test('a busy port makes startServer reject; an IPv6 address is shown in brackets', async () => {
  await startServer({ ...options, logger: createLogger('silent') }, '127.0.0.1', port).then(
    () => assert.unreachable('listened twice on one port'),
    (err: NodeJS.ErrnoException) => assert.is(err.code, 'EADDRINUSE'),
  );
  let six: RunningServer | undefined;
  try {
    six = await startServer({ ...options, logger: createLogger('silent') }, '::1', 0);
  } catch {
    return; // no IPv6 loopback on this machine
  }
  assert.match(six.url, /^http:\/\/\[::1\]:\d+$/);
  await six.close();
});

test.run();
