// A scripted HTTP server that plays a hostile node for the client's tests: it records every
// request and every socket the client closed (test/node/client-hostile-node.test.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { encodeTxid } from '../../src/codec/txid.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Hostile {
  url: string;
  /** Every request as `METHOD path`. */
  requests: string[];
  /** Sockets the server saw closed by the client. */
  closed: () => number;
  close(): Promise<void>;
}

export async function hostile(handler: Handler): Promise<Hostile> {
  const requests: string[] = [];
  let closed = 0;
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.on('close', () => (closed += 1));
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closed: () => closed,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export const sendJson = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

export const ADDR = addressToText(makeAddress({ group: 10, block: 1, wallet: 7 }));
export const OTHER = addressToText(makeAddress({ group: 10, block: 1, wallet: 8 }));
export const TXID = encodeTxid({ chain: 1, height: 5, timeNs: 1_700_000_000_000_000_000n, node: 'tpkit' });
export const KEY = '11'.repeat(32);

/** Resolves when `check` holds, polling; fails the test after `ms` instead of hanging it. */
export async function eventually(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
