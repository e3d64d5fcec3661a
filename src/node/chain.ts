// The local chain: the ledger in memory, the store on disk, the mempool and the block
// producer. Each block is one store batch holding the block, its transactions, their statuses,
// the wallets it changed and the chain head, so a crash at any moment leaves either the whole
// block or none of it. An accepted transaction is written ahead (`p:` key) in a synced group
// commit before its 200 is sent, a block takes only transactions already on disk, and the
// pending ones are reloaded on start: an acknowledged transaction survives a crash.
//
// Store keys:
//   meta            chain head and genesis parameters (JSON)
//   b:<height>      block record (JSON), height as 12 hex digits so keys sort by height
//   h:<HASH>        height of a block hash
//   x:<txid>        transaction container as received
//   s:<txid>        status JSON as GET /api/tx/status answers it
//   d:<body hash>   txid of the included, successful transaction with that body
//   w:<address>     wallet (JSON)
//   p:<txid>        pending transaction container
//   dev:clock       offset of the node clock from the system clock, ms (dev API `time`)

import { bytesToHex, hexToBytes } from '../bytes.js';
import { addressToText, makeAddress } from '../codec/address.js';
import { decodeTxid, encodeTxid } from '../codec/txid.js';
import { TpkitError, ValidationError } from '../errors.js';
import { applyTx, BlockDraft, depositFees, type ApplyContext, type TxOutcome } from './apply.js';
import { walletBefore } from './ledger-patch.js';
import { blockHash, blockRecord, txRoot, type BlockRecord } from './block.js';
import type { NodeConfig } from './config.js';
import type { FeeRate } from '../codec/fee.js';
import { buildGenesis, devAccounts, type DevAccount } from './genesis.js';
import type { JsonValue } from './json.js';
import { silentLogger, type Logger } from './log.js';
import { GroupCommit } from './group-commit.js';
import { Mempool } from './mempool.js';
import { merkleRoot } from './merkle.js';
import type { NodeTx } from './node-tx.js';
import { feeRates, settingsTree } from './settings.js';
import type { Store, StoreOp } from './store.js';
import { prepareSubmission, validateSubmission, type SubmissionContext } from './validate.js';
import { InlineVerifier, WorkerVerifier, type SignatureVerifier } from './verifier.js';
import { decodeWallet, encodeWallet, storedWallet, walletStateBytes, ZERO_HASH, type Wallet } from './wallet.js';
import type { ChainReset } from '../dev-wire.js';

/** Development money: credited in the next block, outside any transaction (dev API faucet). */
export interface Mint {
  /** Lowercase address hex. */
  address: string;
  currency: string;
  amount: bigint;
}

/** A block just committed, with what it did, for the live update stream. */
export interface CommittedBlock {
  record: BlockRecord;
  txs: NodeTx[];
  /** Status JSON of each transaction, in the order of `txs`. */
  statuses: string[];
}

export type BlockListener = (block: CommittedBlock) => void;

export type { ChainReset };

export type ResetListener = (reset: ChainReset) => void;

/** Largest balance a wallet can hold in one currency (the reference ledger's uint64). */
const MAX_BALANCE = (1n << 64n) - 1n;

export interface ChainOptions {
  /** Milliseconds since the epoch; tests inject a fixed clock to replay old vectors. */
  clock?: () => number;
  logger?: Logger;
}

interface Meta {
  version: 1;
  chain: number;
  allocGroup: number;
  nodeName: string;
  feeAddress: string;
  accounts: number;
  height: number;
  hash: string;
  time: number;
  allocLast: number;
}

const STATUS_CACHE = 100_000;
/** Transactions applied or serialized between two turns of the event loop. */
const SLICE = 256;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const RETRY_MS = 500;

const utf8 = new TextEncoder();
const text = new TextDecoder();
const json = (bytes: Uint8Array) => JSON.parse(text.decode(bytes));
export const heightKey = (h: number) => 'b:' + h.toString(16).padStart(12, '0');

/** Runs store writes one after another, in the order they were queued. */
class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(write: () => Promise<T>): Promise<T> {
    const next = this.tail.then(write, write);
    this.tail = next.catch(() => undefined);
    return next;
  }
  idle(): Promise<unknown> {
    return this.tail;
  }
}

export class Chain {
  mempool = new Mempool();
  readonly wallets = new Map<string, Wallet>();
  readonly fees: Map<string, FeeRate>;
  /** The development accounts of the genesis (their number is fixed when the chain is created). */
  accounts: DevAccount[];
  height = 0;
  hash: Uint8Array = ZERO_HASH;
  time = 0;
  allocLast = 0;
  feeAddress: Uint8Array = new Uint8Array(8);
  settings: { [key: string]: JsonValue } = {};
  /** True when this start created the chain (genesis), false when it resumed one. */
  fresh = false;
  /** Added to the system clock for block times, txids and the timestamp window (dev API `time`). */
  clockOffsetMs = 0;

  private readonly clock: () => number;
  private readonly logger: Logger;
  private readonly verifier: SignatureVerifier;
  private readonly writes = new WriteQueue();
  private readonly pendingWrites: GroupCommit;
  /** Wallet address by the hex of its key: a register of a key that has a wallet gets that wallet. */
  private readonly owners = new Map<string, string>();
  private readonly statusCache = new Map<string, string>();
  private lastTimeNs = 0n;
  private producing: Promise<unknown> | undefined;
  private readonly blockListeners = new Set<BlockListener>();
  private readonly resetListeners = new Set<ResetListener>();
  /** Set while a dev operation rewrites the state: no block is made, no submission admitted. */
  private gate: Promise<void> | undefined;
  /** Accepted transactions a fault rule keeps pending forever: never in a block. */
  private readonly held = new Set<string>();
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    readonly config: NodeConfig,
    readonly store: Store,
    options: ChainOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.logger = options.logger ?? silentLogger;
    this.fees = feeRates(config);
    this.accounts = devAccounts(config);
    this.verifier = config.verifyThreads > 0 ? new WorkerVerifier(config.verifyThreads) : new InlineVerifier();
    this.pendingWrites = new GroupCommit((ops) => this.store.batch(ops, { sync: this.store.persistent }));
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
      const meta = await store.get('meta');
      if (meta) await chain.resume(json(meta) as Meta);
      else await chain.createGenesis();
    } catch (err) {
      await chain.verifier.close();
      throw err;
    }
    chain.refreshSettings();
    try {
      await chain.makeStartupBlock();
    } catch (err) {
      await chain.verifier.close();
      throw err;
    }
    chain.start();
    return chain;
  }

  private async createGenesis(): Promise<void> {
    const genesis = buildGenesis(this.config);
    const ops: StoreOp[] = [];
    const addresses = [...genesis.wallets.keys()].sort();
    // A fixed time: the same config always gives the same genesis hash.
    const header = {
      chain: this.config.chain,
      height: 0,
      parent: ZERO_HASH,
      txroot: merkleRoot([]),
      balroot: merkleRoot(addresses.map((a) => walletStateBytes(a, genesis.wallets.get(a)!))),
      time: 0,
    };
    const hash = blockHash(header);
    const bals: Record<string, unknown> = {};
    for (const a of addresses) {
      const w = genesis.wallets.get(a)!;
      w.lastblk = hash;
      this.wallets.set(a, w);
      this.noteOwner(a, undefined, w);
      const stored = encodeWallet(w);
      bals[a.toUpperCase()] = { ...json(stored), was: null };
      ops.push({ type: 'put', key: 'w:' + a, value: stored });
    }
    const record = blockRecord(header, hash, { txs: [], failed: {}, registered: {}, bals });
    this.hash = hash;
    this.allocLast = genesis.allocLast;
    this.feeAddress = genesis.feeAddress;
    ops.push({ type: 'put', key: heightKey(0), value: utf8.encode(JSON.stringify(record)) });
    ops.push({ type: 'put', key: 'h:' + record.hash, value: utf8.encode('0') });
    ops.push({ type: 'put', key: 'meta', value: this.metaBytes() });
    await this.store.batch(ops, { sync: true });
    this.fresh = true;
    this.logger.info(`genesis block ${record.hash} for chain ${this.config.chain}`);
  }

  private async resume(meta: Meta): Promise<void> {
    const c = this.config;
    if (meta.chain !== c.chain || meta.allocGroup !== c.allocGroup) {
      throw new ValidationError('CONFIG_INVALID', 'The data directory holds another chain', {
        details: `it has chain ${meta.chain} (group ${meta.allocGroup}); the config asks for chain ${c.chain} (group ${c.allocGroup}): use another --data-dir or the same settings`,
      });
    }
    this.height = meta.height;
    this.hash = hexToBytes(meta.hash);
    this.time = meta.time;
    this.allocLast = meta.allocLast;
    this.feeAddress = hexToBytes(meta.feeAddress);
    if (meta.accounts !== this.accounts.length) this.accounts = devAccounts({ ...c, accounts: meta.accounts });
    const offset = await this.store.get('dev:clock');
    this.clockOffsetMs = offset ? Number(text.decode(offset)) : 0;
    for await (const [key, value] of this.store.entries('w:')) {
      const w = decodeWallet(value);
      this.wallets.set(key.slice(2), w);
      this.noteOwner(key.slice(2), undefined, w);
    }
    // Wallets stored before heights were kept: the height of their last block, from its hash.
    for (const w of this.wallets.values()) {
      if (w.height >= 0) continue;
      const h = await this.store.get('h:' + bytesToHex(w.lastblk, true));
      w.height = h ? Number(text.decode(h)) : 0;
    }
    const pending: NodeTx[] = [];
    const refused: StoreOp[] = [];
    for await (const [key, raw] of this.store.entries('p:')) {
      const txid = key.slice(2);
      if (await this.store.get('s:' + txid)) continue; // included already
      try {
        const tx = validateSubmission(raw, this.submissionContext(), { restoring: true });
        tx.txid = txid;
        tx.timeNs = decodeTxid(txid).timeNs;
        pending.push(tx);
      } catch (err) {
        // It was acknowledged, so it must end with a status: failed, with the reason.
        const reason = err instanceof TpkitError ? err.code.toLowerCase() : 'invalid';
        this.logger.warn(`pending ${txid} no longer passes the checks, recorded as failed: ${(err as Error).message}`);
        refused.push({ type: 'del', key: 'p:' + txid }, { type: 'put', key: 's:' + txid, value: utf8.encode(`{"error":true,"res":"${reason}"}`) });
      }
    }
    if (refused.length > 0) await this.store.batch(refused, { sync: true });
    pending.sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0));
    for (const tx of pending) {
      this.mempool.add(tx);
      if (tx.timeNs > this.lastTimeNs) this.lastTimeNs = tx.timeNs;
    }
    if (this.lastTimeNs === 0n && this.height > 0) this.lastTimeNs = BigInt(this.time) * 1_000_000n;
    this.logger.info(`resumed chain ${c.chain} at height ${this.height} (${meta.hash}), ${this.wallets.size} wallets, ${pending.length} pending`);
  }

  private metaBytes(head: { height: number; hash: Uint8Array; time: number; allocLast: number } = this): Uint8Array {
    const meta: Meta = {
      version: 1,
      chain: this.config.chain,
      allocGroup: this.config.allocGroup,
      nodeName: this.config.nodeName,
      feeAddress: bytesToHex(this.feeAddress),
      accounts: this.accounts.length,
      height: head.height,
      hash: bytesToHex(head.hash, true),
      time: head.time,
      allocLast: head.allocLast,
    };
    return utf8.encode(JSON.stringify(meta));
  }

  private refreshSettings(): void {
    this.settings = settingsTree({ config: this.config, feeAddress: this.feeAddress, allocLast: this.allocLast });
  }

  /** The node's clock: the system clock moved by the dev API's offset. */
  now(): number {
    return this.clock() + this.clockOffsetMs;
  }

  /** A txid for a transaction accepted now: its time part is strictly increasing. */
  private nextTxid(): { txid: string; timeNs: bigint } {
    let timeNs = BigInt(this.now()) * 1_000_000n;
    if (timeNs <= this.lastTimeNs) timeNs = this.lastTimeNs + 1n;
    this.lastTimeNs = timeNs;
    return { txid: encodeTxid({ chain: this.config.chain, height: this.height, timeNs, node: this.config.nodeName }), timeNs };
  }

  private submissionContext(): SubmissionContext {
    return {
      now: this.now(),
      chain: this.config.chain,
      difficulty: this.config.difficulty,
      limits: this.config.limits,
      wallet: (address) => this.wallets.get(address),
    };
  }

  /**
   * Checks a container and queues it; returns its txid. An identical body already pending or
   * included successfully returns the first txid and queues nothing.
   */
  async submit(raw: Uint8Array, options: { hold?: boolean } = {}): Promise<{ txid: string; duplicate: boolean }> {
    if (this.closed) throw new ValidationError('MEMPOOL_FULL', 'The node is shutting down');
    while (this.gate) await this.gate;
    const prepared = prepareSubmission(raw, this.submissionContext());
    const tx = prepared.complete(prepared.jobs.length ? await this.verifier.verify(prepared.jobs) : []);
    while (this.gate) await this.gate;
    if (options.hold) {
      // Acknowledged and never included: a wallet's "stuck transaction" path (dev API faults).
      // Held ones count against the pending limit, so a flood under a hold rule stays bounded.
      if (this.held.size + this.mempool.size >= this.config.limits.maxPending) {
        throw new ValidationError('MEMPOOL_FULL', 'Too many pending transactions', { details: `${this.held.size} are held by a fault rule; revert, roll back or restart to drop them` });
      }
      const { txid } = this.nextTxid();
      this.held.add(txid);
      return { txid, duplicate: false };
    }
    let pending = this.mempool.txidForBody(tx.bodyHash);
    if (pending) return { txid: pending, duplicate: true };
    if (this.mayBeIncluded(tx)) {
      const included = await this.store.get('d:' + tx.bodyHash);
      if (included) return { txid: text.decode(included), duplicate: true };
      pending = this.mempool.txidForBody(tx.bodyHash); // it may have arrived meanwhile
      if (pending) return { txid: pending, duplicate: true };
    }
    const full = this.mempool.refusal(tx, this.config.limits);
    if (full) throw full;
    // The txid is taken only now, so a rejected or duplicate transaction consumes none.
    const { txid, timeNs } = this.nextTxid();
    tx.txid = txid;
    tx.timeNs = timeNs;
    this.mempool.add(tx, false);
    try {
      await this.pendingWrites.add({ type: 'put', key: 'p:' + txid, value: tx.raw });
    } catch (cause) {
      this.mempool.drop(tx);
      this.logger.error(`writing pending transactions failed: ${(cause as Error).message}`);
      throw new ValidationError('STORE_UNAVAILABLE', 'The node could not store the transaction', { details: 'it was not accepted; retry later', cause });
    }
    this.mempool.markDurable(tx);
    if (this.config.instant && !this.config.mineOnDemand) this.schedule();
    return { txid, duplicate: false };
  }

  /** Only a register, or a sender transaction whose seq is already used, can repeat an included one. */
  private mayBeIncluded(tx: NodeTx): boolean {
    const b = tx.body;
    if (b.kind === 'register') return true;
    const w = this.wallets.get(bytesToHex(b.from));
    return w !== undefined && b.seq <= w.seq;
  }

  /** The wallet index by key follows a wallet whose key is new or changed. */
  private noteOwner(address: string, before: Wallet | undefined, after: Wallet): void {
    const old = before?.pubkey ? bytesToHex(before.pubkey) : undefined;
    const key = after.pubkey ? bytesToHex(after.pubkey) : undefined;
    if (old === key) return;
    if (old !== undefined && this.owners.get(old) === address) this.owners.delete(old);
    if (key !== undefined && !this.owners.has(key)) this.owners.set(key, address);
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
    const stored = await this.store.get('s:' + txid);
    if (stored) return text.decode(stored);
    throw new ValidationError('TX_NOT_FOUND', 'Unknown transaction', { details: `this node has no transaction ${txid}` });
  }

  async blockAt(height: number): Promise<BlockRecord | undefined> {
    if (!Number.isSafeInteger(height) || height < 0 || height > this.height) return undefined;
    const bytes = await this.store.get(heightKey(height));
    return bytes ? (json(bytes) as BlockRecord) : undefined;
  }

  async blockByHash(hashHex: string): Promise<BlockRecord | undefined> {
    const h = await this.store.get('h:' + hashHex.toUpperCase());
    return h ? this.blockAt(Number(text.decode(h))) : undefined;
  }

  txContainer(txid: string): Promise<Uint8Array | undefined> {
    return this.store.get('x:' + txid);
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
    this.blockListeners.add(listener);
    return () => this.blockListeners.delete(listener);
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
      if (this.closed) throw new ValidationError('MEMPOOL_FULL', 'The node is shutting down');
      if (this.gate) await this.gate;
      else if (this.producing) await this.producing.catch(() => undefined);
      else break;
    }
    const made = this.produce({ force: true, mints });
    this.producing = made.finally(() => {
      this.producing = undefined;
    });
    const record = await made;
    if (!record) throw new ValidationError('STORE_UNAVAILABLE', 'The node could not store the block', { details: 'retry later' });
    return record;
  }

  private start(): void {
    if (this.config.mineOnDemand) {
      // Blocks only when asked for (POST /api/dev/mine, the faucet).
    } else if (!this.config.instant) {
      this.timer = setInterval(() => this.schedule(), this.config.blockTimeMs);
      this.timer.unref();
    }
    // Restored pending transactions wait for the first tick, or go at once with --instant.
    else if (this.mempool.size > 0) this.schedule();
  }

  /** Asks for a block soon; one block is built at a time. */
  schedule(): void {
    if (this.scheduled || this.producing || this.closed || this.gate) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.producing || this.closed || this.gate || this.mempool.size === 0) return;
      this.producing = this.produce().finally(() => {
        this.producing = undefined;
        if (this.config.instant && this.mempool.size > 0) this.schedule();
      });
    });
  }

  /**
   * Builds and commits one block from the front of the mempool. The work is done in slices
   * with the event loop let in between, so submissions keep being answered while a large
   * block is applied and serialized (a 5000-transaction block is ~100 ms of work).
   */
  private async produce(options: { force?: boolean; mints?: Mint[] } = {}): Promise<BlockRecord | undefined> {
    const txs = this.mempool.peek(this.config.limits.maxBlockTxs);
    const mints = options.mints ?? [];
    if (txs.length === 0 && !options.force) return undefined;
    const now = this.now();
    const height = this.height + 1;
    const draft = new BlockDraft(this.wallets, this.allocLast, this.owners);
    const ctx: ApplyContext = {
      now,
      fees: this.fees,
      allocAddress: (n) => makeAddress({ group: this.config.allocGroup, block: this.config.chain, wallet: n }),
    };
    const outcomes: TxOutcome[] = [];
    for (let i = 0; i < txs.length; i++) {
      outcomes.push(applyTx(draft, txs[i], ctx));
      if (i % SLICE === SLICE - 1) await yieldToEventLoop();
    }
    depositFees(draft, bytesToHex(this.feeAddress));
    for (const m of mints) {
      const w = draft.write(m.address);
      w.amount.set(m.currency, (w.amount.get(m.currency) ?? 0n) + m.amount);
    }

    const addresses = [...draft.changed.keys()].sort();
    const header = {
      chain: this.config.chain,
      height,
      parent: this.hash,
      txroot: txRoot(txs),
      balroot: merkleRoot(addresses.map((a) => walletStateBytes(a, draft.changed.get(a)!))),
      time: Math.max(now, this.time),
    };
    const hash = blockHash(header);
    const hashHex = bytesToHex(hash, true);
    await yieldToEventLoop();

    const ops: StoreOp[] = [];
    const statuses: string[] = [];
    const failed: Record<string, string> = {};
    const registered: Record<string, string> = {};
    for (let i = 0; i < txs.length; i++) {
      const tx = txs[i];
      const outcome = outcomes[i];
      let status: string;
      if (outcome.ok) {
        if (outcome.address) {
          registered[tx.txid] = addressToText(outcome.address);
          const a = JSON.stringify(registered[tx.txid]);
          status = `{"ok":true,"res":${a},"address":${a},"block":"${hashHex}"}`;
        } else {
          status = `{"ok":true,"res":"ok","block":"${hashHex}"}`;
        }
        ops.push({ type: 'put', key: 'd:' + tx.bodyHash, value: Buffer.from(tx.txid) });
      } else {
        failed[tx.txid] = outcome.reason;
        const cost = outcome.cost === undefined ? '' : `,"cost":${outcome.cost}`;
        status = `{"error":true,"res":"${outcome.reason}"${cost},"block":"${hashHex}"}`;
      }
      statuses.push(status);
      ops.push({ type: 'del', key: 'p:' + tx.txid });
      ops.push({ type: 'put', key: 'x:' + tx.txid, value: tx.raw });
      ops.push({ type: 'put', key: 's:' + tx.txid, value: Buffer.from(status) });
      if (i % SLICE === SLICE - 1) await yieldToEventLoop();
    }
    const bals: Record<string, unknown> = {};
    for (let i = 0; i < addresses.length; i++) {
      const a = addresses[i];
      const w = draft.changed.get(a)!;
      const was = walletBefore(this.wallets.get(a), w);
      w.preblk = w.lastblk;
      w.lastblk = hash;
      w.height = height;
      const stored = storedWallet(w);
      bals[a.toUpperCase()] = { ...stored, was };
      ops.push({ type: 'put', key: 'w:' + a, value: Buffer.from(JSON.stringify(stored)) });
      if (i % SLICE === SLICE - 1) await yieldToEventLoop();
    }
    const record = blockRecord(header, hash, { txs: txs.map((tx) => tx.txid), failed, registered, bals });
    if (mints.length > 0) record.mint = mints.map((m) => ({ address: addressToText(hexToBytes(m.address)), currency: m.currency, amount: String(m.amount) }));
    ops.push({ type: 'put', key: heightKey(height), value: Buffer.from(JSON.stringify(record)) });
    ops.push({ type: 'put', key: 'h:' + hashHex, value: Buffer.from(String(height)) });
    ops.push({ type: 'put', key: 'meta', value: this.metaBytes({ height, hash, time: header.time, allocLast: draft.allocLast }) });

    try {
      await this.writes.run(() => this.store.batch(ops, { sync: this.store.persistent }));
    } catch (err) {
      this.logger.error(`committing block ${height} failed, retrying: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, RETRY_MS));
      return undefined;
    }
    // Durable: make the block visible, all in one synchronous step.
    for (const a of addresses) {
      const w = draft.changed.get(a)!;
      this.noteOwner(a, this.wallets.get(a), w);
      this.wallets.set(a, w);
    }
    this.height = height;
    this.hash = hash;
    this.time = header.time;
    if (this.allocLast !== draft.allocLast) {
      this.allocLast = draft.allocLast;
      this.refreshSettings();
    }
    for (let i = 0; i < txs.length; i++) this.statusCache.set(txs[i].txid, statuses[i]);
    if (this.statusCache.size > STATUS_CACHE) {
      let excess = this.statusCache.size - STATUS_CACHE;
      for (const key of this.statusCache.keys()) {
        if (excess-- <= 0) break;
        this.statusCache.delete(key);
      }
    }
    this.mempool.remove(txs);
    this.logger.info(`block ${height} ${hashHex}: ${txs.length} txs (${Object.keys(failed).length} failed)${mints.length ? `, ${mints.length} faucet credit(s)` : ''}`);
    for (const listener of this.blockListeners) {
      try {
        listener({ record, txs, statuses });
      } catch (err) {
        this.logger.error(`block listener failed: ${(err as Error).message}`);
      }
    }
    return record;
  }

  /** Calls `listener` after a revert, a rollback or a clock move; returns the function that stops it. */
  onReset(listener: ResetListener): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  /** Tells the reset listeners about a change of state outside blocks. */
  announce(event: ChainReset['event'], extra: { snapshot?: string } = {}): ChainReset {
    const reset: ChainReset = { event, height: this.height, hash: bytesToHex(this.hash, true), now: this.now(), clockOffsetMs: this.clockOffsetMs, ...extra };
    for (const listener of this.resetListeners) {
      try {
        listener(reset);
      } catch (err) {
        this.logger.error(`reset listener failed: ${(err as Error).message}`);
      }
    }
    return reset;
  }

  /**
   * Runs `work` with the chain at rest: the block being made is finished, every accepted
   * write is on disk, and no block or submission starts until `work` ends (dev API).
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    if (this.closed) throw new ValidationError('MEMPOOL_FULL', 'The node is shutting down');
    let open!: () => void;
    this.gate = new Promise<void>((resolve) => (open = resolve));
    try {
      while (this.producing) await this.producing.catch(() => undefined);
      await this.pendingWrites.idle();
      await this.writes.idle();
      return await work();
    } finally {
      this.gate = undefined;
      open();
      if (this.mempool.size > 0 && this.config.instant && !this.config.mineOnDemand) this.schedule();
    }
  }

  /** Reads the whole state again from the store, after the dev API rewrote it (call inside exclusive). */
  async reload(): Promise<void> {
    const meta = await this.store.get('meta');
    if (!meta) throw new TpkitError('NODE_INTERNAL', 'The store lost the chain head');
    this.wallets.clear();
    this.owners.clear();
    this.statusCache.clear();
    this.held.clear();
    this.mempool = new Mempool();
    // lastTimeNs stays: a txid handed out before the revert is never handed out again.
    await this.resume(json(meta) as Meta);
    this.refreshSettings();
  }

  /** Writes wallets as given, outside any block (dev API state setting; call inside exclusive). */
  async putWallets(changes: Map<string, Wallet>, allocLast = this.allocLast): Promise<void> {
    const ops: StoreOp[] = [...changes].map(([address, w]) => ({ type: 'put', key: 'w:' + address, value: encodeWallet(w) }));
    if (allocLast !== this.allocLast) ops.push({ type: 'put', key: 'meta', value: this.metaBytes({ height: this.height, hash: this.hash, time: this.time, allocLast }) });
    await this.store.batch(ops, { sync: this.store.persistent });
    for (const [address, w] of changes) {
      this.noteOwner(address, this.wallets.get(address), w);
      this.wallets.set(address, w);
    }
    if (allocLast !== this.allocLast) {
      this.allocLast = allocLast;
      this.refreshSettings();
    }
  }

  /** Moves the node clock to the system clock plus `offsetMs`, kept in the store. */
  async setClockOffset(offsetMs: number): Promise<void> {
    await this.store.batch([{ type: 'put', key: 'dev:clock', value: utf8.encode(String(offsetMs)) }], { sync: this.store.persistent });
    this.clockOffsetMs = offsetMs;
  }

  /** The store operation that moves the chain head (dev API rollback). */
  headOp(head: { height: number; hash: Uint8Array; time: number; allocLast: number }): StoreOp {
    return { type: 'put', key: 'meta', value: this.metaBytes(head) };
  }

  /** The wallet address a key hex owns, if any. */
  ownerOf(keyHex: string): string | undefined {
    return this.owners.get(keyHex);
  }

  /** Stops making blocks, lets the current one finish and writes what is pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.producing;
    await this.pendingWrites.idle();
    await this.writes.idle();
    await this.verifier.close();
    await this.store.close();
  }

  /** Waits until every transaction accepted so far is in a committed block (tests, tools). */
  async settle(): Promise<void> {
    while (this.mempool.size > 0 || this.producing || this.scheduled) {
      if (!this.producing && !this.scheduled) this.schedule();
      await (this.producing ?? new Promise((r) => setImmediate(r)));
    }
  }
}
