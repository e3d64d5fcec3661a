// The HTTP front's streamed answers, with routes made for the test: chunked, written only as
// fast as the reader takes it, cut when the reader stalls or goes away, logged when the
// source fails midway; and an upload the client abandons.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import { startServer } from '../../src/node/http/server.js';
import { call, until, options, logLines, streamLog, gate, opening, port, serveDuring } from '../helpers/http-server-fixture.js';

serveDuring(test);

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
  gate.current = opening();
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
    gate.current.resolve();
    await until('the stream to end', () => streamLog.outcome !== 'running');
    assert.is(streamLog.outcome, 'rejected: the reader closed the connection');
    assert.not.ok(
      logLines.some((l) => / (error|warn) /.test(l)),
      logLines.join(''),
    );
  } finally {
    gate.current.resolve();
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

test.run();
