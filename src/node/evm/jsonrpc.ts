// POST /jsonrpc: the Ethereum JSON-RPC methods the reference node answers
// (tpnode_jsonrpc.erl), over the node's own chain, so that viem, ethers and Foundry's `cast`
// read contracts, events and blocks and send Ethereum transactions. Requests may be batched.
// Errors use the JSON-RPC codes: -32700 parse, -32600 invalid request, -32601 unknown method,
// -32602 bad params, 3 execution reverted (with the revert data, as geth answers), -32000 a
// transaction refused, -32005 a log query over its limit, -32603 internal.

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { TpkitError } from '../../errors.js';
import { parseEvmAddress } from './address.js';
import { matchesLog, parseLogFilter, type BlockLogs, type StoredLog } from './logs.js';
import { revertReason } from './revert.js';
import type { EvmRun } from './runner.js';
import { slotKey, storageWord, type EvmLedger } from './state.js';

/** A block as the JSON-RPC shows it. Hashes are lowercase hex without 0x. */
export interface EthBlock {
  height: number;
  hash: string;
  parent: string;
  txroot: string;
  balroot: string;
  /** Milliseconds since the epoch. */
  time: number;
  /** Ethereum hashes of its transactions, in order. */
  txHashes: string[];
}

/** What eth_getTransactionReceipt needs of one transaction. */
export interface EthReceipt {
  hash: string;
  txid: string;
  height: number;
  blockHash: string;
  index: number;
  /** EVM keys. */
  from: string;
  to: string | null;
  status: 0 | 1;
  gasUsed: bigint;
  created?: string;
  logs: StoredLog[];
}

/** An Ethereum transaction as eth_getTransactionByHash shows it. */
export interface EthTransaction {
  hash: string;
  from: string;
  to: string | null;
  nonce: bigint;
  gas: bigint;
  gasPrice: bigint;
  value: bigint;
  input: string;
  type: number;
  v: bigint;
  r: bigint;
  s: bigint;
  chainId: bigint;
  block?: { height: number; hash: string; index: number };
}

/** The chain as the JSON-RPC handlers see it. */
export interface EthChain {
  readonly ethChainId: bigint;
  height(): number;
  /** By height or by hash (lowercase hex). */
  block(ref: number | string): Promise<EthBlock | undefined>;
  /** The committed state. */
  ledger(): EvmLedger;
  /** Runs a message at the head, changing nothing. */
  view(message: { caller: string; to?: string; data: Uint8Array; value: bigint; gasLimit: bigint }): Promise<EvmRun>;
  gasPrice(): bigint;
  /** The events of the blocks from..to that have any, in order. */
  logs(from: number, to: number): Promise<BlockLogs[]>;
  /** Accepts a signed Ethereum transaction; resolves to its hash (lowercase hex). */
  sendRawTransaction(raw: Uint8Array): Promise<string>;
  receipt(hash: string): Promise<EthReceipt | undefined>;
  transaction(hash: string): Promise<EthTransaction | undefined>;
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }
}

const MAX_LOGS = 10_000;
const MAX_BATCH = 100;
/** Gas a view or an estimate may use. */
const CALL_GAS = 50_000_000n;
const ZERO_BLOOM = '0x' + '0'.repeat(512);
const EMPTY_LIST_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

const hex = (n: bigint | number) => '0x' + n.toString(16);
const hexBytes = (b: Uint8Array | string) => '0x' + (typeof b === 'string' ? b : bytesToHex(b));

function invalidParams(message: string): RpcError {
  return new RpcError(-32602, message);
}

function quantity(value: unknown, field: string): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value);
  if (value === '0x') return 0n;
  throw invalidParams(`"${field}" expected a hex quantity, got ${JSON.stringify(value)?.slice(0, 80)}`);
}

function data(value: unknown, field: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array(0);
  if (typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)) return hexToBytes(value);
  throw invalidParams(`"${field}" expected 0x and an even number of hex digits`);
}

function address(value: unknown, field: string): string {
  try {
    return parseEvmAddress(value, field);
  } catch (err) {
    throw invalidParams((err as TpkitError).details ?? (err as Error).message);
  }
}

/** A block tag or number → a height at or below the head. */
function heightOf(chain: EthChain, tag: unknown, field: string): number {
  if (tag === undefined || tag === null || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return chain.height();
  if (tag === 'earliest') return 0;
  if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag) return heightOf(chain, (tag as { blockNumber: unknown }).blockNumber, field);
  const n = quantity(tag, field);
  if (n > BigInt(chain.height())) throw invalidParams(`"${field}": block ${n} is above the head ${chain.height()}`);
  return Number(n);
}

/** Only the head's state is kept: a call or read at an older block is refused, not answered wrongly. */
function atHead(chain: EthChain, tag: unknown, field: string): void {
  const h = heightOf(chain, tag, field);
  if (h !== chain.height()) throw new RpcError(-32000, `state at block ${h} is not kept: this node answers for the head (${chain.height()}) only`);
}

interface CallArgs {
  from?: unknown;
  to?: unknown;
  data?: unknown;
  input?: unknown;
  value?: unknown;
  gas?: unknown;
}

function callMessage(args: unknown) {
  if (!args || typeof args !== 'object') throw invalidParams('expected a call object');
  const a = args as CallArgs;
  return {
    caller: a.from === undefined || a.from === null ? '0'.repeat(40) : address(a.from, 'from'),
    to: a.to === undefined || a.to === null ? undefined : address(a.to, 'to'),
    data: data(a.input ?? a.data, 'data'),
    value: a.value === undefined || a.value === null ? 0n : quantity(a.value, 'value'),
    gasLimit: a.gas === undefined || a.gas === null ? CALL_GAS : quantity(a.gas, 'gas'),
  };
}

function reverted(run: EvmRun): RpcError {
  if (run.end === 'revert') {
    const reason = revertReason(run.returnData).text;
    return new RpcError(3, reason ? `execution reverted: ${reason}` : 'execution reverted', hexBytes(run.returnData));
  }
  return new RpcError(-32000, `execution failed: ${run.error}`);
}

/** Gas of an Ethereum transaction before its code runs: 21000, calldata, and a create's 32000. */
export function intrinsicGas(input: Uint8Array, create: boolean): bigint {
  let gas = create ? 53_000n : 21_000n;
  for (const b of input) gas += b === 0 ? 4n : 16n;
  return gas;
}

/**
 * One event as eth_getLogs and receipts show it; `blockTimestamp` (seconds, as the block's
 * `timestamp`) when the block is at hand: PowerWallet's token history dates each event by it.
 */
function rpcLog(log: StoredLog, block: { height: number; hash: string }, txHash: string, time?: number) {
  return {
    address: hexBytes(log.address),
    topics: log.topics.map(hexBytes),
    data: hexBytes(log.data),
    blockNumber: hex(block.height),
    blockHash: hexBytes(block.hash.toLowerCase()),
    transactionHash: hexBytes(txHash),
    transactionIndex: hex(log.txIndex),
    logIndex: hex(log.logIndex),
    removed: false,
    ...(time === undefined ? {} : { blockTimestamp: hex(Math.floor(time / 1000)) }),
  };
}

function rpcBlock(b: EthBlock) {
  return {
    number: hex(b.height),
    hash: hexBytes(b.hash),
    parentHash: hexBytes(b.parent),
    nonce: '0x0000000000000000',
    sha3Uncles: EMPTY_LIST_HASH,
    logsBloom: ZERO_BLOOM,
    transactionsRoot: hexBytes(b.txroot),
    stateRoot: hexBytes(b.balroot),
    receiptsRoot: hexBytes(b.txroot),
    miner: '0x' + '0'.repeat(40),
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: hex(0),
    gasLimit: hex(100_000_000),
    gasUsed: '0x0',
    baseFeePerGas: '0x0',
    timestamp: hex(Math.floor(b.time / 1000)),
    mixHash: '0x' + '0'.repeat(64),
    transactions: b.txHashes.map(hexBytes),
    uncles: [],
  };
}

type Handler = (chain: EthChain, params: unknown[]) => Promise<unknown> | unknown;

const METHODS: Record<string, Handler> = {
  eth_chainId: (chain) => hex(chain.ethChainId),
  net_version: (chain) => chain.ethChainId.toString(),
  web3_clientVersion: () => 'tpkit',
  eth_blockNumber: (chain) => hex(chain.height()),
  eth_gasPrice: (chain) => hex(chain.gasPrice()),
  eth_maxPriorityFeePerGas: () => '0x0',
  eth_accounts: () => [],
  eth_syncing: () => false,
  eth_getBalance: (chain, [who, tag]) => {
    atHead(chain, tag, 'block');
    return hex(chain.ledger().account(address(who, 'address'))?.balance ?? 0n);
  },
  eth_getTransactionCount: (chain, [who, tag]) => {
    atHead(chain, tag, 'block');
    return hex(chain.ledger().account(address(who, 'address'))?.nonce ?? 0n);
  },
  eth_getCode: (chain, [who, tag]) => {
    atHead(chain, tag, 'block');
    return hexBytes(chain.ledger().code(address(who, 'address')) ?? new Uint8Array(0));
  },
  eth_getStorageAt: (chain, [who, slot, tag]) => {
    atHead(chain, tag, 'block');
    return hexBytes(storageWord(chain.ledger().storage(address(who, 'address'), slotKey(quantity(slot, 'slot')))));
  },
  eth_call: async (chain, [args, tag]) => {
    atHead(chain, tag, 'block');
    const run = await chain.view(callMessage(args));
    if (run.end !== 'return') throw reverted(run);
    return hexBytes(run.returnData);
  },
  eth_estimateGas: async (chain, [args, tag]) => {
    atHead(chain, tag, 'block');
    const message = callMessage(args);
    const run = await chain.view({ ...message, gasLimit: CALL_GAS });
    if (run.end !== 'return') throw reverted(run);
    // What the run used may not be enough as a limit (refunds, the 63/64 rule): the estimate is
    // raised until a run under it succeeds.
    let gas = run.gasUsed + run.gasUsed / 8n + 5_000n;
    for (let i = 0; i < 8 && gas < CALL_GAS; i++, gas *= 2n) {
      if ((await chain.view({ ...message, gasLimit: gas })).end === 'return') break;
    }
    return hex(intrinsicGas(message.data, message.to === undefined) + (gas < CALL_GAS ? gas : CALL_GAS));
  },
  eth_getBlockByNumber: async (chain, [tag]) => {
    const b = await chain.block(heightOf(chain, tag, 'block'));
    return b ? rpcBlock(b) : null;
  },
  eth_getBlockByHash: async (chain, [hash]) => {
    const b = await chain.block(bytesToHex(data(hash, 'hash')));
    return b ? rpcBlock(b) : null;
  },
  eth_getLogs: async (chain, [filterArg]) => {
    if (!filterArg || typeof filterArg !== 'object') throw invalidParams('expected a filter object');
    const f = filterArg as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown; address?: unknown; topics?: unknown };
    let from: number;
    let to: number;
    if (f.blockHash !== undefined) {
      const b = await chain.block(bytesToHex(data(f.blockHash, 'blockHash')));
      if (!b) throw invalidParams('unknown block hash');
      from = to = b.height;
    } else {
      // A range past the head (a client that saw blocks a revert has dropped) holds no events.
      const past = (tag: unknown, field: string) => (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag) && BigInt(tag) > BigInt(chain.height()) ? Number.MAX_SAFE_INTEGER : heightOf(chain, tag, field));
      from = past(f.fromBlock, 'fromBlock');
      to = past(f.toBlock, 'toBlock');
      if (to < from) {
        if (from === Number.MAX_SAFE_INTEGER) return [];
        throw invalidParams(`"toBlock" ${to} is below "fromBlock" ${from}`);
      }
      to = Math.min(to, chain.height());
    }
    let filter;
    try {
      filter = parseLogFilter(f);
    } catch (err) {
      throw invalidParams((err as TpkitError).details ?? (err as Error).message);
    }
    const out: unknown[] = [];
    for (const block of await chain.logs(from, to)) {
      let header: EthBlock | undefined;
      for (const log of block.logs) {
        if (!matchesLog(filter, log)) continue;
        if (out.length >= MAX_LOGS) throw new RpcError(-32005, `query returned more than ${MAX_LOGS} results`);
        header ??= (await chain.block(block.height)) ?? undefined;
        out.push(rpcLog(log, block, header?.txHashes[log.txIndex] ?? '', header?.time));
      }
    }
    return out;
  },
  eth_sendRawTransaction: async (chain, [raw]) => {
    const bytes = data(raw, 'transaction');
    if (bytes.length === 0) throw invalidParams('"transaction" is empty');
    try {
      return hexBytes(await chain.sendRawTransaction(bytes));
    } catch (err) {
      if (err instanceof RpcError) throw err;
      if (err instanceof TpkitError && err.code !== 'NODE_INTERNAL') throw new RpcError(-32000, err.message);
      throw err;
    }
  },
  eth_getTransactionReceipt: async (chain, [hash]) => {
    const r = await chain.receipt(bytesToHex(data(hash, 'hash')));
    if (!r) return null;
    return {
      transactionHash: hexBytes(r.hash),
      transactionIndex: hex(r.index),
      blockHash: hexBytes(r.blockHash.toLowerCase()),
      blockNumber: hex(r.height),
      from: hexBytes(r.from),
      to: r.to === null ? null : hexBytes(r.to),
      cumulativeGasUsed: hex(r.gasUsed),
      gasUsed: hex(r.gasUsed),
      effectiveGasPrice: hex(chain.gasPrice()),
      contractAddress: r.created ? hexBytes(r.created) : null,
      logs: r.logs.map((log) => rpcLog(log, { height: r.height, hash: r.blockHash }, r.hash)),
      logsBloom: ZERO_BLOOM,
      status: hex(r.status),
      type: '0x0',
      txID: r.txid,
    };
  },
  eth_getTransactionByHash: async (chain, [hash]) => {
    const t = await chain.transaction(bytesToHex(data(hash, 'hash')));
    if (!t) return null;
    return {
      hash: hexBytes(t.hash),
      from: hexBytes(t.from),
      to: t.to === null ? null : hexBytes(t.to),
      nonce: hex(t.nonce),
      gas: hex(t.gas),
      gasPrice: hex(t.gasPrice),
      value: hex(t.value),
      input: hexBytes(t.input),
      type: hex(t.type),
      v: hex(t.v),
      r: hex(t.r),
      s: hex(t.s),
      chainId: hex(t.chainId),
      blockHash: t.block ? hexBytes(t.block.hash.toLowerCase()) : null,
      blockNumber: t.block ? hex(t.block.height) : null,
      transactionIndex: t.block ? hex(t.block.index) : null,
    };
  },
};

/** The methods served, for the docs and tests. */
export const RPC_METHODS = Object.keys(METHODS);

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

async function one(chain: EthChain, request: unknown, onInternal: (err: unknown) => void): Promise<object | undefined> {
  const r = (request && typeof request === 'object' && !Array.isArray(request) ? request : {}) as RpcRequest;
  const id = typeof r.id === 'string' || typeof r.id === 'number' || r.id === null ? r.id : null;
  const valid = r.jsonrpc === '2.0' && typeof r.method === 'string';
  // A notification (no id) gets no answer; an invalid request always gets one.
  const answer = (body: object) => (valid && r.id === undefined ? undefined : { jsonrpc: '2.0', id, ...body });
  try {
    if (!valid) throw new RpcError(-32600, 'Invalid request: expected {"jsonrpc":"2.0","method":…}');
    const method = r.method as string;
    const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!handler) throw new RpcError(-32601, `Method not found: ${method.slice(0, 64)}`);
    if (r.params !== undefined && !Array.isArray(r.params)) throw invalidParams('"params" must be an array');
    const result = await handler(chain, (r.params as unknown[] | undefined) ?? []);
    return answer({ result });
  } catch (err) {
    if (err instanceof RpcError) return answer({ error: { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) } });
    if (err instanceof TpkitError && err.code === 'DEPENDENCY_MISSING') return answer({ error: { code: -32603, message: err.message } });
    onInternal(err);
    return answer({ error: { code: -32603, message: 'Internal error' } });
  }
}

/**
 * Answers a JSON-RPC request body (already parsed): one request or a batch. Returns the
 * answer to send, or undefined when every request was a notification (no id).
 */
export async function handleJsonRpc(chain: EthChain, body: unknown, onInternal: (err: unknown) => void = () => {}): Promise<unknown> {
  if (Array.isArray(body)) {
    if (body.length === 0) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: empty batch' } };
    if (body.length > MAX_BATCH) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid request: a batch holds at most ${MAX_BATCH} requests` } };
    const answers: object[] = [];
    for (const request of body) {
      const a = await one(chain, request, onInternal);
      if (a) answers.push(a);
    }
    return answers.length ? answers : undefined;
  }
  return one(chain, body, onInternal);
}
