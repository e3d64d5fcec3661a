// The descriptor guard counts what is open now: connections that closed give their place back,
// so a node that served many short connections never starts closing idle ones for nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:net';
import { guardDescriptors } from '../../src/node/http/fd-guard.js';
import { createLogger } from '../../src/node/base/log.js';

class FakeSocket extends EventEmitter {
  destroyed = false;
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

test('1000 connections opened and closed one by one under a limit of 20: none closed by the guard, nothing logged, none counted', () => {
  const server = new EventEmitter() as unknown as Server;
  const lines: string[] = [];
  const guard = guardDescriptors(
    server,
    createLogger('warn', (line) => lines.push(line)),
    { limit: 20, inUse: 0 },
  );
  for (let i = 0; i < 1000; i++) {
    const socket = new FakeSocket();
    server.emit('connection', socket);
    socket.emit('close');
  }
  assert.is(guard.open, 0);
  assert.equal(lines, []);
  guard.close();
});

test('near the limit the oldest idle connections are closed, busy ones and those not yet a second old kept, and it is logged once', () => {
  const server = new EventEmitter() as unknown as Server;
  const lines: string[] = [];
  let now = 0;
  // 100 files, 10 kept in reserve: 90 connections, idle ones closed from 72 down to 54.
  const guard = guardDescriptors(
    server,
    createLogger('warn', (line) => lines.push(line)),
    { limit: 100, inUse: 0, clock: () => now },
  );
  const sockets = Array.from({ length: 73 }, () => new FakeSocket());
  // The first one has a request in flight.
  server.emit('connection', sockets[0]);
  const res = new EventEmitter();
  server.emit('request', { socket: sockets[0] }, res);
  for (const s of sockets.slice(1, 71)) server.emit('connection', s);
  now = 999;
  server.emit('connection', sockets[71]);
  assert.ok(
    sockets.every((s) => !s.destroyed),
    'at 72 open, none has been idle for a second',
  );
  assert.equal(lines, []);
  now = 1500;
  server.emit('connection', sockets[72]);
  assert.not.ok(sockets[0].destroyed, 'busy');
  assert.ok(
    sockets.slice(1, 20).every((s) => s.destroyed),
    'the oldest idle ones',
  );
  assert.ok(
    sockets.slice(20).every((s) => !s.destroyed),
    'the newer ones stay',
  );
  assert.is(guard.open, 54);
  assert.is(lines.length, 1);
  assert.match(lines[0], /54 connections open, near the limit of 100 open files \(ulimit -n\): closed 19 idle ones/);
  // The busy one's answer ends: it becomes idle a second later, not at once.
  res.emit('close');
  for (let i = 0; i < 18; i++) server.emit('connection', new FakeSocket());
  assert.not.ok(sockets[0].destroyed, 'idle for less than a second');
  assert.ok(sockets[37].destroyed && !sockets[38].destroyed, 'older idle ones went instead');
  guard.close();
});

test('beyond its budget, below the limit, the server refuses connections itself: each refusal makes room, and a burst is logged once', () => {
  const server = new EventEmitter() as unknown as Server;
  const lines: string[] = [];
  let now = 0;
  const guard = guardDescriptors(
    server,
    createLogger('warn', (line) => lines.push(line)),
    { limit: 100, inUse: 0, clock: () => now },
  );
  assert.is(server.maxConnections, 90, 'a tenth of the descriptors stays for the store, the threads and modules');
  const sockets = Array.from({ length: 90 }, () => new FakeSocket());
  for (const s of sockets) server.emit('connection', s);
  for (const s of sockets.slice(0, 85)) server.emit('request', { socket: s }, new EventEmitter());
  for (let i = 0; i < 5; i++) server.emit('drop', { remoteAddress: '127.0.0.1' });
  assert.is(lines.length, 1, 'rate-limited');
  assert.match(lines[0], /refused 1 connection: 90 open \(85 busy\), the most this node takes with 100 open files allowed \(ulimit -n\)/);
  assert.ok(
    sockets.every((s) => !s.destroyed),
    'the idle five are not a second old',
  );
  now = 2000;
  server.emit('drop', {});
  assert.ok(
    sockets.slice(85).every((s) => s.destroyed),
    'a refusal made room: the idle ones closed',
  );
  assert.ok(
    sockets.slice(0, 85).every((s) => !s.destroyed),
    'busy ones kept',
  );
  assert.is(lines.length, 2);
  assert.match(lines[1], /85 connections open, near the limit of 100 open files \(ulimit -n\): closed 5 idle ones/);
  guard.close();
  now = 20_000;
  server.emit('drop', {});
  assert.is(lines.length, 2, 'no longer listening after close');
});

test.run();
