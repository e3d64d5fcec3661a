// The chain's state and its reads: the head, the wallets and their index by key, the pending
// transactions, the statuses kept in memory, blocks and containers read from the store, the
// node clock, and the contract state and EVM threads (chain-evm.ts). Chain (chain.ts) adds what
// changes it: submissions, blocks, the dev API's operations and shutdown.

import { decodeTxid } from '../../codec/txid.js';
import { ValidationError } from '../../errors.js';
import type { FeeRate } from '../../codec/fee.js';
import { silentLogger, type Logger } from '../base/log.js';
import type { NodeConfig } from '../config/config.js';
import { hashKey, heightKey, META_KEY, statusKey, txKey } from '../store/keys.js';
import type { Store, StoreOp } from '../store/store.js';
import type { BlockRecord } from './block.js';
import type { Head } from './block-builder.js';
import { NodeClock } from './clock.js';
import { feeRates } from './fees.js';
import { devAccounts, type DevAccount } from './genesis.js';
import { Mempool } from './mempool.js';
import type { NodeTx } from './node-tx.js';
import type { SubmissionContext } from './validate.js';
import { ZERO_HASH, type Wallet } from './wallet.js';
import { encodeChainMeta } from './chain-meta.js';
import type { ChainOptions } from './chain-types.js';
import { OwnerIndex } from './owner-index.js';
import { StatusCache } from './status-cache.js';
import type { ContractState } from '../evm/contract-state.js';
import type { GasRate } from '../evm/gas.js';
import type { EvmRun } from '../evm/runner.js';
import type { EvmLedger } from '../evm/state.js';
import { ChainEvm, type EvmThreads, type ViewMessage } from './chain-evm.js';
import type { EvmBlock } from './contract-tx.js';

const STATUS_CACHE = 100_000;

const text = new TextDecoder();
const json = (bytes: Uint8Array) => JSON.parse(text.decode(bytes));

export abstract class ChainLedger {
  mempool = new Mempool((key) => this.evmLedger().account(key)?.nonce ?? 0n);
  readonly wallets = new Map<string, Wallet>();
  readonly fees: Map<string, FeeRate>;
  /** The development accounts of the genesis (their number is fixed when the chain is created). */
  accounts: DevAccount[];
  height = 0;
  hash: Uint8Array = ZERO_HASH;
  time = 0;
  allocLast = 0;
  feeAddress: Uint8Array = new Uint8Array(8);
  /** True when this start created the chain (genesis), false when it resumed one. */
  fresh = false;
  /** Contract state, gas rates and the EVM threads (chain-evm.ts). */
  readonly evmPart: ChainEvm;

  protected readonly clock: NodeClock;
  protected readonly logger: Logger;
  protected readonly owners = new OwnerIndex();
  protected readonly statusCache: StatusCache;
  /** Accepted transactions a fault rule keeps pending forever: never in a block. */
  protected readonly held = new Set<string>();

  protected constructor(
    readonly config: NodeConfig,
    readonly store: Store,
    options: ChainOptions,
  ) {
    this.clock = new NodeClock(options.clock ?? Date.now, config.chain, config.nodeName);
    this.logger = options.logger ?? silentLogger;
    this.statusCache = new StatusCache(options.statusCacheEntries ?? STATUS_CACHE);
    this.evmPart = new ChainEvm(config.chain, config.minGasPrice, config.limits, (a) => this.wallets.get(a), store);
    this.fees = feeRates(config);
    this.accounts = devAccounts(config);
  }

  protected metaBytes(head: Head = this): Uint8Array {
    return encodeChainMeta(this.config, { feeAddress: this.feeAddress, accounts: this.accounts.length }, head);
  }

  /** The node's clock: the system clock moved by the dev API's offset. */
  now(): number {
    return this.clock.now();
  }

  /** Added to the system clock for block times, txids and the timestamp window (dev API `time`). */
  get clockOffsetMs(): number {
    return this.clock.offsetMs;
  }

  protected submissionContext(): SubmissionContext {
    return {
      now: this.now(),
      chain: this.config.chain,
      difficulty: this.config.difficulty,
      limits: this.config.limits,
      wallet: (address) => this.wallets.get(address),
    };
  }

  get contracts(): ContractState {
    return this.evmPart.contracts;
  }

  get gasRates(): Map<string, GasRate> {
    return this.evmPart.gasRates;
  }

  get ethChainId(): bigint {
    return this.evmPart.ethChainId;
  }

  /** The EVM threads, started on first use (loading the EVM packages). */
  evm(): Promise<EvmThreads> {
    return this.evmPart.evm();
  }

  /** The committed state as the EVM reads it. */
  evmLedger(): EvmLedger {
    return this.evmPart.ledger();
  }

  /** A view at the head, within the view bounds (chain-evm.ts). */
  view(message: ViewMessage, signal?: AbortSignal): Promise<EvmRun> {
    return this.evmPart.view(message, this.height, signal, () => this.logger.debug(`view of ${message.to ?? 'a deploy'} running at height ${this.height}`));
  }

  /** Whether a transaction runs on the EVM: a deploy, an Ethereum one, or a call to a wallet with code. */
  runsEvm(tx: NodeTx, block?: EvmBlock): boolean {
    return this.evmPart.runsEvm(tx, block);
  }

  /** Transaction statuses held in memory: at most `statusCacheEntries`. */
  get cachedStatuses(): number {
    return this.statusCache.size;
  }

  /**
   * GET /api/tx/status: null while pending, else the result object as JSON. An id this node
   * never acknowledged is a TX_NOT_FOUND, so a client never polls forever for it.
   */
  async statusJson(txid: string): Promise<string | null> {
    decodeTxid(txid); // a malformed txid is a 400, not a silent null
    if (this.mempool.get(txid) || this.held.has(txid)) return null;
    const cached = this.statusCache.get(txid);
    if (cached) return cached;
    const stored = await this.store.get(statusKey(txid));
    if (stored) return text.decode(stored);
    throw new ValidationError('TX_NOT_FOUND', 'Unknown transaction', { details: `this node has no transaction ${txid}` });
  }

  async blockAt(height: number): Promise<BlockRecord | undefined> {
    if (!Number.isSafeInteger(height) || height < 0 || height > this.height) return undefined;
    const bytes = await this.store.get(heightKey(height));
    return bytes ? (json(bytes) as BlockRecord) : undefined;
  }

  async blockByHash(hashHex: string): Promise<BlockRecord | undefined> {
    const h = await this.store.get(hashKey(hashHex));
    return h ? this.blockAt(Number(text.decode(h))) : undefined;
  }

  txContainer(txid: string): Promise<Uint8Array | undefined> {
    return this.store.get(txKey(txid));
  }

  /** The store operation that moves the chain head (dev API rollback). */
  headOp(head: Head): StoreOp {
    return { type: 'put', key: META_KEY, value: this.metaBytes(head) };
  }

  /** The wallet address a key hex owns, if any. */
  ownerOf(keyHex: string): string | undefined {
    return this.owners.get(keyHex);
  }

  /** Stops the EVM threads: a running view or block transaction ends now (shutdown). */
  stopEvm(): Promise<void> {
    return this.evmPart.close();
  }
}
