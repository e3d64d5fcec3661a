// The contract endpoints of the reference node (tpnode_httpapi.erl): POST execute/call,
// GET address/{a}/code, …/state, …/state/{slot}, …/statejson, …/statekeys, GET logs/{block
// hash} and logs_height/{h}, and POST /jsonrpc (tpnode_jsonrpc.erl; PowerWallet's viem adds
// ?pwrmatch=1, which changes nothing). The chain is seen through the interface below, so this
// file does not depend on chain.ts.

import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '../../bytes.js';
import { addressToText, parseAddress } from '../../codec/address.js';
import { encodeMsgpack } from '../../codec/msgpack-write.js';
import { TpkitError, ValidationError } from '../../errors.js';
import type { BlockRecord } from '../ledger/block.js';
import type { NodeTx } from '../ledger/node-tx.js';
import type { Reply, RequestContext, Route } from '../http/server.js';
import { addressSubPath } from './unserved-routes.js';
import { toJson, type JsonValue } from '../base/json.js';
import { textChunks } from '../base/json-bytes.js';
import type { Logger } from '../base/log.js';
import type { Store } from '../store/store.js';
import { evmKey } from '../evm/address.js';
import type { ContractState } from '../evm/contract-state.js';
import { logsKey, receiptKey } from '../store/keys.js';
import { decodeEthTx, isEthTx, type EthTxBody } from '../evm/eth-tx.js';
import { executeCallAnswer, parseExecuteCall } from '../evm/execute-call.js';
import { gasPrice } from '../evm/gas.js';
import { handleJsonRpc, RpcError, type EthBlock, type EthChain, type EthReceipt } from '../evm/jsonrpc.js';
import type { BlockLogs, StoredLog } from '../evm/logs.js';
import { logAt, logCount, LogRecords, logsReply } from './logs-answer.js';
import type { EvmRun } from '../evm/runner.js';
import type { EvmThread } from '../evm/evm-thread.js';
import { slotKey, type EvmLedger } from '../evm/state.js';
import { EVM_CURRENCY } from '../evm/ledger-view.js';
import type { GasRate } from '../evm/gas.js';

/** What the contract endpoints need of the chain. */
export interface ContractChain {
  readonly ethChainId: bigint;
  readonly height: number;
  readonly contracts: ContractState;
  readonly gasRates: ReadonlyMap<string, GasRate>;
  readonly store: Store;
  evm(): Promise<{ view: EvmThread }>;
  evmLedger(): EvmLedger;
  /** A view at the head within the view bounds: gas cap, time bound, cancelled by `signal`. */
  view(message: { caller: string; to?: string; data: Uint8Array; value: bigint; gasLimit: bigint }, signal?: AbortSignal): Promise<EvmRun>;
  blockAt(height: number): Promise<BlockRecord | undefined>;
  blockByHash(hashHex: string): Promise<BlockRecord | undefined>;
  txContainer(txid: string): Promise<Uint8Array | undefined>;
  submitEth(raw: Uint8Array): Promise<{ hash: string }>;
  statusJson(txid: string): Promise<string | null>;
  readonly config: { minGasPrice: number; limits: { maxLogResults: number; maxLogBlockRange: number; blockGasLimit: number } };
  /** Transactions waiting for a block, Ethereum ones by hash and in account nonce order. */
  readonly mempool: { txidForBody(hash: string): string | undefined; get(txid: string): NodeTx | undefined; eth: { pendingNonce(key: string): bigint } };
}

const text = new TextDecoder();
/**
 * JSON-RPC answers longer than this are streamed: a receipt of the most events a transaction
 * may emit (10,000, with data for the rest of a 3·10^7 block gas limit) is about 9.3 MiB.
 */
const STREAMED_ABOVE = 1 << 20;
const reply = (body: { [key: string]: JsonValue }, status?: number): Reply => ({ json: toJson(body), status });
const octets = (bytes: Uint8Array): Reply => ({ json: { chunks: [Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)], byteLength: bytes.length }, contentType: 'application/octet-stream' });

function jsonBody(ctx: RequestContext): unknown {
  try {
    return JSON.parse(Buffer.from(ctx.body.buffer, ctx.body.byteOffset, ctx.body.byteLength).toString('utf8'));
  } catch {
    throw new ValidationError('NOT_JSON', 'Request body is not JSON', { details: ctx.body.length === 0 ? 'empty body' : 'expected a JSON object' });
  }
}

/** The EVM key of a wallet named by address text or 0x + 16 hex digits (the reference's forms). */
function contractKey(text: string): { key: string; address: Uint8Array } {
  const address = parseAddress(text);
  return { key: evmKey(address), address };
}

function noCode(address: Uint8Array): ValidationError {
  return new ValidationError('WALLET_NOT_FOUND', 'Not found', { details: `no contract at ${addressToText(address)}` });
}

/** A storage slot from the path: 0x + hex (the reference's and SDK's form, leading zeros optional) or base64. */
function slotParam(param: string): string {
  if (/^0x[0-9a-fA-F]{1,64}$/.test(param)) return slotKey(BigInt(param));
  try {
    const bytes = Buffer.from(param, 'base64');
    if (bytes.length > 0 && bytes.length <= 32) return slotKey(BigInt('0x' + bytes.toString('hex')));
  } catch {
    // reported below
  }
  throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid storage key', { details: `expected 0x and up to 64 hex digits, got ${JSON.stringify(param).slice(0, 80)}` });
}

/** A slot key as the reference keys storage: the number's bytes without leading zeros. */
function slotBytes(slot: string): Uint8Array {
  const trimmed = slot.replace(/^(00)+/, '');
  return hexToBytes(trimmed.length === 0 ? '00' : trimmed);
}

async function blockLogs(store: Store, height: number): Promise<BlockLogs | undefined> {
  const bytes = await store.get(logsKey(height));
  return bytes ? (JSON.parse(text.decode(bytes)) as BlockLogs) : undefined;
}

/** Why a view ends without a result: stopped (time bound, hang-up, shutdown) or never queued. */
const STOPPED_VIEW = new Set(['EVM_TIMEOUT', 'EVM_BUSY', 'ABORTED', 'NODE_SHUTTING_DOWN']);

/** The chain as the JSON-RPC handlers see it; `signal` cancels the request's views (the client hung up). */
export function ethChain(chain: ContractChain, signal?: AbortSignal, records = new LogRecords(chain.store)): EthChain {
  const txHashes = async (record: BlockRecord): Promise<string[]> => {
    const out: string[] = [];
    for (const txid of record.txs) {
      const raw = await chain.txContainer(txid);
      out.push(raw ? bytesToHex(keccak_256(raw)) : '');
    }
    return out;
  };
  const ethBlock = async (record: BlockRecord | undefined): Promise<EthBlock | undefined> =>
    record && {
      height: record.header.height,
      hash: record.hash.toLowerCase(),
      parent: record.header.parent.toLowerCase(),
      txroot: record.header.roots.txroot.toLowerCase(),
      balroot: record.header.roots.balroot.toLowerCase(),
      time: record.time,
      txHashes: await txHashes(record),
    };
  return {
    ethChainId: chain.ethChainId,
    height: () => chain.height,
    block: async (ref) => ethBlock(typeof ref === 'number' ? await chain.blockAt(ref) : await chain.blockByHash(ref)),
    ledger: () => chain.evmLedger(),
    async view(m) {
      try {
        return await chain.view(m, signal);
      } catch (err) {
        // geth's answer to a view it stopped or could not queue: -32000 and the reason.
        if (err instanceof TpkitError && STOPPED_VIEW.has(err.code)) throw new RpcError(-32000, err.shortMessage);
        throw err;
      }
    },
    gasPrice: () => {
      const min = BigInt(chain.config.minGasPrice);
      const rated = gasPrice(chain.gasRates.get(EVM_CURRENCY));
      return rated > min ? rated : min;
    },
    get logLimits() {
      return { results: chain.config.limits.maxLogResults, blocks: chain.config.limits.maxLogBlockRange };
    },
    blockGasLimit: BigInt(chain.config.limits.blockGasLimit),
    pendingNonce: (key) => chain.mempool.eth.pendingNonce(key),
    async *logs(from, to) {
      for (const h of chain.contracts.logHeightsIn(from, to)) {
        const logs = await blockLogs(chain.store, h);
        if (logs) yield { ...logs, hash: logs.hash.toLowerCase() };
      }
    },
    async sendRawTransaction(raw) {
      return (await chain.submitEth(raw)).hash;
    },
    async receipt(hash) {
      const bytes = await chain.store.get(receiptKey(hash));
      if (!bytes) return undefined;
      const r = JSON.parse(text.decode(bytes)) as Omit<EthReceipt, 'gasUsed' | 'logs' | 'blockHash'> & { gasUsed: string };
      const record = await chain.blockAt(r.height);
      if (!record) return undefined;
      // Only this transaction's events are parsed out of the block's record (at most MAX_EVENTS_PER_TX).
      const events = await records.read(r.height, record.hash);
      const logs: StoredLog[] = [];
      for (let i = 0; i < logCount(events); i++) {
        const l = logAt(events!, i);
        if (l.txid === r.txid) logs.push(l);
      }
      return { ...r, blockHash: record.hash.toLowerCase(), gasUsed: BigInt(r.gasUsed), logs };
    },
    async transaction(hash) {
      const bytes = await chain.store.get(receiptKey(hash));
      if (!bytes) {
        // Acknowledged and still waiting for a block (or for an earlier nonce): shown without one.
        const txid = chain.mempool.txidForBody(hash);
        const waiting = txid === undefined ? undefined : chain.mempool.get(txid);
        if (waiting?.body.kind !== 'ether') return undefined;
        const t = waiting.body as unknown as EthTxBody;
        return { ...t, to: t.to ?? null, gas: t.gasLimit, input: bytesToHex(t.data) };
      }
      const r = JSON.parse(text.decode(bytes)) as { txid: string; height: number; index: number };
      const raw = await chain.txContainer(r.txid);
      const record = await chain.blockAt(r.height);
      if (!raw || !record || !isEthTx(raw)) return undefined;
      const { view } = await chain.evm();
      const t = decodeEthTx(raw, view.library, view.common, chain.ethChainId);
      return { ...t, to: t.to ?? null, gas: t.gasLimit, input: bytesToHex(t.data), block: { height: r.height, hash: record.hash, index: r.index } };
    },
  };
}

/** The routes, and the handler of address/{a}/{sub} (the main routes own address/{a}/seq). */
export function createContractRoutes(chain: ContractChain, logger: Logger): { routes: Route[]; address: Route['handler'] } {
  const records = new LogRecords(chain.store);
  const address: Route['handler'] = async (ctx) => {
    const sub = ctx.params[1];
    if (sub !== 'code' && sub !== 'state' && sub !== 'statejson' && sub !== 'statekeys') addressSubPath(ctx.params);
    const { key, address } = contractKey(ctx.params[0]);
    if (sub === 'code') {
      const code = chain.contracts.code.get(key);
      if (!code) throw noCode(address);
      return octets(code);
    }
    if (!chain.contracts.code.has(key)) throw noCode(address);
    const slots: [string, Uint8Array][] = [];
    for await (const entry of chain.contracts.slots(key)) slots.push(entry);
    if (sub === 'statekeys') {
      return reply({ notice: 'Only for debugging. Do not use it in scripts!!!', keys: slots.map(([s]) => '0x' + bytesToHex(slotBytes(s))), ok: true });
    }
    if (sub === 'state') return octets(encodeMsgpack(new Map(slots.map(([s, v]) => [slotBytes(s), v]))));
    const out: { [key: string]: JsonValue } = {};
    for (const [s, v] of slots) out[Buffer.from(slotBytes(s)).toString('base64')] = Buffer.from(v).toString('base64');
    return reply(out);
  };
  const get = (prefix: string[], params: number | 'rest', handler: Route['handler']): Route => ({ method: 'GET', prefix, params, handler });
  const routes: Route[] = [
    {
      method: 'POST',
      prefix: ['execute', 'call'],
      params: 0,
      handler: async (ctx) => {
        const { view } = await chain.evm();
        const request = parseExecuteCall(jsonBody(ctx), view.library);
        const run = await chain.view(request, ctx.signal);
        return reply(executeCallAnswer(run, request.caller) as { [key: string]: JsonValue });
      },
    },
    {
      method: 'POST',
      prefix: ['jsonrpc'],
      params: 0,
      handler: async (ctx) => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.from(ctx.body.buffer, ctx.body.byteOffset, ctx.body.byteLength).toString('utf8'));
        } catch {
          return { json: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } }) };
        }
        const answer = await handleJsonRpc(ethChain(chain, ctx.signal, records), body, (err) => logger.error(`jsonrpc: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
        const json = answer === undefined ? '' : JSON.stringify(answer);
        if (json.length <= STREAMED_ABOVE) return { json };
        // A large answer goes out as block answers do, a chunk as the reader takes the last, and a
        // reader that takes nothing is cut off at the stall limit instead of holding it for good.
        const chunks = textChunks(json);
        return { json: { stream: async (write) => void (await write(chunks.splice(0))) } };
      },
    },
    get(['address'], 3, async (ctx) => {
      if (ctx.params[1] !== 'state') throw new ValidationError('ROUTE_NOT_FOUND', 'No such endpoint', { details: `/api/address/${ctx.params.join('/')}` });
      const { key, address } = contractKey(ctx.params[0]);
      if (!chain.contracts.code.has(key)) throw noCode(address);
      return octets((await chain.contracts.storageValue(key, slotParam(ctx.params[2]))) ?? new Uint8Array(0));
    }),
    get(['logs'], 1, async (ctx) => {
      const id = ctx.params[0].replace(/^0x/, '');
      if (!/^[0-9a-fA-F]{64}$/.test(id))
        throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid block id', { details: `expected a 64-digit hex hash, got ${JSON.stringify(ctx.params[0]).slice(0, 80)}` });
      const record = await chain.blockByHash(id);
      if (!record) throw new ValidationError('BLOCK_NOT_FOUND', 'Not found', { details: `no block ${id}` });
      return logsReply(record, await records.read(record.header.height, record.hash));
    }),
    get(['logs_height'], 1, async (ctx) => {
      if (!/^\d{1,15}$/.test(ctx.params[0]))
        throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid block height', { details: `expected a non-negative integer, got ${JSON.stringify(ctx.params[0]).slice(0, 80)}` });
      const height = Number(ctx.params[0]);
      const record = await chain.blockAt(height);
      if (!record) throw new ValidationError('BLOCK_NOT_FOUND', 'Not found', { details: `no block at height ${height}` });
      return logsReply(record, await records.read(height, record.hash));
    }),
  ];
  return { routes, address };
}
