// The live-stream hub on a plain HTTP server with a stand-in for the chain's few members it
// uses, and a raw client that collects every message: the hub's own tests, without a node.
import * as assert from 'uvu/assert';
import http from 'node:http';
import { WebSocket } from 'ws';
import { attachWsHub } from '../../src/node/api/ws-hub.js';
import { createLogger } from '../../src/node/base/log.js';
import type { Chain } from '../../src/node/ledger/chain.js';

/** The chain as the hub sees it: listeners it can call, wallets, and statuses by txid. */
export function standIn() {
  const blockListeners = new Set<(block: unknown) => void>();
  const resetListeners = new Set<(r: unknown) => void>();
  const chain = {
    wallets: new Map(),
    onBlock: (l: (block: unknown) => void) => (blockListeners.add(l), () => blockListeners.delete(l)),
    onReset: (l: (r: unknown) => void) => (resetListeners.add(l), () => resetListeners.delete(l)),
    statusJson: async (txid: string) => (txid === 'settled-1' ? '{"ok":true,"res":"ok"}' : null),
  };
  return { chain: chain as unknown as Chain, blockListeners, resetListeners };
}

export interface HubClient {
  socket: WebSocket;
  messages: Record<string, unknown>[];
  next(pred: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

export async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.unreachable(`waited 30 s for ${what}`);
}

export function open(port: number, path = '/api/ws'): Promise<HubClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { host: `localhost:${port}` } });
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (d) => messages.push(JSON.parse(String(d))));
    const client: HubClient = {
      socket,
      messages,
      async next(pred) {
        await until('a message', () => messages.some(pred));
        return messages.find(pred)!;
      },
    };
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      // The hub refuses in JSON; ws itself, once the hub is closed, in plain text.
      const parsed = () => (res.headers['content-type']?.includes('json') ? JSON.parse(body) : body);
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body: parsed() })));
    });
  });
}

export async function serve(options?: Parameters<typeof attachWsHub>[3], logger = createLogger('silent')) {
  const server = http.createServer((_req, res) => res.end());
  const stand = standIn();
  const hub = attachWsHub(server, stand.chain, logger, options);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const stop = async () => {
    hub.close();
    await new Promise((r) => server.close(r));
  };
  return { port, hub, stand, stop, server };
}

export const closed = (c: HubClient) => new Promise<number>((r) => (c.socket.readyState === WebSocket.CLOSED ? r(-1) : c.socket.once('close', (code) => r(code))));

/** Runs `run` against a hub of its own, stopped afterwards whatever happens. */
export async function withHub(run: (s: Hub) => Promise<void>, options?: Parameters<typeof attachWsHub>[3], logger?: ReturnType<typeof createLogger>): Promise<void> {
  const s = await serve(options, logger);
  try {
    await run(s);
  } finally {
    await s.stop();
  }
}

export type Hub = Awaited<ReturnType<typeof serve>>;
