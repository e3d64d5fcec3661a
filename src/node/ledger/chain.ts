// The local chain: the ledger in memory over the store on disk, and the operations on it. Each
// block is one store batch (block-builder.ts) holding the block, its transactions, their
// statuses, the wallets it changed and the chain head, so a crash at any moment leaves either
// the whole block or none of it. An accepted transaction is written ahead in a synced group
// commit before its 200 is sent (submission.ts), a block takes only transactions already on
// disk, and the pending ones are reloaded on start: an acknowledged transaction survives a
// crash. When blocks are made is producer.ts's; the key schema is store/keys.ts; the state and its
// reads are chain-ledger.ts's, which this class extends.

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { encodeTxid } from '../../codec/txid.js';
import { TpkitError, ValidationError } from '../../errors.js';
import type { NodeConfig } from '../config/config.js';
import { CLOCK_KEY, META_KEY, walletKey } from '../store/keys.js';
import type { Store, StoreOp } from '../store/store.js';
import type { BlockRecord } from './block.js';
import { buildBlock, buildGenesisBlock, type Mint } from './block-builder.js';
import { buildGenesis, devAccounts } from './genesis.js';
import { Mempool } from './mempool.js';
import type { NodeTx } from './node-tx.js';
import { storeDamaged, storeIsEmpty } from './chain-check.js';
import { BlockProducer } from './producer.js';
import { restorePending, Submissions } from './submission.js';
import { InlineVerifier, WorkerVerifier, type SignatureVerifier } from './verifier.js';
import { encodeWallet, type Wallet } from './wallet.js';
import { decodeChainMeta } from './chain-meta.js';
import { loadClockOffset, loadWallets } from './chain-restore.js';
import { shuttingDown, type BlockListener, type ChainOptions, type ChainReset, type CommittedBlock, type ResetListener } from './chain-types.js';
import { Listeners } from './listeners.js';
import { WriteQueue } from './write-queue.js';
import { ChainLedger } from './chain-ledger.js';
import { ContractState } from '../evm/contract-state.js';

export type { Mint } from './block-builder.js';
export { shuttingDown, type BlockListener, type ChainOptions, type ChainReset, type CommittedBlock, type ResetListener };

/** Largest balance a wallet can hold in one currency (the reference ledger's uint64). */
const MAX_BALANCE = (1n << 64n) - 1n;

const RETRY_MS = 500;

const utf8 = new TextEncoder();

export class Chain extends ChainLedger {
  private readonly verifier: SignatureVerifier;
  private readonly writes = new WriteQueue();
  private readonly submissions: Submissions;
  private readonly producer: BlockProducer;
  private readonly blockListeners = new Listeners<CommittedBlock>('block', this.logger);
  private readonly resetListeners = new Listeners<ChainReset>('reset', this.logger);
  /** Set while a dev operation rewrites the state: no block is made, no submission admitted. */
  private gate: Promise<void> | undefined;
  /**
   * Moves when a dev operation takes the chain and again when it lets go, so work that read the
   * state before one, or while one held the chain, can tell once it ends.
   */
  private epoch = 0;
  private closed = false;

  private constructor(config: NodeConfig, store: Store, options: ChainOptions) {
    super(config, store, options);
    const onThreadFailure = (err: Error) => this.logger.warn(`signature threads failed to start (${err.message}): signatures are checked on the main thread from now on`);
    this.verifier = config.verifyThreads > 0 ? new WorkerVerifier(config.verifyThreads, onThreadFailure) : new InlineVerifier();
    this.submissions = new Submissions({
      config,
      store,
      logger: this.logger,
      verifier: this.verifier,
      held: this.held,
      mempool: () => this.mempool,
      wallet: (address) => this.wallets.get(address),
      context: () => this.submissionContext(),
      issueTxid: () => this.clock.issueTxid(this.height),
      admit: async () => {
        if (this.closed) throw shuttingDown();
        while (this.gate) await this.gate;
      },
      unblocked: async () => {
        while (this.gate) await this.gate;
      },
      epoch: () => this.epoch,
      accepted: () => {
        if (this.producer.instant) this.schedule();
      },
      runsEvm: (tx) => this.runsEvm(tx),
      loadEvm: () => this.evm(),
      ethTx: (raw) => this.evmPart.ethTx(raw),
      evmNonce: (key) => this.evmLedger().account(key)?.nonce ?? 0n,
      evmBalance: (key) => this.evmLedger().account(key)?.balance ?? 0n,
    });
    this.producer = new BlockProducer({
      config,
      pendingCount: () => this.mempool.size,
      paused: () => this.closed || this.gate !== undefined,
      produce: (force) => this.produce({ force }),
    });
  }

  /** Opens the chain in `store`: creates the genesis block the first time, else resumes. */
  static async open(config: NodeConfig, store: Store, options: ChainOptions = {}): Promise<Chain> {
    try {
      encodeTxid({ chain: config.chain, height: 0, timeNs: 0n, node: config.nodeName });
    } catch (cause) {
      throw new ValidationError('CONFIG_INVALID', `--node-name: ${JSON.stringify(config.nodeName)} cannot end a txid`, { details: 'use letters, digits and . _ ~ - only', cause });
    }
    const chain = new Chain(config, store, options);
    try {
      const meta = await store.get(META_KEY);
      if (meta) await chain.resume(meta);
      // Genesis only where nothing is: a store with records but no head lost its head.
      else if (await storeIsEmpty(store)) await chain.createGenesis();
      else throw storeDamaged(options.storeName ?? 'the store', ['the chain head (key "meta") is missing, yet the store holds chain records']);
      await chain.makeStartupBlock();
    } catch (err) {
      await chain.verifier.close();
      throw err;
    }
    chain.producer.start();
    return chain;
  }

  private async createGenesis(): Promise<void> {
    const genesis = buildGenesis(this.config);
    const block = buildGenesisBlock(this.config.chain, genesis.wallets);
    for (const a of [...genesis.wallets.keys()].sort()) {
      const w = genesis.wallets.get(a)!;
      this.wallets.set(a, w);
      this.owners.note(a, undefined, w);
    }
    this.hash = block.hash;
    this.allocLast = genesis.allocLast;
    this.feeAddress = genesis.feeAddress;
    await this.store.batch([...block.ops, { type: 'put', key: META_KEY, value: this.metaBytes() }], { sync: true });
    this.fresh = true;
    this.logger.info(`genesis block ${block.record.hash} for chain ${this.config.chain}`);
  }

  private async resume(stored: Uint8Array): Promise<void> {
    const meta = decodeChainMeta(stored, this.config);
    this.height = meta.height;
    this.hash = hexToBytes(meta.hash);
    this.time = meta.time;
    this.allocLast = meta.allocLast;
    this.feeAddress = hexToBytes(meta.feeAddress);
    if (meta.accounts !== this.accounts.length) this.accounts = devAccounts({ ...this.config, accounts: meta.accounts });
    this.clock.offsetMs = await loadClockOffset(this.store);
    for (const [address, w] of await loadWallets(this.store)) {
      this.wallets.set(address, w);
      this.owners.note(address, undefined, w);
    }
    this.evmPart.contracts = await ContractState.load(this.store, this.config.limits.slotCacheEntries);
    const pending = await restorePending(this.store, this.submissionContext(), this.logger, (raw) => this.evmPart.ethTx(raw));
    for (const tx of pending) {
      this.mempool.add(tx);
      this.clock.noteIssued(tx.timeNs);
    }
    if (this.clock.unused && this.height > 0) this.clock.noteIssued(BigInt(this.time) * 1_000_000n);
    this.logger.info(`resumed chain ${this.config.chain} at height ${this.height} (${meta.hash}), ${this.wallets.size} wallets, ${pending.length} pending`);
  }

  /**
   * Checks a container and queues it; returns its txid. An identical body already pending or
   * included successfully returns the first txid and queues nothing.
   */
  submit(raw: Uint8Array, options: { hold?: boolean } = {}): Promise<{ txid: string; duplicate: boolean }> {
    return this.submissions.submit(raw, options);
  }

  /** eth_sendRawTransaction: resolves to the txid and the transaction's hash. */
  submitEth(raw: Uint8Array): Promise<{ txid: string; hash: string; duplicate: boolean }> {
    return this.submissions.submitEth(raw);
  }

  /**
   * A chain still at its genesis gets one block at once, so it looks live from its first second:
   * the official SDK ranks nodes by height and drops one at height 0. No empty blocks follow on
   * the interval; blocks come with transactions (or on request).
   */
  private async makeStartupBlock(): Promise<void> {
    if (this.height > 0) return;
    if (!(await this.produce({ force: true }))) {
      throw new ValidationError('STORE_UNAVAILABLE', 'The node could not store its first block', { details: 'check the data directory' });
    }
  }

  /** Calls `listener` after each committed block; returns the function that stops it. */
  onBlock(listener: BlockListener): () => void {
    return this.blockListeners.add(listener);
  }

  /**
   * Makes a block now, even an empty one, with the pending transactions and `mints` (dev API,
   * mine on demand); resolves once it is committed.
   */
  async mineBlock(mints: Mint[] = []): Promise<BlockRecord> {
    for (const m of mints) {
      const held = this.wallets.get(m.address)?.amount.get(m.currency) ?? 0n;
      if (m.amount <= 0n || held + m.amount > MAX_BALANCE) {
        throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid faucet amount', { field: 'amount', details: `the balance must stay within 1 .. 2^64 - 1; it holds ${held} ${m.currency}` });
      }
    }
    for (;;) {
      if (this.closed) throw shuttingDown();
      if (this.gate) await this.gate;
      else if (this.producer.busy) await this.producer.idle();
      else break;
    }
    const record = await this.producer.run(this.produce({ force: true, mints }));
    if (!record) throw new ValidationError('STORE_UNAVAILABLE', 'The node could not store the block', { details: 'retry later' });
    return record;
  }

  /** Asks for a block soon; one block is built at a time. */
  schedule(): void {
    this.producer.schedule();
  }

  /** The block of `txs` and `mints` on the head, not yet committed (block-builder.ts). */
  private buildOn(txs: NodeTx[], mints: Mint[]): ReturnType<typeof buildBlock> {
    return buildBlock({
      config: this.config,
      fees: this.fees,
      feeAddress: this.feeAddress,
      wallets: this.wallets,
      owners: this.owners.map,
      head: { height: this.height, hash: this.hash, time: this.time, allocLast: this.allocLast },
      now: this.now(),
      txs,
      mints,
      metaBytes: (head) => this.metaBytes(head),
      evm: {
        contracts: this.contracts,
        gasRates: this.gasRates,
        runner: async () => (await this.evm()).block,
        limits: { gasLimit: this.evmPart.blockGasLimit, txTimeoutMs: this.config.limits.blockTxTimeoutMs },
        runsEvm: (tx, block) => this.runsEvm(tx, block),
      },
      logger: this.logger,
    });
  }

  /** Builds and commits one block from the front of the mempool, then makes it visible. */
  private async produce(options: { force?: boolean; mints?: Mint[] } = {}): Promise<BlockRecord | undefined> {
    const front = this.mempool.peek(this.config.limits.maxBlockTxs, this.config.limits.maxBlockBytes);
    const mints = options.mints ?? [];
    if (front.length === 0 && !options.force) return undefined;
    let block: Awaited<ReturnType<typeof buildBlock>>;
    try {
      // What does not fit the block gas limit waits for the next block.
      block = await this.buildOn(front, mints);
    } catch (err) {
      // Closing stopped a contract run: the block is dropped, its transactions stay pending on disk.
      if (this.closed || this.evmPart.closed) return undefined;
      throw err;
    }
    const { txs, record, head, statuses } = block;
    try {
      await this.writes.run(() => this.store.batch(block.ops, { sync: this.store.persistent }));
    } catch (err) {
      this.logger.error(`committing block ${head.height} failed, retrying: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, RETRY_MS));
      return undefined;
    }
    // Durable: make the block visible, all in one synchronous step.
    if (block.evm) this.contracts.apply(head.height, block.evm.pending, block.evm.logs.length > 0);
    for (const [a, w] of block.changed) {
      this.owners.note(a, this.wallets.get(a), w);
      this.wallets.set(a, w);
    }
    this.height = head.height;
    this.hash = head.hash;
    this.time = head.time;
    this.allocLast = head.allocLast;
    this.statusCache.add(
      txs.map((tx) => tx.txid),
      statuses,
    );
    this.mempool.remove(txs);
    this.logger.info(`block ${head.height} ${record.hash}: ${txs.length} txs (${block.failedCount} failed)${mints.length ? `, ${mints.length} faucet credit(s)` : ''}`);
    this.blockListeners.tell({ record, txs, statuses });
    return record;
  }

  /** Calls `listener` after a revert, a rollback or a clock move; returns the function that stops it. */
  onReset(listener: ResetListener): () => void {
    return this.resetListeners.add(listener);
  }

  /** Tells the reset listeners about a change of state outside blocks. */
  announce(event: ChainReset['event'], extra: { snapshot?: string } = {}): ChainReset {
    const reset: ChainReset = { event, height: this.height, hash: bytesToHex(this.hash, true), now: this.now(), clockOffsetMs: this.clockOffsetMs, ...extra };
    this.resetListeners.tell(reset);
    return reset;
  }

  /**
   * Runs `work` with the chain at rest: the block being made is finished, every accepted
   * write is on disk, and no block or submission starts until `work` ends (dev API).
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    if (this.closed) throw shuttingDown();
    let open!: () => void;
    this.gate = new Promise<void>((resolve) => (open = resolve));
    this.epoch++;
    try {
      await this.producer.idle();
      await this.submissions.idle();
      await this.writes.idle();
      return await work();
    } finally {
      this.gate = undefined;
      this.epoch++;
      open();
      if (this.mempool.size > 0 && this.producer.instant) this.schedule();
    }
  }

  /** Reads the whole state again from the store, after the dev API rewrote it (call inside exclusive). */
  async reload(): Promise<void> {
    const meta = await this.store.get(META_KEY);
    if (!meta) throw new TpkitError('NODE_INTERNAL', 'The store lost the chain head');
    this.wallets.clear();
    this.owners.clear();
    this.statusCache.clear();
    this.held.clear();
    this.mempool = new Mempool((key) => this.evmLedger().account(key)?.nonce ?? 0n);
    // The clock stays: a txid handed out before the revert is never handed out again.
    await this.resume(meta);
  }

  /** Writes wallets as given, outside any block (dev API state setting; call inside exclusive). */
  async putWallets(changes: Map<string, Wallet>, allocLast = this.allocLast): Promise<void> {
    const ops: StoreOp[] = [...changes].map(([address, w]) => ({ type: 'put', key: walletKey(address), value: encodeWallet(w) }));
    if (allocLast !== this.allocLast) ops.push({ type: 'put', key: META_KEY, value: this.metaBytes({ height: this.height, hash: this.hash, time: this.time, allocLast }) });
    await this.store.batch(ops, { sync: this.store.persistent });
    for (const [address, w] of changes) {
      this.owners.note(address, this.wallets.get(address), w);
      this.wallets.set(address, w);
    }
    this.allocLast = allocLast;
  }

  /** Moves the node clock to the system clock plus `offsetMs`, kept in the store. */
  async setClockOffset(offsetMs: number): Promise<void> {
    await this.store.batch([{ type: 'put', key: CLOCK_KEY, value: utf8.encode(String(offsetMs)) }], { sync: this.store.persistent });
    this.clock.offsetMs = offsetMs;
  }

  /** Stops making blocks, lets the current one finish and writes what is pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.producer.stop();
    // A running view or block transaction is stopped, not waited for: a contract may never end.
    await this.evmPart.close();
    await this.producer.idle();
    await this.submissions.idle();
    await this.writes.idle();
    await this.verifier.close();
    await this.store.close();
  }

  /** Waits until every transaction accepted so far is in a committed block (tests, tools). */
  settle(): Promise<void> {
    return this.producer.settle();
  }
}
