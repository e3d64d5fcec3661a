// A client of a node's HTTP API (spec parts 3 and 4, plus the endpoints the official SDK
// calls). It runs wherever `fetch` does: Node 18+, browsers, workers. Answers come back
// typed, with balances and seqs as bigint.

import { bytesToBase64, bytesToHex, expectBytes, hexToBytes } from '../bytes.js';
import { addressFromText, addressToText } from '../codec/address.js';
import { decodeTxid } from '../codec/txid.js';
import { AbortError, ArgumentError, TpkitError } from '../errors.js';
import { ApiError, TimeoutError, UnknownTxError } from './client-errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, requestJson, type CallOptions, type HttpSettings } from './http.js';
import { contractViewFrom, nodeStatusFrom, seqFrom, txidFrom, txStatusFrom, walletInfoFrom, type NodeStatus, type TxStatus, type WalletInfo } from './responses.js';
import { checkTransactionTransport } from './transport-policy.js';
import { devApi, type DevApi } from './dev.js';
import { watchAddress, watchBlocks, watchTx, type AddressChange, type BlockSummary, type WatchOptions } from './watch.js';

export type { CallOptions };

export interface ClientOptions {
  /** The node's base URL, e.g. https://node.example:1443 or http://127.0.0.1:43280. */
  baseUrl: string | URL;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Allow submitting transactions over plain HTTP to a host that is not this machine. */
  allowInsecure?: boolean;
  /** Per-request time limit in ms (default 15000). */
  timeoutMs?: number;
  /**
   * Longest answer read, in bytes (default 64 MiB); a longer one is abandoned mid-stream
   * with RESPONSE_TOO_LARGE, so a hostile node cannot fill the caller's memory.
   */
  maxResponseBytes?: number;
}

export interface WaitOptions extends CallOptions {
  /** Give up after this many ms (default 60000). */
  timeoutMs?: number;
  /** Called before each poll, with the attempt number from 1. */
  onPoll?: (attempt: number) => void;
}

export interface ContractViewRequest {
  /** The contract: address text, or 0x and 16 or 40 hex digits. */
  to: string | Uint8Array;
  data: Uint8Array | string;
  from?: string;
  gas?: bigint;
  value?: bigint;
}

export interface ContractView {
  result: 'return' | 'revert' | 'error';
  /** The return data, or the revert data. */
  data: Uint8Array;
  gasUsed: bigint;
  /** For a revert: its Error(string) message or Panic(code), when it is one. */
  reason?: string;
  raw: Record<string, unknown>;
}

export interface TpkitClient {
  readonly baseUrl: string;
  getAddress(address: string | Uint8Array, options?: CallOptions & { pubkey?: 'pem' | 'hex' | 'b64' }): Promise<WalletInfo>;
  /** The node's settings, or the subtree at `path` ('current/register' or 'current.register'). */
  getSettings(path?: string, options?: CallOptions): Promise<any>;
  /** Throws INSECURE_TRANSPORT when submitTx would refuse: flows check before mining or signing. */
  checkTransport(): void;
  /** Submits container bytes (or their base64); resolves to the txid. */
  submitTx(tx: Uint8Array | string, options?: CallOptions): Promise<string>;
  /** The result once included, null before. */
  getTxStatus(txid: string, options?: CallOptions): Promise<TxStatus | null>;
  /** Polls with backoff until the transaction is included; a failed result is returned, not thrown. */
  waitForTx(txid: string, options?: WaitOptions): Promise<TxStatus>;
  getSeq(address: string | Uint8Array, options?: CallOptions): Promise<bigint>;
  nodeStatus(options?: CallOptions): Promise<NodeStatus>;
  /** A block as the node shows it: by hash, 'last', 'genesis' or height; `addr` keeps one wallet's part. */
  getBlock(id: string | number, options?: CallOptions & { addr?: string }): Promise<Record<string, any>>;
  /** Calls `onBlock` for each new block from the node's live stream until the signal aborts. */
  watchBlocks(onBlock: (block: BlockSummary) => void, options?: WatchOptions): Promise<void>;
  /** The transaction's result from the live stream, as soon as its block is committed. */
  watchTx(txid: string, options?: WatchOptions & { timeoutMs?: number }): Promise<TxStatus>;
  /** Calls `onChange` with the wallet and its transactions of each block that changes it. */
  watchAddress(address: string | Uint8Array, onChange: (change: AddressChange) => void, options?: WatchOptions & { get?: ('tx' | 'bal')[] }): Promise<void>;
  /**
   * A contract view (POST /api/execute/call): `data` is the ABI-encoded calldata; the node
   * runs it at its head and changes nothing. A revert is a result, not an error.
   */
  executeCall(request: ContractViewRequest, options?: CallOptions): Promise<ContractView>;
  /** The development endpoints of a local tpkit node. */
  readonly dev: DevApi;
}

const FIRST_POLL_MS = 150;
const MAX_POLL_MS = 2000;

/** Canonical text form of an address given as text, 0x hex or 8 bytes. */
function addressPath(address: string | Uint8Array): string {
  if (typeof address === 'string') return addressToText(addressFromText(address));
  return addressToText(expectBytes(address, 'address', 8));
}

function settingsPath(path: string): string {
  const parts = path.split(/[./]/).filter((p) => p !== '');
  return parts.map(encodeURIComponent).join('/');
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError('wait aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('wait aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function parseBaseUrl(baseUrl: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new ArgumentError(`"baseUrl" expected an http:// or https:// URL, got ${JSON.stringify(String(baseUrl))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArgumentError(`"baseUrl" expected an http:// or https:// URL, got ${JSON.stringify(url.protocol)}`);
  }
  url.search = '';
  url.hash = '';
  return url;
}

export function createClient(options: ClientOptions): TpkitClient {
  if (typeof options !== 'object' || options === null) throw new ArgumentError('"options" expected an object with baseUrl');
  const baseUrl = parseBaseUrl(options.baseUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new ArgumentError('"fetch" expected a function (no global fetch here)');
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new ArgumentError(`"timeoutMs" expected a positive number, got ${String(timeoutMs)}`);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new ArgumentError(`"maxResponseBytes" expected a positive integer, got ${String(maxResponseBytes)}`);
  }
  const http: HttpSettings = { baseUrl, fetch: (input, init) => fetchImpl(input, init), timeoutMs, maxResponseBytes };
  const allowInsecure = options.allowInsecure === true;

  const getTxStatus = async (txid: string, call: CallOptions = {}): Promise<TxStatus | null> => {
    decodeTxid(txid);
    const path = `/api/tx/status/${encodeURIComponent(txid)}`;
    let answer;
    try {
      answer = await requestJson(http, path, call);
    } catch (err) {
      // A node that says so by name; polling would never end.
      if (err instanceof ApiError && err.nodeError === 'TX_NOT_FOUND') throw new UnknownTxError(txid, { cause: err });
      throw err;
    }
    return txStatusFrom(answer, `GET ${path}`);
  };

  return {
    baseUrl: baseUrl.href,

    async getAddress(address, call = {}) {
      const query = call.pubkey ? `?pubkey=${encodeURIComponent(call.pubkey)}` : '';
      const path = `/api/address/${addressPath(address)}${query}`;
      return walletInfoFrom(await requestJson(http, path, call), `GET ${path}`);
    },

    async getSettings(path = '', call = {}) {
      const suffix = settingsPath(path);
      const answer = await requestJson(http, suffix ? `/api/settings/${suffix}` : '/api/settings', call);
      return answer.settings;
    },

    checkTransport() {
      checkTransactionTransport(baseUrl, allowInsecure);
    },

    async submitTx(tx, call = {}) {
      checkTransactionTransport(baseUrl, allowInsecure);
      const base64 = typeof tx === 'string' ? tx : bytesToBase64(expectBytes(tx, 'tx'));
      const answer = await requestJson(http, '/api/tx/new', { method: 'POST', json: { tx: base64 }, signal: call.signal });
      return txidFrom(answer, 'POST /api/tx/new');
    },

    getTxStatus,

    async waitForTx(txid, wait = {}) {
      const limitMs = wait.timeoutMs ?? 60_000;
      const started = Date.now();
      let delay = FIRST_POLL_MS;
      for (let attempt = 1; ; attempt++) {
        wait.onPoll?.(attempt);
        const status = await getTxStatus(txid, wait);
        if (status) return status;
        const left = limitMs - (Date.now() - started);
        if (left <= 0) throw new TimeoutError(`${txid} not included within ${limitMs} ms`, { txid });
        await abortableSleep(Math.min(delay, left), wait.signal);
        delay = Math.min(delay * 1.5, MAX_POLL_MS);
      }
    },

    async getSeq(address, call = {}) {
      const path = `/api/address/${addressPath(address)}/seq`;
      return seqFrom(await requestJson(http, path, call), `GET ${path}`);
    },

    async getBlock(id, call = {}) {
      const text = String(id);
      if (!/^(last|genesis|\d{1,15}|(0x)?[0-9a-fA-F]{64})$/.test(text)) {
        throw new ArgumentError(`"id" expected a block hash, a height, 'last' or 'genesis', got ${JSON.stringify(text)}`);
      }
      const query = call.addr ? `?addr=${encodeURIComponent(addressPath(call.addr))}` : '';
      const path = /^\d+$/.test(text) ? `/api/blockn/${text}${query}` : `/api/block/${text.replace(/^0x/, '')}${query}`;
      const answer = await requestJson(http, path, call);
      if (typeof answer.block !== 'object' || answer.block === null) throw new TpkitError('BAD_RESPONSE', 'Node answer has no block', { details: path });
      return answer.block as Record<string, any>;
    },

    watchBlocks: (onBlock, watch) => watchBlocks(http, onBlock, watch),
    watchTx: (txid, watch) => {
      decodeTxid(txid);
      return watchTx(http, txid, watch);
    },
    watchAddress: (address, onChange, watch) => watchAddress(http, address, onChange, watch),
    dev: devApi(http),

    async executeCall(request, call = {}) {
      const to = typeof request.to === 'string' ? request.to : '0x' + bytesToHex(expectBytes(request.to, 'to', 8));
      const data = typeof request.data === 'string' ? bytesToHex(hexToBytes(request.data)) : bytesToHex(expectBytes(request.data, 'data'));
      const json: Record<string, unknown> = { call: '0x0', args: ['0x' + data], to };
      if (request.from !== undefined) json.from = request.from;
      if (request.gas !== undefined) json.gas = request.gas.toString();
      if (request.value !== undefined) json.value = request.value.toString();
      const answer = await requestJson(http, '/api/execute/call', { method: 'POST', json, signal: call.signal });
      return contractViewFrom(answer, 'POST /api/execute/call');
    },

    async nodeStatus(call = {}) {
      return nodeStatusFrom(await requestJson(http, '/api/node/status', call), 'GET /api/node/status');
    },
  };
}
