// What the Ethereum JSON-RPC handlers need of the chain, and the block, receipt and
// transaction records it gives them; the node implements it over its ledger (api/contract-routes).

import type { BlockLogs, StoredLog } from './logs.js';
import type { EvmRun } from './runner.js';
import type { EvmLedger } from './state.js';

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
  /** What the sender paid per gas; when the receipt does not say, its transaction's price. */
  gasPrice?: bigint;
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
  /** The events of the blocks from..to that have any, in order, read one block at a time. */
  logs(from: number, to: number): AsyncIterable<BlockLogs>;
  /** eth_getLogs bounds: results of one query and blocks it spans (defaults: 10,000 and 100,000). */
  readonly logLimits?: { results: number; blocks: number };
  /** The most gas a block, and so a transaction, may use. */
  readonly blockGasLimit?: bigint;
  /** The nonce after the account's transactions waiting in order for a block ("pending"). */
  pendingNonce(key: string): bigint;
  /** Accepts a signed Ethereum transaction; resolves to its hash (lowercase hex). */
  sendRawTransaction(raw: Uint8Array): Promise<string>;
  receipt(hash: string): Promise<EthReceipt | undefined>;
  /** Included or still waiting (then without `block`). */
  transaction(hash: string): Promise<EthTransaction | undefined>;
}
