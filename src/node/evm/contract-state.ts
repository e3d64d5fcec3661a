// The EVM's part of the ledger: contract code, contract storage and the accounts that are not
// ThePower wallets (Ethereum keys' accounts, contracts created by Ethereum transactions, and
// the EVM nonce of any account). Code and accounts are held in memory like the wallets;
// storage stays in the store and is read on demand through a bounded cache (slot-cache.ts), so
// neither memory nor start time grows with the slots contracts write. All of it is written in
// the block's own batch, so a block's contract state lands with it or not at all, and the
// snapshot journal, which records every key a batch touches, covers it as it covers wallets.
// Each block that changes it also writes what the keys held before (`ev:<height>`), so a
// rollback puts them back without replaying the chain.
//
// The keys are store/keys.ts's (c:, k:, e:, l:, r:, ev:).

import { base64ToBytes, bytesToBase64 } from '../../bytes.js';
import { codeKey, evmAccountKey, evmUndoKey, logsKey, PREFIX, receiptKey, storageKey } from '../store/keys.js';
import type { Store, StoreOp } from '../store/store.js';
import { SlotCache } from './slot-cache.js';
import type { BlockLogs } from './logs.js';
import type { EvmAccount, EvmChanges } from './state.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

interface StoredAccount {
  balance: string;
  nonce: string;
}

/** What a block writes for the EVM, and how to undo it. */
export interface EvmBlockRecord {
  /** Previous value of each key (base64), or null when it was absent. */
  before: Record<string, string | null>;
  receipts: string[];
  logs: boolean;
}

/** Storage slots kept in memory by default (limits.slotCacheEntries). */
export const DEFAULT_SLOT_CACHE = 100_000;

export class ContractState {
  readonly code = new Map<string, Uint8Array>();
  readonly accounts = new Map<string, EvmAccount>();
  /** Heights of the blocks that have events, ascending. */
  readonly logHeights: number[] = [];
  private readonly cache: SlotCache;
  /** Slots of each contract counted so far, kept up to date by apply(). */
  private readonly counts = new Map<string, number>();
  /** What the block being committed does to the slot counts, from its blockOps() to its apply(). */
  private countChange: { height: number; byContract: Map<string, number> } | undefined;

  constructor(
    private readonly store: Store,
    slotCacheEntries = DEFAULT_SLOT_CACHE,
  ) {
    this.cache = new SlotCache(slotCacheEntries);
  }

  /** Reads the EVM state from the store (at start and after a revert or rollback); storage stays there. */
  static async load(store: Store, slotCacheEntries = DEFAULT_SLOT_CACHE): Promise<ContractState> {
    const s = new ContractState(store, slotCacheEntries);
    for await (const [key, value] of store.entries(PREFIX.code)) s.code.set(key.slice(PREFIX.code.length), value);
    for await (const [key, value] of store.entries(PREFIX.evmAccount)) {
      const a = JSON.parse(text.decode(value)) as StoredAccount;
      s.accounts.set(key.slice(PREFIX.evmAccount.length), { balance: BigInt(a.balance), nonce: BigInt(a.nonce) });
    }
    for await (const [key] of store.entries(PREFIX.logs)) s.logHeights.push(parseInt(key.slice(PREFIX.logs.length), 16));
    return s;
  }

  /** A slot's committed value; undefined for zero. */
  async storageValue(key: string, slot: string): Promise<Uint8Array | undefined> {
    const storeKey = storageKey(key, slot);
    const cached = this.cache.get(storeKey);
    if (cached !== undefined) return cached ?? undefined;
    const readAt = this.cache.version;
    const value = await this.store.get(storeKey);
    this.cache.fill(storeKey, value ?? null, readAt);
    return value;
  }

  /** Every non-zero slot of a contract with its value, in slot order, read from the store. */
  async *slots(key: string): AsyncIterable<[string, Uint8Array]> {
    const prefix = storageKey(key, '');
    for await (const [storeKey, value] of this.store.entries(prefix)) yield [storeKey.slice(prefix.length), value];
  }

  /** How many non-zero slots a contract has: counted once from the store, then kept. */
  async slotCount(key: string): Promise<number> {
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const countedAt = this.cache.version;
    let n = 0;
    for await (const _ of this.slots(key)) n++;
    if (countedAt === this.cache.version) this.counts.set(key, n);
    return n;
  }

  /** Slots held in memory now (at most limits.slotCacheEntries). */
  get cachedSlots(): number {
    return this.cache.size;
  }

  private async currentBytes(storeKey: string): Promise<Uint8Array | undefined> {
    if (storeKey.startsWith(PREFIX.code)) return this.code.get(storeKey.slice(PREFIX.code.length));
    const at = PREFIX.storage.length;
    if (storeKey.startsWith(PREFIX.storage)) return this.storageValue(storeKey.slice(at, at + 40), storeKey.slice(at + 41));
    const a = this.accounts.get(storeKey.slice(PREFIX.evmAccount.length));
    return a ? accountBytes(a) : undefined;
  }

  /**
   * The store operations of a block's EVM changes, its events and receipts, with the undo
   * record; `balanceOwner(key)` is true for keys whose balance is a wallet's (not stored here).
   */
  async blockOps(height: number, changes: EvmChanges, logs: BlockLogs | undefined, receipts: { hash: string; json: string }[]): Promise<StoreOp[]> {
    const ops: StoreOp[] = [];
    const before: Record<string, string | null> = {};
    const put = async (key: string, value: Uint8Array | undefined): Promise<Uint8Array | undefined> => {
      let old: Uint8Array | undefined;
      if (!(key in before)) {
        old = await this.currentBytes(key);
        before[key] = old === undefined ? null : bytesToBase64(old);
      }
      ops.push(value === undefined ? { type: 'del', key } : { type: 'put', key, value });
      return old;
    };
    for (const [key, code] of changes.code) await put(codeKey(key), code);
    const counted = new Map<string, number>();
    for (const [key, slots] of changes.storage) {
      let change = 0;
      for (const [slot, value] of slots) {
        const old = await put(storageKey(key, slot), value);
        change += (value === undefined ? 0 : 1) - (old === undefined ? 0 : 1);
      }
      counted.set(key, change);
    }
    this.countChange = { height, byContract: counted };
    for (const [key, account] of changes.accounts) await put(evmAccountKey(key), accountBytes(account));
    if (logs && logs.logs.length > 0) ops.push({ type: 'put', key: logsKey(height), value: utf8.encode(JSON.stringify(logs)) });
    for (const r of receipts) ops.push({ type: 'put', key: receiptKey(r.hash), value: utf8.encode(r.json) });
    if (ops.length > 0) {
      const record: EvmBlockRecord = { before, receipts: receipts.map((r) => r.hash), logs: !!logs && logs.logs.length > 0 };
      ops.push({ type: 'put', key: evmUndoKey(height), value: utf8.encode(JSON.stringify(record)) });
    }
    return ops;
  }

  /** Makes a committed block's changes visible (after its batch is durable). */
  apply(height: number, changes: EvmChanges, hasLogs: boolean): void {
    for (const [key, code] of changes.code) this.code.set(key, code);
    const written: [string, Uint8Array | null][] = [];
    for (const [key, slots] of changes.storage) for (const [slot, value] of slots) written.push([storageKey(key, slot), value ?? null]);
    this.cache.write(written);
    const counted = this.countChange?.height === height ? this.countChange.byContract : undefined;
    this.countChange = undefined;
    for (const [key, change] of counted ?? []) {
      const n = this.counts.get(key);
      if (n !== undefined) this.counts.set(key, n + change);
    }
    if (!counted && changes.storage.size > 0) for (const key of changes.storage.keys()) this.counts.delete(key);
    for (const [key, account] of changes.accounts) this.accounts.set(key, account);
    if (hasLogs) this.logHeights.push(height);
  }

  /** The heights with events within from..to. */
  logHeightsIn(from: number, to: number): number[] {
    let lo = 0;
    let hi = this.logHeights.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.logHeights[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < this.logHeights.length && this.logHeights[i] <= to; i++) out.push(this.logHeights[i]);
    return out;
  }
}

function accountBytes(a: EvmAccount): Uint8Array {
  return utf8.encode(JSON.stringify({ balance: a.balance.toString(), nonce: a.nonce.toString() } satisfies StoredAccount));
}

/** The store operations that undo the EVM records of the blocks above `target` (dev API rollback). */
export async function evmRollbackOps(store: Store, target: number): Promise<StoreOp[]> {
  const records: [number, EvmBlockRecord][] = [];
  for await (const [key, value] of store.entries(PREFIX.evmUndo, evmUndoKey(target))) {
    records.push([parseInt(key.slice(PREFIX.evmUndo.length), 16), JSON.parse(text.decode(value)) as EvmBlockRecord]);
  }
  // Newest first, so each key ends as the oldest dropped block found it.
  records.sort((a, b) => b[0] - a[0]);
  const restored = new Map<string, string | null>();
  const ops: StoreOp[] = [];
  for (const [height, record] of records) {
    for (const [key, value] of Object.entries(record.before)) restored.set(key, value);
    for (const hash of record.receipts) ops.push({ type: 'del', key: receiptKey(hash) });
    if (record.logs) ops.push({ type: 'del', key: logsKey(height) });
    ops.push({ type: 'del', key: evmUndoKey(height) });
  }
  for (const [key, value] of restored) ops.push(value === null ? { type: 'del', key } : { type: 'put', key, value: base64ToBytes(value) });
  return ops;
}
