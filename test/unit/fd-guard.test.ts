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
  const guard = guardDescriptors(server, createLogger('warn', (line) => lines.push(line)), 20);
  for (let i = 0; i < 1000; i++) {
    const socket = new FakeSocket();
    server.emit('connection', socket);
    socket.emit('close');
  }
  assert.is(guard.open, 0);
  assert.equal(lines, []);
  guard.close();
});

test('near the limit the oldest idle connections are closed, busy ones kept, and it is logged once', () => {
  const server = new EventEmitter() as unknown as Server;
  const lines: string[] = [];
  const guard = guardDescriptors(server, createLogger('warn', (line) => lines.push(line)), 20);
  const sockets = Array.from({ length: 16 }, () => new FakeSocket());
  // The first one has a request in flight.
  server.emit('connection', sockets[0]);
  const res = new EventEmitter();
  server.emit('request', { socket: sockets[0] }, res);
  for (const s of sockets.slice(1)) server.emit('connection', s);
  assert.not.ok(sockets[0].destroyed, 'busy');
  assert.ok(sockets[1].destroyed && sockets[2].destroyed, 'the oldest idle ones');
  assert.not.ok(sockets[15].destroyed, 'the newest stays');
  assert.is(guard.open, 12);
  assert.is(lines.length, 1);
  assert.match(lines[0], /near the limit of 20 open files \(ulimit -n\): closed 4 idle ones/);
  guard.close();
});

test.run();
