// The official SDK, @thepowereco/tssdk 2.1.0, loaded unchanged, typed narrowly, and kept on the
// test's own node: a socket guard refuses every connection that leaves the machine, and the
// SDK's documented custom-chain setting (localStorage "nodesList" and "chainId") names our node.
import { createRequire } from 'node:module';
import net from 'node:net';
import * as assert from 'uvu/assert';

export interface SdkNode {
  address: string;
  nodeId: string;
  time?: number;
  height?: number;
}

export interface SdkFeeSettings {
  feeCur?: string;
  fee?: number;
  baseEx?: number;
  kb?: number;
}

export interface SdkWallet {
  amount: Record<string, number>;
  pubkey: string;
  seq: number;
}

export interface SdkNetwork {
  bootstrap(): Promise<void>;
  upload(): { currentChain: number; currentNodes: SdkNode[]; nodeIndex: number; feeSettings?: SdkFeeSettings };
  getNodeSettings(): Promise<{ current: { allocblock: { group: number; block: number; last: number } } }>;
  getWallet(address: string): Promise<SdkWallet>;
  getWalletSequence(address: string): Promise<number>;
  sendTxAndWaitForResponse(tx: string, timeout?: number): Promise<{ txId: string; res: string; block: string }>;
  getChainNodes(chain: number, remoteChain: number): Promise<{ address: string; nodeId: string }[]>;
  getAddressChain(address: string): Promise<{ result: string; chain: number; chain_nodes: Record<string, { host: string[]; ip: string[] }> }>;
}

export interface SdkPrettyTx {
  from: string;
  to: string;
  cur: string;
  amount: number;
  seq: number;
  inBlock: string;
}

export interface SdkWalletApi {
  makeNewTx(wif: string, from: string, to: string, token: string, amount: number, message: string): Promise<{ txId: string; res: string; block: string }>;
  getBlock(hash: string, address?: string | null): Promise<{ txs: Record<string, SdkPrettyTx & { address?: string; blockNumber: number }>; bals: Record<string, { lastblk?: string }> }>;
  getRawTransactionsHistory(
    lastBlock: string,
    address: string,
    perPage?: number,
    txsFilter?: (txid: string, tx: unknown) => boolean,
  ): Promise<Map<string, (SdkPrettyTx & { incoming?: boolean; addressAllocationBlock?: boolean }) | string>>;
  loadBalance(address: string): Promise<{ amount: Record<string, number> }>;
}

/** The parts of the SDK the interop test calls (it ships CommonJS with loose `any` types). */
export interface Sdk {
  NetworkApi: new (chain: number, httpsOnly?: boolean) => SdkNetwork;
  WalletApi: (new (network: SdkNetwork) => SdkWalletApi) & {
    registerCertainChain(args: { chain: number; customSeed: string; isHTTPSNodesOnly: boolean; timeout?: number }): Promise<{ chain: number; wif: string; address: string }>;
  };
  CryptoApi: {
    generateSeedPhrase(): string;
    generateKeyPairFromSeedPhrase(seedPhrase: string, block: number, group: number): Promise<{ toWIF(): string }>;
  };
  TransactionsApi: {
    composeSimpleTransferTX(feeSettings: SdkFeeSettings, wif: string, from: string, to: string, token: string, amount: number, msg: string, seq: number, fee?: number, feeToken?: string): string;
    composeRegisterTX(wif: string, referrer?: string): Promise<string>;
  };
}

const sdkRequire = createRequire(import.meta.url);
export const sdk = sdkRequire('@thepowereco/tssdk') as Sdk;
// Modules the SDK itself depends on, resolved from where it sits.
const fromSdk = createRequire(sdkRequire.resolve('@thepowereco/tssdk'));
const wif = fromSdk('wif') as { encode(version: number, key: Buffer, compressed: boolean): string; decode(text: string): { privateKey: Buffer } };
/** The SDK's MessagePack writer, the one it encodes bodies and containers with. */
export const sdkMsgpack = fromSdk('@thepowereco/msgpack') as { encode(value: unknown): Uint8Array };
/** The SDK's timing knobs: a plain mutable object read on every call. */
const sdkTiming = fromSdk('./config/chain.config.js') as { config: { callbackCallDelay: number } };

/** A secret key as the WIF text the SDK takes (mainnet prefix, compressed public key). */
export const toWif = (key: Uint8Array): string => wif.encode(128, Buffer.from(key), true);
export const fromWif = (text: string): Uint8Array => new Uint8Array(wif.decode(text).privateKey);

const PROXY_VARS = ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY'];

export interface SdkSandbox {
  /** host:port of every connection refused because it would leave the machine. */
  refused: string[];
  /** host:port of every loopback connection made. */
  local: string[];
  /** Names the SDK's bootstrap nodes (its README's custom-chain setting); undefined removes them. */
  setNodes(nodes: SdkNode[] | undefined, chain?: number): void;
  restore(): void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function connectTarget(args: unknown[]): { host: string; port: string } {
  // Node calls connect() with its normalized [options, callback] array; users call it with
  // (options), (port, host) or (path).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first !== null && typeof first === 'object') {
    const o = first as { host?: string; port?: number | string; path?: string };
    if (o.path != null) return { host: 'localhost', port: `unix:${o.path}` };
    return { host: o.host ?? 'localhost', port: String(o.port) };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { host: 'localhost', port: `unix:${first}` };
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: String(first) };
}

/**
 * Keeps the SDK on this machine until restore(): sockets to other hosts are refused (and
 * recorded), proxy variables that would route its axios calls elsewhere are unset, and its
 * status polling delay drops from 5 s to `pollMs` so the test stays short.
 */
export function sandboxSdk(pollMs = 20): SdkSandbox {
  const refused: string[] = [];
  const local: string[] = [];
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const { host, port } = connectTarget(args);
    if (!LOOPBACK.has(host)) {
      refused.push(`${host}:${port}`);
      process.nextTick(() => this.destroy(new Error(`test sandbox: connection to ${host}:${port} refused`)));
      return this;
    }
    local.push(`${host}:${port}`);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;

  const proxies = new Map(PROXY_VARS.map((name) => [name, process.env[name]]));
  for (const name of PROXY_VARS) delete process.env[name];

  const delay = sdkTiming.config.callbackCallDelay;
  sdkTiming.config.callbackCallDelay = pollMs;

  const items = new Map<string, string>();
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    value: { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, String(value)) },
  });

  return {
    refused,
    local,
    setNodes(nodes, chain = 1) {
      items.clear();
      if (nodes === undefined) return;
      items.set('nodesList', JSON.stringify(nodes));
      items.set('chainId', String(chain));
    },
    restore() {
      net.Socket.prototype.connect = connect;
      for (const [name, value] of proxies) if (value !== undefined) process.env[name] = value;
      sdkTiming.config.callbackCallDelay = delay;
      delete (globalThis as { localStorage?: unknown }).localStorage;
    },
  };
}

/** The error a promise rejects with (the SDK throws plain Errors); fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    assert.instance(err, Error);
    return err as Error;
  }
  assert.unreachable('expected a rejection');
  throw new Error('unreachable');
}
