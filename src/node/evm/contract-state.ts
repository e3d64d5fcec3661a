// The EVM's part of the ledger: contract code, contract storage and the accounts that are not
// ThePower wallets (Ethereum keys' accounts, contracts created by Ethereum transactions, and
// the EVM nonce of any account), held in memory like the wallets and written to the store in
// the block's own batch, so a block's contract state lands with it or not at all, and the
// snapshot journal, which records every key a batch touches, covers it as it covers wallets.
// Each block that changes it also writes what the keys held before (`ev:<height>`), so a
// rollback puts them back without replaying the chain.
//
// The keys are store/keys.ts's (c:, k:, e:, l:, r:, ev:).

import { base64ToBytes, bytesToBase64 } from '../../bytes.js';
import { codeKey, evmAccountKey, evmUndoKey, logsKey, PREFIX, receiptKey, storageKey } from '../store/keys.js';
import type { Store, StoreOp } from '../store/store.js';
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

export class ContractState {
  readonly code = new Map<string, Uint8Array>();
  readonly storage = new Map<string, Map<string, Uint8Array>>();
  readonly accounts = new Map<string, EvmAccount>();
  /** Heights of the blocks that have events, ascending. */
  readonly logHeights: number[] = [];

  /** Reads the whole EVM state from the store (at start and after a revert or rollback). */
  static async load(store: Store): Promise<ContractState> {
    const s = new ContractState();
    for await (const [key, value] of store.entries(PREFIX.code)) s.code.set(key.slice(PREFIX.code.length), value);
    const at = PREFIX.storage.length;
    for await (const [key, value] of store.entries(PREFIX.storage)) {
      const account = key.slice(at, at + 40);
      let slots = s.storage.get(account);
      if (!slots) s.storage.set(account, (slots = new Map()));
      slots.set(key.slice(at + 41), value);
    }
    for await (const [key, value] of store.entries(PREFIX.evmAccount)) {
      const a = JSON.parse(text.decode(value)) as StoredAccount;
      s.accounts.set(key.slice(PREFIX.evmAccount.length), { balance: BigInt(a.balance), nonce: BigInt(a.nonce) });
    }
    for await (const [key] of store.entries(PREFIX.logs)) s.logHeights.push(parseInt(key.slice(PREFIX.logs.length), 16));
    return s;
  }

  storageValue(key: string, slot: string): Uint8Array | undefined {
    return this.storage.get(key)?.get(slot);
  }

  slotCount(key: string): number {
    return this.storage.get(key)?.size ?? 0;
  }

  private currentBytes(storeKey: string): Uint8Array | undefined {
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
  blockOps(height: number, changes: EvmChanges, logs: BlockLogs | undefined, receipts: { hash: string; json: string }[]): StoreOp[] {
    const ops: StoreOp[] = [];
    const before: Record<string, string | null> = {};
    const put = (key: string, value: Uint8Array | undefined) => {
      if (!(key in before)) {
        const old = this.currentBytes(key);
        before[key] = old === undefined ? null : bytesToBase64(old);
      }
      ops.push(value === undefined ? { type: 'del', key } : { type: 'put', key, value });
    };
    for (const [key, code] of changes.code) put(codeKey(key), code);
    for (const [key, slots] of changes.storage) for (const [slot, value] of slots) put(storageKey(key, slot), value);
    for (const [key, account] of changes.accounts) put(evmAccountKey(key), accountBytes(account));
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
    for (const [key, slots] of changes.storage) {
      let target = this.storage.get(key);
      if (!target) this.storage.set(key, (target = new Map()));
      for (const [slot, value] of slots) {
        if (value === undefined) target.delete(slot);
        else target.set(slot, value);
      }
    }
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
