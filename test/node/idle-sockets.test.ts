// Idle and slow clients cannot hold the node's sockets: connections that send nothing, stop
// in the middle of their headers or body, or idle after an answer are closed by the header,
// request and keep-alive time limits, with a 408 JSON answer where a request had begun,
// while the node keeps answering everyone else.
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_HTTP_TIMEOUTS } from '../../src/node/http/guards.js';
import { createLogger } from '../../src/node/base/log.js';
import { startTestNode } from '../helpers/node-helpers.js';

const IDLE = 500;
const SHORT = { headers: 1_000, request: 1_500, keepAlive: 500, checkEvery: 200 };

interface Watched {
  socket: net.Socket;
  received: string;
  closedAt?: number;
}

function open(port: number, send?: string): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const w: Watched = { socket: net.connect(port, '127.0.0.1', () => resolve(w)), received: '' };
    w.socket.on('data', (d) => (w.received += d.toString('latin1')));
    w.socket.on('close', () => (w.closedAt = Date.now()));
    w.socket.on('error', () => {});
    w.socket.once('error', reject);
    if (send) w.socket.write(send);
  });
}

test('the production limits close an idle socket within 30 s', () => {
  const t = DEFAULT_HTTP_TIMEOUTS;
  assert.ok(t.headers + t.checkEvery <= 30_000 && t.request + t.checkEvery <= 30_000, JSON.stringify(t));
  assert.ok(t.keepAlive <= t.headers, 'an idle kept-alive socket goes first');
  assert.ok(t.headers < t.request);
});

test(`${IDLE} idle sockets, half-sent headers and bodies are all closed; the node answers meanwhile`, async () => {
  const node = await startTestNode({}, { httpTimeouts: SHORT });
  const port = Number(new URL(node.url).port);
  try {
    const silent = await Promise.all(Array.from({ length: IDLE }, () => open(port)));
    const halfHeaders = await open(port, 'GET /api/node/status HTTP/1.1\r\nHost: localhost\r\n');
    const halfBody = await open(port, 'POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tx":');
    const keptAlive = await open(port, 'GET /api/node/status HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const everyone = [...silent, halfHeaders, halfBody, keptAlive];

    let answered = 0;
    while (everyone.some((w) => w.closedAt === undefined)) {
      // Each round waits 100 ms: 300 rounds are 30 s or more, far past every limit in SHORT.
      assert.ok(answered < 300, `${everyone.filter((w) => !w.closedAt).length} sockets still open after ${answered} rounds`);
      const res = await fetch(`${node.url}/api/node/status`);
      assert.is(res.status, 200);
      answered++;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(answered >= 3, 'the node answered while the sockets waited');

    for (const w of [halfHeaders, halfBody]) {
      assert.match(w.received, /^HTTP\/1\.1 408 /, w.received);
      const body = JSON.parse(w.received.slice(w.received.indexOf('\r\n\r\n') + 4));
      assert.is(body.error, 'REQUEST_TIMEOUT');
      assert.is(body.code, 10014);
    }
    assert.match(keptAlive.received, /^HTTP\/1\.1 200 /, 'the kept-alive socket got its answer before it was closed');
    // nothing a silent socket receives is anything but a JSON 408
    for (const w of silent) if (w.received) assert.match(w.received, /^HTTP\/1\.1 408 [^]*"REQUEST_TIMEOUT"/);
  } finally {
    await node.close();
  }
});

test('an upload the client abandons is one warning line in the log, not a stack; the node goes on', async () => {
  const lines: string[] = [];
  const node = await startTestNode({}, { logger: createLogger('info', (line) => lines.push(line)) });
  const port = Number(new URL(node.url).port);
  try {
    const w = await open(port, 'POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tx":"');
    await new Promise((r) => setTimeout(r, 50));
    w.socket.destroy();
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('aborted')); i++) await new Promise((r) => setTimeout(r, 10));
    const aborted = lines.filter((l) => l.includes('aborted'));
    assert.is(aborted.length, 1, lines.join(''));
    assert.match(aborted[0], /warn +POST \/api\/tx\/new: upload aborted by the client from 127\.0\.0\.1\n$/);
    assert.not.ok(
      lines.some((l) => /\n\s+at /.test(l)),
      'no stack trace',
    );
    assert.is((await fetch(`${node.url}/api/node/status`)).status, 200);
  } finally {
    await node.close();
  }
});

test.run();
