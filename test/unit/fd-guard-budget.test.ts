// The descriptor guard's budget at its edges: the reserve is a tenth of the limit but never
// under 8, the budget never under 2; idle connections are closed from 80 % of it down to 60 %;
// a live stream (an upgraded connection) is never closed for room; the warnings come at most
// once in 10 s; over TLS the connections are the secure ones; and close() stops it all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:net';
import { guardDescriptors, openDescriptors, openFileLimit } from '../../src/node/http/fd-guard.js';
import { createLogger } from '../../src/node/base/log.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

function setup(limit: number, inUse = 0) {
  const server = new EventEmitter() as unknown as Server;
  const lines: string[] = [];
  let now = 0;
  const guard = guardDescriptors(
    server,
    createLogger('warn', (line) => lines.push(line)),
    { limit, inUse, clock: () => now },
  );
  const open = (n: number) =>
    Array.from({ length: n }, () => {
      const s = new FakeSocket();
      server.emit('connection', s);
      return s;
    });
  return { server, lines, guard, open, at: (t: number) => (now = t) };
}

test('the budget: the limit less what is open and a reserve of a tenth, at least 8, and at least 2 in all', () => {
  assert.is(setup(100).server.maxConnections, 90);
  assert.is(setup(200, 15).server.maxConnections, 165, 'a tenth of 200 is 20');
  assert.is(setup(101).server.maxConnections, 90, 'a tenth of 101 rounds up to 11');
  assert.is(setup(50).server.maxConnections, 42, 'a tenth of 50 is under 8: 8 are kept');
  assert.is(setup(80).server.maxConnections, 72, 'a tenth of 80 is exactly 8');
  assert.is(setup(12, 1).server.maxConnections, 3);
  assert.is(setup(12, 2).server.maxConnections, 2);
  assert.is(setup(12, 5).server.maxConnections, 2, 'never below 2');
});

test('idle connections are closed only once 80 % of the budget is open, and down to 60 %', () => {
  // limit 110: reserve 11, budget 99; high 79, low 59.
  const s = setup(110);
  const first = s.open(78);
  s.at(5000);
  assert.ok(
    first.every((x) => !x.destroyed),
    '78 open, below 79',
  );
  assert.is(s.guard.open, 78);
  s.open(1);
  assert.is(s.guard.open, 59, 'at 79 the oldest idle ones go, down to 59');
  assert.ok(first.slice(0, 20).every((x) => x.destroyed));
  assert.ok(first.slice(20).every((x) => !x.destroyed));
  s.guard.close();
});

test('a live stream is never closed for room; a connection whose answer ended is idle again a second later', () => {
  const s = setup(110);
  const sockets = s.open(70);
  for (const x of sockets.slice(0, 30)) s.server.emit('upgrade', { socket: x });
  const res = new EventEmitter();
  s.server.emit('request', { socket: sockets[30] }, res);
  s.at(1000);
  s.open(9);
  assert.ok(
    sockets.slice(0, 31).every((x) => !x.destroyed),
    'upgraded and busy ones kept',
  );
  assert.ok(
    sockets.slice(31, 51).every((x) => x.destroyed),
    'the next twenty idle ones closed',
  );
  res.emit('close');
  s.at(1999);
  s.open(20);
  assert.not.ok(sockets[30].destroyed, 'idle for 999 ms');
  s.at(3000);
  s.open(19);
  assert.ok(sockets[30].destroyed, 'idle for 2 s: the oldest idle one');
  // A request on a connection the guard does not know is ignored.
  s.server.emit('request', { socket: new FakeSocket() }, new EventEmitter());
  s.server.emit('upgrade', { socket: new FakeSocket() });
  s.guard.close();
});

test('the room warning comes at most once in 10 s, and again from 10 s on', () => {
  const s = setup(110);
  s.open(78);
  s.at(10_000);
  s.open(1);
  assert.is(s.lines.length, 1);
  s.at(19_999);
  s.open(20);
  assert.is(s.guard.open, 59);
  assert.is(s.lines.length, 1, 'closed more within 10 s: no second line');
  s.at(20_000);
  s.open(20);
  assert.is(s.lines.length, 2, '10 s after the first');
  assert.match(
    s.lines[1],
    / warn  59 connections open, near the limit of 110 open files \(ulimit -n\): closed 20 idle ones to make room\. Raise it with ulimit -n, or find the client holding them\n$/,
  );
  s.guard.close();
});

test('refusals are counted between warnings, and the count starts again after each', () => {
  const s = setup(110);
  const busy = s.open(3);
  for (const x of busy) s.server.emit('request', { socket: x }, new EventEmitter());
  s.server.emit('drop', {});
  s.server.emit('drop', {});
  s.server.emit('drop', {});
  s.at(9_999);
  s.server.emit('drop', {});
  assert.is(s.lines.length, 1);
  assert.match(s.lines[0], /refused 1 connection: 3 open \(3 busy\)/);
  s.at(10_000);
  s.server.emit('drop', {});
  assert.is(s.lines.length, 2);
  assert.match(s.lines[1], /refused 4 connections: 3 open \(3 busy\), the most this node takes with 110 open files allowed/);
  s.guard.close();
});

test('over TLS the guard counts the secure connections', () => {
  const server = Object.assign(new EventEmitter(), { setSecureContext() {} }) as unknown as Server;
  const guard = guardDescriptors(server, createLogger('silent'), { limit: 100, inUse: 0 });
  server.emit('connection', new FakeSocket());
  assert.is(guard.open, 0, 'the raw TCP socket is not the one requests arrive on');
  const secure = new FakeSocket();
  server.emit('secureConnection', secure);
  assert.is(guard.open, 1);
  secure.destroy();
  assert.is(guard.open, 0);
  guard.close();
  assert.is(server.listenerCount('secureConnection'), 0);
});

test('close() stops counting connections, requests, upgrades and refusals', () => {
  const s = setup(110);
  const before = s.open(2);
  s.guard.close();
  for (const event of ['connection', 'request', 'upgrade', 'drop']) assert.is(s.server.listenerCount(event), 0, event);
  s.open(200);
  assert.is(s.guard.open, 2, 'new connections are not counted');
  s.at(60_000);
  s.server.emit('drop', {});
  assert.equal(s.lines, []);
  assert.ok(before.every((x) => !x.destroyed));
});

test('the limit and the open descriptors are read from /proc', () => {
  const shell = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  assert.is(openFileLimit(), shell, 'the soft limit a child inherits');
  const n = openDescriptors();
  assert.ok(n >= 3, `stdio at least, got ${n}`);
  assert.ok(n < shell);
});

test.run();
