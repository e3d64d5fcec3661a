// The table of Ethereum JSON-RPC methods: each reads the chain (state at the head, blocks,
// events, receipts) or hands a signed transaction to it. Reverts answer 3 with their data, a
// refused transaction -32000 with geth's text, a log query over its bounds -32005.

import { bytesToHex } from '../../bytes.js';
import { TpkitError } from '../../errors.js';
import { intrinsicGas } from './eth-tx.js';
import type { EthBlock, EthChain } from './eth-chain.js';
import { matchesLog, parseLogFilter } from './logs.js';
import { revertReason } from './revert.js';
import { RpcError } from './rpc-error.js';
import { address, atHead, CALL_GAS, callMessage, data, heightOf, invalidParams, quantity } from './rpc-params.js';
import { hex, hexBytes, rpcBlock, rpcLog, rpcReceipt, rpcTransaction } from './rpc-shapes.js';
import type { EvmRun } from './runner.js';
import { slotKey, storageWord } from './state.js';

/** eth_getLogs bounds when the chain names none: results (as providers cap them) and blocks a query spans. */
export const DEFAULT_LOG_LIMITS = { results: 10_000, blocks: 100_000 };
/** eth_getLogs queries running at once; the others wait their turn, so memory stays a multiple of one query's. */
const LOG_QUERIES_AT_ONCE = 2;
/** What GASLIMIT and a block's `gasLimit` say when the chain names no limit. */
const DEFAULT_BLOCK_GAS_LIMIT = 100_000_000n;

function reverted(run: EvmRun): RpcError {
  if (run.end === 'revert') {
    const reason = revertReason(run.returnData).text;
    return new RpcError(3, reason ? `execution reverted: ${reason}` : 'execution reverted', hexBytes(run.returnData));
  }
  return new RpcError(-32000, `execution failed: ${run.error}`);
}

let logQueries = 0;
const logQueue: (() => void)[] = [];
async function oneLogQueryAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (logQueries >= LOG_QUERIES_AT_ONCE) await new Promise<void>((resolve) => logQueue.push(resolve));
  else logQueries++;
  try {
    return await work();
  } finally {
    const next = logQueue.shift();
    if (next) next();
    else logQueries--;
  }
}

async function getLogs(chain: EthChain, filterArg: unknown): Promise<unknown[]> {
  if (!filterArg || typeof filterArg !== 'object') throw invalidParams('expected a filter object');
  const f = filterArg as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown; address?: unknown; topics?: unknown };
  const limits = chain.logLimits ?? DEFAULT_LOG_LIMITS;
  let from: number;
  let to: number;
  if (f.blockHash !== undefined) {
    const b = await chain.block(bytesToHex(data(f.blockHash, 'blockHash')));
    if (!b) throw invalidParams('unknown block hash');
    from = to = b.height;
  } else {
    // A range past the head (a client that saw blocks a revert has dropped) holds no events.
    const past = (tag: unknown, field: string) =>
      typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag) && BigInt(tag) > BigInt(chain.height()) ? Number.MAX_SAFE_INTEGER : heightOf(chain, tag, field);
    from = past(f.fromBlock, 'fromBlock');
    to = past(f.toBlock, 'toBlock');
    if (to < from) {
      if (from === Number.MAX_SAFE_INTEGER) return [];
      throw invalidParams(`"toBlock" ${to} is below "fromBlock" ${from}`);
    }
    to = Math.min(to, chain.height());
    if (to - from + 1 > limits.blocks) throw new RpcError(-32005, `query spans ${to - from + 1} blocks, more than the ${limits.blocks} allowed: ask for a shorter range`);
  }
  let filter: ReturnType<typeof parseLogFilter>;
  try {
    filter = parseLogFilter(f);
  } catch (err) {
    throw invalidParams((err as TpkitError).details ?? (err as Error).message);
  }
  return oneLogQueryAtATime(async () => {
    const out: unknown[] = [];
    // Block by block: only one block's events and the answer so far are in memory.
    for await (const block of chain.logs(from, to)) {
      let header: EthBlock | undefined;
      for (const log of block.logs) {
        if (!matchesLog(filter, log)) continue;
        if (out.length >= limits.results) throw new RpcError(-32005, `query returned more than ${limits.results} results`);
        header ??= (await chain.block(block.height)) ?? undefined;
        out.push(rpcLog(log, block, header?.txHashes[log.txIndex] ?? '', header?.time));
      }
    }
    return out;
  });
}

/**
 * A block, with its transactions as hashes or, asked with `true`, as objects (viem's
 * waitForTransactionReceipt reads their `from` and `nonce` to tell a replaced transaction). A
 * ThePower transaction has no Ethereum form: it shows its hash, position and the zero address.
 */
async function blockAnswer(chain: EthChain, b: EthBlock | undefined, full: unknown) {
  if (!b) return null;
  const block = rpcBlock(b, chain.blockGasLimit ?? DEFAULT_BLOCK_GAS_LIMIT, chain.gasPrice());
  if (full !== true) return block;
  const transactions: object[] = [];
  for (const [index, hash] of b.txHashes.entries()) {
    const t = hash ? await chain.transaction(hash) : undefined;
    const at = { blockHash: hexBytes(b.hash), blockNumber: hex(b.height), transactionIndex: hex(index) };
    transactions.push(
      t ? { ...rpcTransaction(t), ...at } : { hash: hexBytes(hash), from: ZERO_ADDRESS, to: null, nonce: '0x0', gas: '0x0', gasPrice: '0x0', value: '0x0', input: '0x', type: '0x0', ...at },
    );
  }
  return { ...block, transactions };
}

const ZERO_ADDRESS = '0x' + '0'.repeat(40);

type Handler = (chain: EthChain, params: unknown[]) => Promise<unknown> | unknown;

export const METHODS: Record<string, Handler> = {
  eth_chainId: (chain) => hex(chain.ethChainId),
  net_version: (chain) => chain.ethChainId.toString(),
  web3_clientVersion: () => 'tpkit',
  eth_blockNumber: (chain) => hex(chain.height()),
  eth_gasPrice: (chain) => hex(chain.gasPrice()),
  // No base fee is burnt, so an EIP-1559 transaction pays its priority fee (capped by its fee
  // cap): answering the minimum price here makes viem's and ethers' fee estimates meet it.
  eth_maxPriorityFeePerGas: (chain) => hex(chain.gasPrice()),
  eth_accounts: () => [],
  eth_syncing: () => false,
  eth_getBalance: (chain, [who, tag]) => {
    atHead(chain, tag, 'block');
    return hex(chain.ledger().account(address(who, 'address'))?.balance ?? 0n);
  },
  eth_getTransactionCount: (chain, [who, tag]) => {
    const key = address(who, 'address');
    // "pending" counts the transactions waiting in order behind the account's nonce, as geth's
    // pool does: a nonce manager (viem's) asks once, then counts on from there.
    if (tag === 'pending') return hex(chain.pendingNonce(key));
    atHead(chain, tag, 'block');
    return hex(chain.ledger().account(key)?.nonce ?? 0n);
  },
  eth_getCode: (chain, [who, tag]) => {
    atHead(chain, tag, 'block');
    return hexBytes(chain.ledger().code(address(who, 'address')) ?? new Uint8Array(0));
  },
  eth_getStorageAt: async (chain, [who, slot, tag]) => {
    atHead(chain, tag, 'block');
    return hexBytes(storageWord(await chain.ledger().storage(address(who, 'address'), slotKey(quantity(slot, 'slot')))));
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
  eth_getBlockByNumber: async (chain, [tag, full]) => blockAnswer(chain, await chain.block(heightOf(chain, tag, 'block')), full),
  eth_getBlockByHash: async (chain, [hash, full]) => blockAnswer(chain, await chain.block(bytesToHex(data(hash, 'hash'))), full),
  eth_getLogs: (chain, [filter]) => getLogs(chain, filter),
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
    const key = bytesToHex(data(hash, 'hash'));
    const r = await chain.receipt(key);
    if (!r) return null;
    // What the transaction paid per gas, from its own signed fields as the block charged them
    // (eth-tx.ts: legacy gasPrice, EIP-1559 min(maxFee, base fee 0 + priority)), not today's price.
    return rpcReceipt(r, r.gasPrice ?? (await chain.transaction(key))?.gasPrice ?? chain.gasPrice());
  },
  eth_getTransactionByHash: async (chain, [hash]) => {
    const t = await chain.transaction(bytesToHex(data(hash, 'hash')));
    return t ? rpcTransaction(t) : null;
  },
};
