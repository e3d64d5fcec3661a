// The live update stream at /api/ws, in the reference node's protocol: a client sends
// `{"sub":"block"}`, `{"sub":"blockstat"}`, `{"sub":"tx"[,"txid":T]}` or
// `{"sub":"addr","addr":A,"get":"tx,bal"}` and is answered `{"ok":true,"subscribe":[…],
// "moresubs":N}`; then each committed block pushes `{"block":…}`, `{"blockstat":…}`,
// `{"tx":T,"res":…}`, `{"address":A,"txs":…}` and `{"address":A,"balance":…}`. Nothing is
// built for a block that no one listens to, so the stream costs the node nothing when idle.
//
// Bounded under abuse: an upgrade passes the same Host and Origin checks as every request;
// connections are capped in all and per remote address; identical subscriptions on one
// connection are one; each message is built once per block and shared by every subscriber;
// a client whose unsent data passes a bound (it reads too slowly, or not at all) is closed.

import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { bytesToHex } from '../../bytes.js';
import { addressToText, parseAddress } from '../../codec/address.js';
import { ValidationError, TpkitError } from '../../errors.js';
import { checkUpgrade, LOCAL_ONLY, type AccessPolicy } from '../http/access-policy.js';
import { errorResponse } from '../http/api-errors.js';
import { DEFAULT_WS_LIMITS } from '../config/config.js';
import type { Chain, CommittedBlock } from '../ledger/chain.js';
import { rawErrorResponse } from '../http/guards.js';
import { toJson, type JsonValue } from '../base/json.js';
import type { Logger } from '../base/log.js';
import type { NodeTx } from '../ledger/node-tx.js';
import { writeFullBlock } from './full-block.js';
import { JsonBytesWriter, toJsonChunks, type JsonChunks } from '../base/json-bytes.js';
import { storedWalletView, txView, walletInfo } from './views.js';

/** Subscriptions one connection may hold, as the reference allows. */
export const MAX_SUBSCRIPTIONS = 100;
/** Largest message a client may send. */
const MAX_MESSAGE_BYTES = 4096;
const PATHS = new Set(['/api/ws', '/ws']);

type Subscription = { kind: 'block' } | { kind: 'blockstat' } | { kind: 'tx'; txid?: string } | { kind: 'addr'; address: string; tx: boolean; bal: boolean };

interface Client {
  socket: WebSocket;
  /** By subscriptionKey: an identical subscription is the same entry. */
  subs: Map<string, Subscription>;
  address: string;
  /** Bytes queued for this client by the latest block: shared with the other readers, and not yet late. */
  latestBlockBytes: number;
}

export interface WsLimits {
  /** Open connections in all. */
  connections: number;
  /** Open connections from one remote address (every page on this machine is 127.0.0.1). */
  connectionsPerAddress: number;
  /** Unsent bytes a connection may hold before it is closed as too slow. */
  bufferedBytes: number;
}

/** Close code for a client that falls behind (1008: policy violation). */
export const CLOSE_TOO_SLOW = 1008;
/** How long a closed slow client gets to take the close frame before its socket is destroyed. */
const CLOSE_GRACE_MS = 1000;

export interface WsHubOptions {
  access?: AccessPolicy;
  limits?: Partial<WsLimits>;
}

/** One key per distinct subscription: what it delivers, not how it was written. */
function subscriptionKey(sub: Subscription): string {
  switch (sub.kind) {
    case 'block':
    case 'blockstat':
      return sub.kind;
    case 'tx':
      return `tx:${sub.txid ?? '*'}`;
    case 'addr':
      return `addr:${sub.address}:${sub.tx ? 't' : ''}${sub.bal ? 'b' : ''}`;
  }
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
  if (b.kind === 'ether') return false;
  if (bytesToHex(b.from) === address) return true;
  return b.kind === 'generic' && bytesToHex(b.to) === address;
}

export interface WsHub {
  /** Open connections (tests, the node's status). */
  readonly connections: number;
  /** Remote addresses holding a connection: each is counted against the per-address limit. */
  readonly addresses: number;
  /** Readers dropped for being too slow whose sockets have not closed yet. */
  readonly closing: number;
  close(): void;
}

export function attachWsHub(server: http.Server, chain: Chain, logger: Logger, options: WsHubOptions = {}): WsHub {
  const access = options.access ?? LOCAL_ONLY;
  const limits = { ...DEFAULT_WS_LIMITS, ...options.limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const clients = new Set<Client>();
  /** Closed as too slow, waiting for the close frame to get out. */
  const dropped = new Set<WebSocket>();
  const perAddress = new Map<string, number>();

  const refuse = (socket: Duplex, err: ValidationError) => socket.end(rawErrorResponse(err));

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0];
    const denied = checkUpgrade(req, access);
    if (denied) {
      refuse(socket, denied);
      return;
    }
    if (!PATHS.has(path)) {
      refuse(socket, new ValidationError('ROUTE_NOT_FOUND', 'No such endpoint', { details: `no WebSocket at ${path}; use /api/ws` }));
      return;
    }
    const address = req.socket.remoteAddress ?? '?';
    if (clients.size >= limits.connections) {
      refuse(
        socket,
        new ValidationError('WS_CONNECTION_LIMIT', 'Too many live-stream connections', { details: `the node holds ${limits.connections}, its limit (--ws-max-connections); close one or retry later` }),
      );
      return;
    }
    if ((perAddress.get(address) ?? 0) >= limits.connectionsPerAddress) {
      refuse(
        socket,
        new ValidationError('WS_CONNECTION_LIMIT', 'Too many live-stream connections from this address', {
          details: `${address} holds ${limits.connectionsPerAddress}, the limit per address (--ws-max-per-address); one connection carries up to ${MAX_SUBSCRIPTIONS} subscriptions`,
        }),
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, address));
  });

  /** Drops a client that cannot keep up; what it already holds is bounded by the limit plus one message. */
  const tooSlow = (client: Client) => {
    forget(client);
    logger.warn(`ws: closed a connection from ${client.address} that fell behind (${client.socket.bufferedAmount} bytes unsent, limit ${limits.bufferedBytes})`);
    client.socket.close(CLOSE_TOO_SLOW, `too slow: over ${limits.bufferedBytes} bytes unsent`);
    dropped.add(client.socket);
    const timer = setTimeout(() => client.socket.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    client.socket.once('close', () => {
      clearTimeout(timer);
      dropped.delete(client.socket);
    });
  };
  /**
   * Whether a client is too far behind: what it has not taken beyond the latest block's
   * messages passes the bound. Checked before each block and each answer, so one large block
   * (bigger than the bound itself, and shared by every reader) never drops a reader, while one
   * that still holds older data past the bound when the next block comes is closed.
   */
  const fellBehind = (client: Client) => {
    if (client.socket.bufferedAmount - client.latestBlockBytes <= limits.bufferedBytes) return false;
    tooSlow(client);
    return true;
  };
  const listening = (client: Client) => client.socket.readyState === client.socket.OPEN && clients.has(client);
  const push = (client: Client, data: string | Buffer) => {
    if (listening(client)) client.socket.send(data, { binary: false });
  };
  const pushBlockMessage = (client: Client, data: Buffer) => {
    client.latestBlockBytes += data.length;
    push(client, data);
  };
  /** A message in byte chunks goes out as one message of several frames, nothing copied. */
  const pushBlockChunks = (client: Client, message: JsonChunks) => {
    if (!listening(client)) return;
    client.latestBlockBytes += message.byteLength;
    const last = message.chunks.length - 1;
    message.chunks.forEach((chunk, i) => client.socket.send(chunk, { binary: false, fin: i === last }));
  };
  const send = (client: Client, body: { [key: string]: JsonValue }) => {
    if (!fellBehind(client)) push(client, toJson(body));
  };
  const sendError = (client: Client, err: unknown, id?: JsonValue) => {
    const { body } = errorResponse(err);
    send(client, id === undefined ? body : { ...body, id });
  };

  function forget(client: Client): void {
    if (!clients.delete(client)) return;
    const n = (perAddress.get(client.address) ?? 1) - 1;
    if (n > 0) perAddress.set(client.address, n);
    else perAddress.delete(client.address);
  }

  function accept(socket: WebSocket, address: string): void {
    const client: Client = { socket, subs: new Map(), address, latestBlockBytes: 0 };
    clients.add(client);
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    socket.on('close', () => forget(client));
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
      const key = subscriptionKey(parsed.sub);
      if (!client.subs.has(key) && client.subs.size >= MAX_SUBSCRIPTIONS) {
        sendError(client, new ValidationError('SUBSCRIPTION_LIMIT', 'Subscription limit reached', { details: `${MAX_SUBSCRIPTIONS} per connection; open another connection` }), parsed.id);
        return;
      }
      subscribe(client, key, parsed.sub, parsed.id).catch((err) => sendError(client, err, parsed.id));
    });
  }

  async function subscribe(client: Client, key: string, sub: Subscription, id: JsonValue | undefined): Promise<void> {
    // A transaction already settled is answered at once; an unknown one is an error.
    const settled = sub.kind === 'tx' && sub.txid !== undefined ? await chain.statusJson(sub.txid) : null;
    // An identical subscription is acknowledged again but held (and delivered) once.
    if (!client.subs.has(key)) client.subs.set(key, sub);
    const ack: { [key: string]: JsonValue } = { ok: true, subscribe: subscribedAs(sub), moresubs: MAX_SUBSCRIPTIONS - client.subs.size };
    send(client, id === undefined ? ack : { ...ack, id });
    if (sub.kind === 'tx' && sub.txid !== undefined && settled !== null) {
      push(client, `{"tx":${JSON.stringify(sub.txid)},"res":${settled}}`);
      client.subs.delete(key);
    }
  }

  /** Pushes one block to every subscriber; each message is built once, as bytes, only if someone wants it. */
  async function publish(block: CommittedBlock): Promise<void> {
    if (clients.size === 0) return;
    const { record, txs, statuses } = block;
    let full: JsonChunks | undefined;
    let stat: Buffer | undefined;
    const txMessages: (Buffer | undefined)[] = [];
    const txMessage = (i: number) => (txMessages[i] ??= Buffer.from(`{"tx":${JSON.stringify(txs[i].txid)},"res":${statuses[i]}}`));
    const addressMessages = new Map<string, JsonChunks | null>();
    const txIndex = new Map<string, number>();
    txs.forEach((tx, i) => txIndex.set(tx.txid, i));
    for (const client of [...clients]) {
      if (fellBehind(client)) continue;
      client.latestBlockBytes = 0;
      for (const [key, sub] of [...client.subs]) {
        if (sub.kind === 'block') {
          full ??= await blockMessage(record, txs);
          pushBlockChunks(client, full);
        } else if (sub.kind === 'blockstat') {
          stat ??= Buffer.from(
            toJson({
              blockstat: { hash: record.hash, height: record.header.height, parent: record.header.parent, time: record.time, txs: record.txs.length, failed: Object.keys(record.failed).length },
            }),
          );
          pushBlockMessage(client, stat);
        } else if (sub.kind === 'tx') {
          if (sub.txid === undefined) {
            for (let i = 0; i < txs.length; i++) pushBlockMessage(client, txMessage(i));
          } else if (txIndex.has(sub.txid)) {
            pushBlockMessage(client, txMessage(txIndex.get(sub.txid)!));
            client.subs.delete(key); // a transaction settles once
          }
        } else {
          const upper = sub.address.toUpperCase();
          if (!(upper in record.bals)) continue;
          if (sub.bal) {
            const message = cached(addressMessages, `${sub.address}:bal`, () => {
              const w = chain.wallets.get(sub.address);
              return { address: addressToText(Buffer.from(sub.address, 'hex')), balance: w ? walletInfo(w, null) : storedWalletView(record.bals[upper]) };
            });
            if (message) pushBlockChunks(client, message);
          }
          if (sub.tx) {
            const message = cached(addressMessages, `${sub.address}:tx`, () => {
              const related: { [key: string]: JsonValue } = {};
              for (const tx of txs) if (involves(tx, sub.address, record.registered[tx.txid])) related[tx.txid] = txView(tx.raw, record.registered[tx.txid]);
              return Object.keys(related).length > 0 ? { address: addressToText(Buffer.from(sub.address, 'hex')), txs: related } : null;
            });
            if (message) pushBlockChunks(client, message);
          }
        }
      }
    }
  }

  /** `{"block":…}`, the transactions taken from the committed block rather than the store. */
  async function blockMessage(record: CommittedBlock['record'], txs: readonly NodeTx[]): Promise<JsonChunks> {
    const out = new JsonBytesWriter().text('{"block":');
    await writeFullBlock(out, chain, record, undefined, new Map(txs.map((tx) => [tx.txid, tx.raw])));
    return out.text('}').finish();
  }

  const stop = chain.onBlock((block) => {
    publish(block).catch((err) => logger.error(`ws publish failed: ${err instanceof TpkitError ? err.message : (err as Error).stack}`));
  });

  // A revert, a rollback or a clock move: every subscriber's view is stale; each is told once.
  const stopResets = chain.onReset((reset) => {
    const text = toJson({ reset: { ...reset } });
    for (const client of clients) if (client.subs.size > 0) push(client, text);
  });

  return {
    get connections() {
      return clients.size;
    },
    get addresses() {
      return perAddress.size;
    },
    get closing() {
      return dropped.size;
    },
    close() {
      stop();
      stopResets();
      for (const c of clients) c.socket.terminate();
      for (const socket of dropped) socket.terminate();
      wss.close();
    },
  };
}

/** A per-block message built on first use (as byte chunks: it may hold many transactions); null when there is nothing to say. */
function cached(cache: Map<string, JsonChunks | null>, key: string, build: () => { [key: string]: JsonValue } | null): JsonChunks | null {
  let message = cache.get(key);
  if (message === undefined) {
    const body = build();
    message = body === null ? null : toJsonChunks(body);
    cache.set(key, message);
  }
  return message;
}
