// Live updates from a node's /api/ws stream instead of polling: new blocks, one transaction's
// result, an address's changes. Browsers (and Node 22+) have a global WebSocket; on Node 20
// the `ws` package is loaded on first use, so the browser build never carries it.

import { addressFromText, addressToText } from '../codec/address.js';
import { AbortError } from '../errors.js';
import { parseApiJson, toBigInt } from './api-json.js';
import { ApiError, NetworkError, TimeoutError, UnknownTxError } from './client-errors.js';
import { joinUrl, requestJson, type HttpSettings, type JsonObject } from './http.js';
import { txStatusFrom, walletInfoFrom, type TxStatus, type WalletInfo } from './responses.js';
import type { ChainReset } from '../dev-wire.js';

/** What a browser WebSocket and the `ws` package both offer. */
interface StreamSocket {
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'message' | 'error' | 'close', listener: (event: { data?: unknown }) => void): void;
}
export type WebSocketFactory = new (url: string) => StreamSocket;

export type { ChainReset };

export interface WatchOptions {
  signal?: AbortSignal;
  /** Called when a local tpkit node announces a revert, a rollback or a clock move. */
  onReset?: (reset: ChainReset) => void;
  /** A WebSocket implementation (default: the global one, else the `ws` package). */
  WebSocket?: WebSocketFactory;
}

export interface BlockSummary {
  hash: string;
  height: number;
  parent: string;
  /** Block time, ms since the epoch. */
  time: number;
  txs: number;
  failed: number;
}

export interface AddressChange {
  address: string;
  /** The wallet after the block (when balances were asked for). */
  balance?: WalletInfo;
  /** The block's transactions from or to the address, by txid, as block views list them. */
  txs?: Record<string, unknown>;
}

async function socketFactory(maxMessageBytes: number, custom?: WebSocketFactory): Promise<WebSocketFactory> {
  if (custom) return custom;
  const global = (globalThis as { WebSocket?: WebSocketFactory }).WebSocket;
  if (typeof global === 'function') return global;
  const { WebSocket } = await import('ws');
  // The same cap as an HTTP answer: the ws package would otherwise take 100 MiB messages.
  return class CappedSocket extends WebSocket {
    constructor(url: string) {
      super(url, { maxPayload: maxMessageBytes });
    }
  } as unknown as WebSocketFactory;
}

function streamUrl(base: URL): string {
  const url = joinUrl(base, '/api/ws');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

function streamError(answer: JsonObject, request: string): ApiError {
  return new ApiError({
    status: 400,
    apiCode: typeof answer.code === 'number' ? answer.code : undefined,
    apiMessage: typeof answer.msg === 'string' ? answer.msg : 'subscription refused',
    nodeError: typeof answer.error === 'string' ? answer.error : undefined,
    request,
  });
}

function resetFrom(o: JsonObject): ChainReset {
  const event = o.event === 'revert' || o.event === 'rollback' ? o.event : 'clock';
  const num = (v: unknown) => Number(toBigInt(v) ?? 0n);
  return { event, height: num(o.height), hash: String(o.hash), now: num(o.now), clockOffsetMs: num(o.clockOffsetMs), ...(o.snapshot !== undefined ? { snapshot: String(o.snapshot) } : {}) };
}

/**
 * Opens the stream, subscribes, and hands each pushed message to `onMessage` until it calls
 * `done`, the signal aborts (then it resolves, or rejects when `abortRejects`), or the stream
 * fails (NetworkError, or ApiError when the node refuses the subscription). A signal aborted
 * already resolves at once: watchTx, the one caller with `abortRejects`, checks its caller's
 * signal before and passes a fresh one of its own.
 */
async function stream(
  http: HttpSettings,
  subscription: JsonObject,
  onMessage: (message: JsonObject, done: (result?: unknown, error?: unknown) => void) => void,
  options: WatchOptions & { abortRejects?: boolean; afterReset?: (done: (result?: unknown, error?: unknown) => void) => void },
): Promise<unknown> {
  const request = `WS /api/ws ${JSON.stringify(subscription)}`;
  if (options.signal?.aborted) return undefined;
  const Socket = await socketFactory(http.maxResponseBytes, options.WebSocket);
  return new Promise((resolve, reject) => {
    let finished = false;
    let socket: StreamSocket;
    const finish = (result?: unknown, error?: unknown) => {
      if (finished) return;
      finished = true;
      options.signal?.removeEventListener('abort', onAbort);
      try {
        socket.close();
      } catch {
        // already closed
      }
      if (error !== undefined) reject(error);
      else resolve(result);
    };
    const onAbort = () => finish(undefined, options.abortRejects ? new AbortError('watch aborted') : undefined);
    try {
      socket = new Socket(streamUrl(http.baseUrl));
    } catch (cause) {
      reject(new NetworkError(`cannot open ${streamUrl(http.baseUrl)}: ${(cause as Error).message}`, { cause }));
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // Aborted while the WebSocket implementation loaded: no event will come for it.
    if (options.signal?.aborted) return onAbort();
    socket.addEventListener('open', () => socket.send(JSON.stringify(subscription)));
    socket.addEventListener('error', () => finish(undefined, new NetworkError(`the stream ${streamUrl(http.baseUrl)} failed`)));
    socket.addEventListener('close', () => finish(undefined, new NetworkError(`the node closed the stream ${streamUrl(http.baseUrl)}`)));
    socket.addEventListener('message', (event) => {
      let message: JsonObject;
      try {
        message = parseApiJson(String(event.data)) as JsonObject;
      } catch {
        return; // not JSON: nothing a subscriber asked for
      }
      if (message.ok === false) finish(undefined, streamError(message, request));
      else if (message.ok === true && 'subscribe' in message)
        return; // the acknowledgement
      else if (typeof message.reset === 'object' && message.reset !== null) {
        options.onReset?.(resetFrom(message.reset as JsonObject));
        options.afterReset?.(finish);
      } else onMessage(message, finish);
    });
  });
}

export function watchBlocks(http: HttpSettings, onBlock: (block: BlockSummary) => void, options: WatchOptions = {}): Promise<void> {
  return stream(
    http,
    { sub: 'blockstat' },
    (m) => {
      const b = m.blockstat as JsonObject | undefined;
      if (!b) return;
      onBlock({
        hash: String(b.hash),
        height: Number(toBigInt(b.height) ?? 0n),
        parent: String(b.parent),
        time: Number(toBigInt(b.time) ?? 0n),
        txs: Number(toBigInt(b.txs) ?? 0n),
        failed: Number(toBigInt(b.failed) ?? 0n),
      });
    },
    options,
  ) as Promise<void>;
}

export async function watchTx(http: HttpSettings, txid: string, options: WatchOptions & { timeoutMs?: number } = {}): Promise<TxStatus> {
  // An 'abort' event never fires for a signal aborted already: it would wait for ever.
  if (options.signal?.aborted) throw new AbortError('watch aborted');
  // A time limit ends the stream like an abort, but rejects with TimeoutError.
  const limit = new AbortController();
  const onAbort = () => limit.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), limit.abort()), options.timeoutMs);
  try {
    // After a revert or rollback the transaction may be unknown, or settled, without a push
    // for it: the node is asked once what it knows now.
    const afterReset = (done: (result?: unknown, error?: unknown) => void) => {
      const path = `/api/tx/status/${encodeURIComponent(txid)}`;
      requestJson(http, path, { signal: limit.signal }).then(
        (answer) => {
          const status = txStatusFrom(answer, `GET ${path}`);
          if (status !== null) done(status);
        },
        (err: unknown) => {
          if (err instanceof ApiError && err.nodeError === 'TX_NOT_FOUND') done(undefined, err);
        },
      );
    };
    return (await stream(
      http,
      { sub: 'tx', txid },
      (m, done) => {
        if (m.tx === txid) done(txStatusFrom({ res: m.res }, `WS tx ${txid}`));
      },
      { ...options, signal: limit.signal, abortRejects: true, afterReset },
    )) as TxStatus;
  } catch (err) {
    if (err instanceof ApiError && err.nodeError === 'TX_NOT_FOUND') throw new UnknownTxError(txid, { cause: err });
    if (timedOut) throw new TimeoutError(`${txid} not included within ${options.timeoutMs} ms`, { cause: err, txid });
    throw err;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

export function watchAddress(http: HttpSettings, address: string | Uint8Array, onChange: (change: AddressChange) => void, options: WatchOptions & { get?: ('tx' | 'bal')[] } = {}): Promise<void> {
  const text = typeof address === 'string' ? addressToText(addressFromText(address)) : addressToText(address);
  const get = (options.get ?? ['tx', 'bal']).join(',');
  return stream(
    http,
    { sub: 'addr', addr: text, get },
    (m) => {
      if (m.address !== text) return;
      if (m.balance) onChange({ address: text, balance: walletInfoFrom({ info: m.balance, txtaddress: text }, `WS addr ${text}`) });
      if (m.txs) onChange({ address: text, txs: m.txs as Record<string, unknown> });
    },
    options,
  ) as Promise<void>;
}
