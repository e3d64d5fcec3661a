// The live update stream at /api/ws, in the reference node's protocol: a client sends
// `{"sub":"block"}`, `{"sub":"blockstat"}`, `{"sub":"tx"[,"txid":T]}` or
// `{"sub":"addr","addr":A,"get":"tx,bal"}` and is answered `{"ok":true,"subscribe":[…],
// "moresubs":N}`; then each committed block pushes `{"block":…}`, `{"blockstat":…}`,
// `{"tx":T,"res":…}`, `{"address":A,"txs":…}` and `{"address":A,"balance":…}`. Nothing is
// built for a block that no one listens to, so the stream costs the node nothing when idle.

import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { bytesToHex } from '../bytes.js';
import { addressToText, parseAddress } from '../codec/address.js';
import { ValidationError, TpkitError } from '../errors.js';
import { errorResponse } from './api-errors.js';
import type { Chain, CommittedBlock } from './chain.js';
import { rawErrorResponse } from './http-guards.js';
import { toJson, type JsonValue } from './json.js';
import type { Logger } from './log.js';
import type { NodeTx } from './node-tx.js';
import { fullBlock } from './routes.js';
import { storedWalletView, txView, walletInfo } from './views.js';

/** Subscriptions one connection may hold, as the reference allows. */
export const MAX_SUBSCRIPTIONS = 100;
/** Largest message a client may send. */
const MAX_MESSAGE_BYTES = 4096;
const PATHS = new Set(['/api/ws', '/ws']);

type Subscription =
  | { kind: 'block' }
  | { kind: 'blockstat' }
  | { kind: 'tx'; txid?: string }
  | { kind: 'addr'; address: string; tx: boolean; bal: boolean };

interface Client {
  socket: WebSocket;
  subs: Subscription[];
}

function invalid(details: string): ValidationError {
  return new ValidationError('SUBSCRIPTION_INVALID', 'Invalid subscription', { details });
}

function parseSubscription(text: string): { sub: Subscription; id?: JsonValue } {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    throw invalid('expected JSON such as {"sub":"block"}');
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) throw invalid('expected a JSON object such as {"sub":"block"}');
  const m = msg as Record<string, unknown>;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  switch (m.sub) {
    case 'block':
    case 'blockstat':
      return { sub: { kind: m.sub }, id };
    case 'tx':
      if (m.txid !== undefined && typeof m.txid !== 'string') throw invalid('"txid" must be a string');
      return { sub: { kind: 'tx', txid: m.txid as string | undefined }, id };
    case 'addr': {
      if (typeof m.addr !== 'string') throw invalid('"addr" must be an address, e.g. {"sub":"addr","addr":"AA…","get":"tx,bal"}');
      const address = bytesToHex(parseAddress(m.addr));
      const get = m.get === undefined ? ['tx', 'bal'] : typeof m.get === 'string' ? m.get.split(/[\s,]+/).filter(Boolean) : null;
      if (!get || get.length === 0 || get.some((g) => g !== 'tx' && g !== 'bal')) throw invalid('"get" lists "tx" and/or "bal", e.g. "tx,bal"');
      return { sub: { kind: 'addr', address, tx: get.includes('tx'), bal: get.includes('bal') }, id };
    }
    default:
      throw invalid(`"sub" must be one of block, blockstat, tx, addr; got ${JSON.stringify(m.sub)}`);
  }
}

/** The reference's answer to a subscription: what was subscribed, in its list form. */
function subscribedAs(sub: Subscription): JsonValue {
  switch (sub.kind) {
    case 'block':
      return ['new_block', 'full', 'json'];
    case 'blockstat':
      return ['new_block', 'stat', 'json'];
    case 'tx':
      return ['tx', sub.txid ?? 'any'];
    case 'addr':
      return ['address', addressToText(Buffer.from(sub.address, 'hex')), [...(sub.tx ? ['tx'] : []), ...(sub.bal ? ['bal'] : [])]];
  }
}

function involves(tx: NodeTx, address: string, registered: string | undefined): boolean {
  const b = tx.body;
  if (b.kind === 'register') return registered !== undefined && bytesToHex(parseAddress(registered)) === address;
  if (bytesToHex(b.from) === address) return true;
  return b.kind === 'generic' && bytesToHex(b.to) === address;
}

export interface WsHub {
  /** Open connections (tests, the node's status). */
  readonly connections: number;
  close(): void;
}

export function attachWsHub(server: http.Server, chain: Chain, logger: Logger): WsHub {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const clients = new Set<Client>();

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0];
    if (!PATHS.has(path)) {
      socket.end(rawErrorResponse(new ValidationError('ROUTE_NOT_FOUND', 'No such endpoint', { details: `no WebSocket at ${path}; use /api/ws` })));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  });

  const push = (client: Client, text: string) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(text);
  };
  const send = (client: Client, body: { [key: string]: JsonValue }) => push(client, toJson(body));
  const sendError = (client: Client, err: unknown, id?: JsonValue) => {
    const { body } = errorResponse(err);
    send(client, id === undefined ? body : { ...body, id });
  };

  function accept(socket: WebSocket): void {
    const client: Client = { socket, subs: [] };
    clients.add(client);
    socket.on('close', () => clients.delete(client));
    socket.on('error', (err) => logger.debug(`ws: ${err.message}`));
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? '' : data.toString();
      if (text === 'ping') return; // the reference's keep-alive
      let parsed: { sub: Subscription; id?: JsonValue };
      try {
        parsed = parseSubscription(text);
      } catch (err) {
        sendError(client, err);
        return;
      }
      if (client.subs.length >= MAX_SUBSCRIPTIONS) {
        sendError(client, new ValidationError('SUBSCRIPTION_LIMIT', 'Subscription limit reached', { details: `${MAX_SUBSCRIPTIONS} per connection; open another connection` }), parsed.id);
        return;
      }
      subscribe(client, parsed.sub, parsed.id).catch((err) => sendError(client, err, parsed.id));
    });
  }

  async function subscribe(client: Client, sub: Subscription, id: JsonValue | undefined): Promise<void> {
    // A transaction already settled is answered at once; an unknown one is an error.
    const settled = sub.kind === 'tx' && sub.txid !== undefined ? await chain.statusJson(sub.txid) : null;
    client.subs.push(sub);
    const ack: { [key: string]: JsonValue } = { ok: true, subscribe: subscribedAs(sub), moresubs: MAX_SUBSCRIPTIONS - client.subs.length };
    send(client, id === undefined ? ack : { ...ack, id });
    if (sub.kind === 'tx' && sub.txid !== undefined && settled !== null) {
      push(client, `{"tx":${JSON.stringify(sub.txid)},"res":${settled}}`);
      client.subs.splice(client.subs.indexOf(sub), 1);
    }
  }

  /** Pushes one block to every subscriber; each message is built once, only if someone wants it. */
  async function publish(block: CommittedBlock): Promise<void> {
    if (clients.size === 0) return;
    const { record, txs, statuses } = block;
    let full: string | undefined;
    let stat: string | undefined;
    const txIndex = new Map<string, number>();
    txs.forEach((tx, i) => txIndex.set(tx.txid, i));
    for (const client of clients) {
      for (const sub of [...client.subs]) {
        if (sub.kind === 'block') {
          full ??= toJson({ block: await fullBlock(chain, record, undefined, new Map(txs.map((tx) => [tx.txid, tx.raw]))) });
          push(client, full);
        } else if (sub.kind === 'blockstat') {
          stat ??= toJson({
            blockstat: { hash: record.hash, height: record.header.height, parent: record.header.parent, time: record.time, txs: record.txs.length, failed: Object.keys(record.failed).length },
          });
          push(client, stat);
        } else if (sub.kind === 'tx') {
          if (sub.txid === undefined) {
            for (let i = 0; i < txs.length; i++) push(client, `{"tx":${JSON.stringify(txs[i].txid)},"res":${statuses[i]}}`);
          } else if (txIndex.has(sub.txid)) {
            push(client, `{"tx":${JSON.stringify(sub.txid)},"res":${statuses[txIndex.get(sub.txid)!]}}`);
            client.subs.splice(client.subs.indexOf(sub), 1); // a transaction settles once
          }
        } else {
          const upper = sub.address.toUpperCase();
          if (!(upper in record.bals)) continue;
          const address = addressToText(Buffer.from(sub.address, 'hex'));
          if (sub.bal) {
            const w = chain.wallets.get(sub.address);
            send(client, { address, balance: w ? walletInfo(w, null) : storedWalletView(record.bals[upper]) });
          }
          if (sub.tx) {
            const related: { [key: string]: JsonValue } = {};
            for (const tx of txs) if (involves(tx, sub.address, record.registered[tx.txid])) related[tx.txid] = txView(tx.raw, record.registered[tx.txid]);
            if (Object.keys(related).length > 0) send(client, { address, txs: related });
          }
        }
      }
    }
  }

  const stop = chain.onBlock((block) => {
    publish(block).catch((err) => logger.error(`ws publish failed: ${err instanceof TpkitError ? err.message : (err as Error).stack}`));
  });

  // A revert, a rollback or a clock move: every subscriber's view is stale; each is told once.
  const stopResets = chain.onReset((reset) => {
    const text = toJson({ reset: { ...reset } });
    for (const client of clients) if (client.subs.length > 0) push(client, text);
  });

  return {
    get connections() {
      return clients.size;
    },
    close() {
      stop();
      stopResets();
      for (const c of clients) c.socket.terminate();
      wss.close();
    },
  };
}
