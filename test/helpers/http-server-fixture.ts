// The HTTP front with routes made for its tests: echo, rest, body, dev, thrown and crashing
// handlers, octets, and streamed answers (small, large, failing, gated between two writes),
// a debug logger whose lines the tests read, and the calls that reach it over HTTP or raw TCP.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import { ValidationError } from '../../src/errors.js';
import { startServer, type Route, type RunningServer, type ServerOptions } from '../../src/node/http/server.js';
import { createLogger } from '../../src/node/base/log.js';

export const LIMIT = 100;
export const logLines: string[] = [];

/** What a streamed route did: how many writes the reader took, and how the stream ended. */
export const streamLog = { resolvedWrites: 0, outcome: '' as string };

export function streamRoute(chunks: number, size: number, failAfter?: number): Route['handler'] {
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

export const routes: Route[] = [
  { method: 'GET', prefix: ['echo'], params: 1, handler: (ctx) => ({ json: JSON.stringify({ params: ctx.params, format: ctx.format, q: ctx.query.get('q') }) }) },
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
            await gate.current.promise;
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
export function opening(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
/** The gated stream's gate; a test that needs it closed sets a fresh one. */
export const gate = { current: opening() };
export const staticAsked: string[] = [];

/** Whether the interceptor answered a request. */
export const intercepted = { seen: false };
export const options: ServerOptions = {
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
      intercepted.seen = true;
      reply(503, '{"fault":true}');
    } else next();
  },
};

/** The server of the suite and its port, set when it starts; call() and raw() reach it. */
export let server: RunningServer;
export let port = 0;

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Keeps connections open, so an answer that closes its connection says so. */
export const keepAlive = new http.Agent({ keepAlive: true });

export function call(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
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
export function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

export async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.unreachable(`waited 30 s for ${what}`);
}

/** Serves the routes on a free port for the suite: before it starts, after it closes. */
export function serveDuring(suite: Test): void {
  suite.before(async () => {
    server = await startServer(options, '127.0.0.1', 0);
    port = Number(new URL(server.url).port);
  });
  suite.after(async () => {
    keepAlive.destroy();
    await server.close();
  });
}
