// The HTTP front on its own, with routes made for the test: how a path finds its route (with
// or without /api, a .json/.bin suffix, percent-encoding, an exact count of segments), the
// answers for a wrong method, a missing route, a thrown error or a crash, the body limit at
// its edge, the Host and Origin checks with their CORS headers and connection handling, and a
// streamed answer: chunked, written only as fast as the reader takes it, and cut when the
// reader stalls or goes away.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import { ValidationError } from '../../src/errors.js';
import { startServer, type Route, type RequestContext, type RunningServer, type ServerOptions } from '../../src/node/http/server.js';
import { DISCARD_BOUND } from '../../src/node/http/request-body.js';
import { createLogger } from '../../src/node/base/log.js';

const LIMIT = 100;
const seen: RequestContext[] = [];
const logLines: string[] = [];

/** What a streamed route did: how many writes the reader took, and how the stream ended. */
const streamLog = { resolvedWrites: 0, outcome: '' as string };

function streamRoute(chunks: number, size: number, failAfter?: number): Route['handler'] {
  return () => ({
    json: {
      stream: async (write) => {
        streamLog.resolvedWrites = 0;
        streamLog.outcome = 'running';
        try {
          for (let i = 0; i < chunks; i++) {
            if (failAfter !== undefined && i === failAfter) throw new Error('the store failed');
            await write([Buffer.alloc(size, 0x61 + (i % 26))]);
            streamLog.resolvedWrites++;
          }
          streamLog.outcome = 'done';
        } catch (err) {
          streamLog.outcome = `rejected: ${(err as Error).message}`;
          throw err;
        }
      },
    },
  });
}

const routes: Route[] = [
  { method: 'GET', prefix: ['echo'], params: 1, handler: (ctx) => (seen.push(ctx), { json: JSON.stringify({ params: ctx.params, format: ctx.format, q: ctx.query.get('q') }) }) },
  { method: 'GET', prefix: ['rest'], params: 'rest', handler: (ctx) => ({ json: JSON.stringify(ctx.params) }) },
  { method: 'POST', prefix: ['body'], params: 0, handler: (ctx) => ({ json: JSON.stringify({ length: ctx.body.length, last: ctx.body[ctx.body.length - 1] ?? null }), status: 201 }) },
  { method: 'POST', prefix: ['dev', 'thing'], params: 0, handler: () => ({ json: '{"dev":true}' }) },
  { method: 'GET', prefix: ['dev', 'thing'], params: 0, handler: () => ({ json: '{"devget":true}' }) },
  {
    method: 'GET',
    prefix: ['throws'],
    params: 0,
    handler: () => {
      throw new ValidationError('TX_NOT_FOUND', 'No such transaction', { details: 'x' });
    },
  },
  {
    method: 'GET',
    prefix: ['crash'],
    params: 0,
    handler: () => {
      throw new TypeError('boom');
    },
  },
  {
    method: 'GET',
    prefix: ['rejects'],
    params: 0,
    handler: async () => {
      throw new ValidationError('BLOCK_NOT_FOUND', 'Not found');
    },
  },
  { method: 'GET', prefix: ['octets'], params: 0, handler: () => ({ json: { chunks: [Buffer.from('ab'), Buffer.from('cd')], byteLength: 4 }, contentType: 'application/octet-stream' }) },
  { method: 'GET', prefix: ['stream'], params: 0, handler: streamRoute(3, 5) },
  { method: 'GET', prefix: ['big'], params: 0, handler: streamRoute(400, 64 * 1024) },
  { method: 'GET', prefix: ['fails'], params: 0, handler: streamRoute(5, 10, 2) },
  {
    method: 'GET',
    prefix: ['gated'],
    params: 0,
    handler: () => ({
      json: {
        stream: async (write) => {
          streamLog.outcome = 'running';
          try {
            await write([Buffer.from('first')]);
            await gate.promise;
            await write([Buffer.from('second')]);
            streamLog.outcome = 'done';
          } catch (err) {
            streamLog.outcome = `rejected: ${(err as Error).message}`;
            throw err;
          }
        },
      },
    }),
  },
];

/** Holds the gated stream between its two writes until the test opens it. */
function opening(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
let gate = opening();
const staticAsked: string[] = [];

let intercepted = false;
const options: ServerOptions = {
  routes,
  maxRequestBytes: LIMIT,
  logger: createLogger('debug', (line) => logLines.push(line)),
  stallTimeoutMs: 300,
  staticFiles: async (_req, res, pathname) => {
    staticAsked.push(pathname);
    if (pathname === '/page.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('a page');
      return true;
    }
    if (pathname === '/broken') throw new Error('disk gone');
    return false;
  },
  intercept: (req, next, reply) => {
    if (req.url === '/faulted') {
      intercepted = true;
      reply(503, '{"fault":true}');
    } else next();
  },
};

let server: RunningServer;
let port: number;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Keeps connections open, so an answer that closes its connection says so. */
const keepAlive = new http.Agent({ keepAlive: true });

function call(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { host: `localhost:${port}`, ...headers }, agent: keepAlive }, (res) => {
      let text = '';
      res.setEncoding('latin1');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends raw bytes and returns everything the server writes until it closes the connection. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.unreachable(`waited 30 s for ${what}`);
}

test.before(async () => {
  server = await startServer(options, '127.0.0.1', 0);
  port = Number(new URL(server.url).port);
});

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

test.after(async () => {
  keepAlive.destroy();
  await server.close();
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
  assert.ok(intercepted);
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

test('a streamed answer is chunked, without a length, the chunks in order; HEAD sends none', async () => {
  const a = await call('GET', '/api/stream');
  assert.is(a.status, 200);
  assert.is(a.headers['content-length'], undefined);
  assert.is(a.headers['transfer-encoding'], 'chunked');
  assert.is(a.headers['content-type'], 'application/json');
  assert.is(a.body, 'aaaaabbbbbccccc');
  assert.is(streamLog.outcome, 'done');
  streamLog.outcome = 'not started';
  const head = await call('HEAD', '/api/stream');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  assert.is(streamLog.outcome, 'not started', 'nothing is made for a HEAD');
  const withOrigin = await call('GET', '/api/stream', { origin: 'http://localhost:1' });
  assert.is(withOrigin.headers['access-control-allow-origin'], 'http://localhost:1');
});

test('a reader that reads gets all of a large streamed answer; each wait for it leaves no listener behind', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  // A stall limit far longer than the test: a wait's timer left running would still be there.
  const patient = await startServer({ ...options, stallTimeoutMs: 60_000 }, '127.0.0.1', 0);
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  process.on('warning', onWarning);
  try {
    const a = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: Number(new URL(patient.url).port), path: '/api/big', headers: { host: 'localhost' }, agent: false }, (res) => {
          let text = '';
          res.setEncoding('latin1');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    assert.is(a.length, 400 * 64 * 1024);
    assert.is(a.slice(64 * 1024 - 1, 64 * 1024 + 1), 'ab');
    assert.is(streamLog.resolvedWrites, 400);
    await new Promise((r) => setImmediate(r));
    assert.ok(timers() <= before + 2, `stall timers left running: ${timers() - before}`);
  } finally {
    process.off('warning', onWarning);
    await patient.close();
  }
  assert.equal(
    warnings.map((w) => w.message),
    [],
  );
});

test('a reader that stops reading holds back the writer, and after the stall limit is cut and logged', async () => {
  logLines.length = 0;
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write('GET /api/big HTTP/1.1\r\nHost: localhost\r\n\r\n');
  // Take the first bytes, then read nothing more.
  await new Promise<void>((r) => socket.once('data', () => r()));
  socket.pause();
  await until('the stalled reader to be cut', () => streamLog.outcome.startsWith('rejected'));
  assert.is(streamLog.outcome, 'rejected: took nothing for 300 ms');
  assert.ok(streamLog.resolvedWrites < 400, `the writer waited for the reader: ${streamLog.resolvedWrites} of 400 chunks written`);
  await until('the warning', () => logLines.some((l) => l.includes('which took nothing for 300 ms of the answer')));
  assert.match(
    logLines.find((l) => l.includes('took nothing'))!,
    / warn  GET \/api\/big: closed the connection of 127\.0\.0\.1, which took nothing for 300 ms of the answer\n$/,
  );
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.resume();
  await closed;
  socket.destroy();
});

test('a reader that goes away ends the stream quietly', async () => {
  logLines.length = 0;
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write('GET /api/big HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await new Promise<void>((r) => socket.once('data', () => r()));
  socket.destroy();
  await until('the stream to end', () => streamLog.outcome.startsWith('rejected'));
  assert.is(streamLog.outcome, 'rejected: the reader closed the connection');
  await new Promise((r) => setTimeout(r, 100));
  assert.not.ok(
    logLines.some((l) => / (error|warn) /.test(l)),
    logLines.join(''),
  );
});

test('a reader gone between two writes stops the stream at the next write, without waiting for the stall limit', async () => {
  logLines.length = 0;
  gate = opening();
  // A server of its own, so that its count of connections is this reader's alone.
  const own = await startServer(options, '127.0.0.1', 0);
  try {
    const socket = net.connect(Number(new URL(own.url).port), '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /api/gated HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise<void>((r) => socket.once('data', () => r()));
    socket.destroy();
    let open = -1;
    await until('the server to see the reader go', () => {
      own.server.getConnections((_err, n) => (open = n));
      return open === 0;
    });
    assert.is(streamLog.outcome, 'running');
    gate.resolve();
    await until('the stream to end', () => streamLog.outcome !== 'running');
    assert.is(streamLog.outcome, 'rejected: the reader closed the connection');
    assert.not.ok(
      logLines.some((l) => / (error|warn) /.test(l)),
      logLines.join(''),
    );
  } finally {
    gate.resolve();
    await own.close();
  }
});

test('an upload the client abandons mid-body is one warning line', async () => {
  logLines.length = 0;
  const socket = net.connect(port, '127.0.0.1', () => socket.write('POST /api/body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\n0123456789'));
  socket.on('error', () => {});
  await new Promise<void>((r) => socket.once('connect', () => r()));
  await new Promise((r) => setTimeout(r, 50));
  socket.destroy();
  await until('the warning', () => logLines.some((l) => l.includes('upload aborted')));
  assert.match(
    logLines.find((l) => l.includes('upload aborted'))!,
    / warn  POST \/api\/body: upload aborted by the client from 127\.0\.0\.1\n$/,
  );
});

test('a stream that fails midway is logged and the answer cut, never completed', async () => {
  logLines.length = 0;
  const got = await new Promise<{ body: string; complete: boolean }>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/fails', headers: { host: 'localhost' }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d) => (body += d));
      res.on('error', () => {});
      res.on('close', () => resolve({ body, complete: res.complete }));
    });
    req.on('error', () => resolve({ body: '', complete: false }));
  });
  assert.not.ok(got.complete, 'the reader can tell the answer is incomplete');
  assert.is(streamLog.outcome, 'rejected: the store failed');
  assert.ok(
    logLines.some((l) => / error GET \/api\/fails: the answer failed midway: Error: the store failed/.test(l)),
    logLines.join(''),
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
