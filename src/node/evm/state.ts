// The EVM's view of the ledger for one transaction or one view call. The ledger (committed
// state plus the block being built) answers reads; writes go to an overlay that the EVM's
// checkpoints, commits and reverts act on, and a finished transaction hands its overlay back
// as a change set, which the block applies as it applies balances. Nothing here touches the
// store: durability, snapshots and rollback are the ledger's.
//
// Keys are EVM keys (40 lowercase hex digits, address.ts); storage slots are 64 lowercase hex
// digits; a storage value is its big-endian bytes without leading zeros (absent: zero).

import { bytesToHex } from '../../bytes.js';
import type { EvmLib } from './load.js';

export interface EvmAccount {
  /** Native currency (SK) balance, in the ledger's units. */
  balance: bigint;
  nonce: bigint;
}

/** What the ledger answers the EVM. Undefined means absent. */
export interface EvmLedger {
  account(key: string): EvmAccount | undefined;
  code(key: string): Uint8Array | undefined;
  /** A store read when the slot is not cached (contract-state.ts). */
  storage(key: string, slot: string): Promise<Uint8Array | undefined> | Uint8Array | undefined;
}

/** The same reads answered later: the EVM thread asks the main thread for each (evm-thread.ts). */
export interface AsyncEvmLedger {
  account(key: string): Promise<EvmAccount | undefined> | EvmAccount | undefined;
  code(key: string): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  storage(key: string, slot: string): Promise<Uint8Array | undefined> | Uint8Array | undefined;
}

/** Everything a transaction changed; `undefined` in storage means the slot went back to zero. */
export interface EvmChanges {
  accounts: Map<string, EvmAccount>;
  code: Map<string, Uint8Array>;
  storage: Map<string, Map<string, Uint8Array | undefined>>;
}

export function emptyChanges(): EvmChanges {
  return { accounts: new Map(), code: new Map(), storage: new Map() };
}

/** Folds `later` into `into` (both of one block, `later` after). */
export function mergeChanges(into: EvmChanges, later: EvmChanges): void {
  for (const [k, v] of later.accounts) into.accounts.set(k, v);
  for (const [k, v] of later.code) into.code.set(k, v);
  for (const [k, slots] of later.storage) {
    let target = into.storage.get(k);
    if (!target) into.storage.set(k, (target = new Map()));
    for (const [slot, value] of slots) target.set(slot, value);
  }
}

/** A ledger seen through a change set: the block being built, as the next transaction reads it. */
export function ledgerWithChanges(base: EvmLedger, changes: EvmChanges): EvmLedger {
  return {
    account: (key) => changes.accounts.get(key) ?? base.account(key),
    code: (key) => changes.code.get(key) ?? base.code(key),
    storage: (key, slot) => {
      const slots = changes.storage.get(key);
      return slots?.has(slot) ? slots.get(slot) : base.storage(key, slot);
    },
  };
}

function trimZeros(bytes: Uint8Array): Uint8Array | undefined {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  return i === bytes.length ? undefined : bytes.slice(i);
}

type Undo = () => void;

/**
 * The StateManagerInterface of @ethereumjs/evm over an EvmLedger, with its own journal. Built
 * once per EVM instance; `begin` points it at a ledger for the next run, `finish` returns the
 * run's changes. Reads the overlay does not hold wait for the ledger (another thread's answer).
 */
export class LedgerStateManager {
  private ledger: AsyncEvmLedger = { account: () => undefined, code: () => undefined, storage: () => undefined };
  private changes = emptyChanges();
  private journal: Undo[][] = [];
  /** By the code's own array: a block's runs share one (the thread's session), and a dropped array takes its entry with it. */
  private readonly codeHashes = new WeakMap<Uint8Array, Uint8Array>();
  readonly originalStorageCache = {
    get: async (address: { toString(): string }, key: Uint8Array) => (await this.ledger.storage(keyOf(address), bytesToHex(key))) ?? new Uint8Array(0),
    clear: () => {},
  };

  constructor(private readonly lib: EvmLib) {}

  begin(ledger: AsyncEvmLedger): void {
    this.ledger = ledger;
    this.changes = emptyChanges();
    this.journal = [];
  }

  finish(): EvmChanges {
    const out = this.changes;
    this.changes = emptyChanges();
    this.journal = [];
    return out;
  }

  /** The run's reads as the EVM makes them: the overlay first, then the ledger. */
  async readAccount(key: string): Promise<EvmAccount | undefined> {
    return this.changes.accounts.get(key) ?? (await this.ledger.account(key));
  }

  async readCode(key: string): Promise<Uint8Array | undefined> {
    return this.changes.code.get(key) ?? (await this.ledger.code(key));
  }

  private async readStorage(key: string, slot: string): Promise<Uint8Array | undefined> {
    const slots = this.changes.storage.get(key);
    return slots?.has(slot) ? slots.get(slot) : await this.ledger.storage(key, slot);
  }

  private record(undo: Undo): void {
    this.journal.at(-1)?.push(undo);
  }

  private setAccount(key: string, value: EvmAccount): void {
    const had = this.changes.accounts.has(key);
    const before = this.changes.accounts.get(key);
    this.changes.accounts.set(key, value);
    this.record(() => (had ? this.changes.accounts.set(key, before!) : this.changes.accounts.delete(key)));
  }

  private codeHash(code: Uint8Array | undefined): Uint8Array {
    if (!code || code.length === 0) return this.lib.KECCAK256_NULL;
    let hash = this.codeHashes.get(code);
    if (!hash) {
      hash = this.lib.keccak256(code);
      this.codeHashes.set(code, hash);
    }
    return hash;
  }

  async getAccount(address: { toString(): string }): Promise<object | undefined> {
    const key = keyOf(address);
    const account = await this.readAccount(key);
    const code = await this.readCode(key);
    if (!account && !code) return undefined;
    return new this.lib.Account(account?.nonce ?? 0n, account?.balance ?? 0n, this.lib.KECCAK256_RLP, this.codeHash(code), code?.length ?? 0);
  }

  async putAccount(address: { toString(): string }, account?: { nonce: bigint; balance: bigint }): Promise<void> {
    if (!account) return this.deleteAccount(address);
    this.setAccount(keyOf(address), { balance: account.balance, nonce: account.nonce });
  }

  /** Accounts are never removed from the ledger: a deleted one is left empty. */
  async deleteAccount(address: { toString(): string }): Promise<void> {
    const key = keyOf(address);
    if (await this.readAccount(key)) this.setAccount(key, { balance: 0n, nonce: 0n });
  }

  async modifyAccountFields(address: { toString(): string }, fields: { nonce?: bigint; balance?: bigint }): Promise<void> {
    const key = keyOf(address);
    const current = (await this.readAccount(key)) ?? { balance: 0n, nonce: 0n };
    this.setAccount(key, { balance: fields.balance ?? current.balance, nonce: fields.nonce ?? current.nonce });
  }

  async putCode(address: { toString(): string }, value: Uint8Array): Promise<void> {
    const key = keyOf(address);
    const had = this.changes.code.has(key);
    const before = this.changes.code.get(key);
    this.changes.code.set(key, value.slice());
    this.record(() => (had ? this.changes.code.set(key, before!) : this.changes.code.delete(key)));
    if (!(await this.readAccount(key))) this.setAccount(key, { balance: 0n, nonce: 0n });
  }

  async getCode(address: { toString(): string }): Promise<Uint8Array> {
    return (await this.readCode(keyOf(address))) ?? new Uint8Array(0);
  }

  async getCodeSize(address: { toString(): string }): Promise<number> {
    return (await this.readCode(keyOf(address)))?.length ?? 0;
  }

  async getStorage(address: { toString(): string }, key: Uint8Array): Promise<Uint8Array> {
    return (await this.readStorage(keyOf(address), bytesToHex(key))) ?? new Uint8Array(0);
  }

  async putStorage(address: { toString(): string }, key: Uint8Array, value: Uint8Array): Promise<void> {
    const account = keyOf(address);
    const slot = bytesToHex(key);
    let slots = this.changes.storage.get(account);
    if (!slots) this.changes.storage.set(account, (slots = new Map()));
    const map = slots;
    const had = map.has(slot);
    const before = map.get(slot);
    map.set(slot, trimZeros(value));
    this.record(() => (had ? map.set(slot, before) : map.delete(slot)));
  }

  /** Only CREATE over an address with storage calls this; the ledger keeps no such address. */
  async clearStorage(): Promise<void> {}

  async checkpoint(): Promise<void> {
    this.journal.push([]);
  }

  async commit(): Promise<void> {
    const top = this.journal.pop();
    if (top && this.journal.length > 0) this.journal.at(-1)!.push(...top);
  }

  async revert(): Promise<void> {
    const top = this.journal.pop();
    if (top) for (let i = top.length - 1; i >= 0; i--) top[i]();
  }

  async getStateRoot(): Promise<Uint8Array> {
    return new Uint8Array(32);
  }

  async setStateRoot(): Promise<void> {}

  async hasStateRoot(): Promise<boolean> {
    return true;
  }

  clearCaches(): void {}

  shallowCopy(): LedgerStateManager {
    return new LedgerStateManager(this.lib);
  }
}

/** The EVM key of an @ethereumjs Address (its toString is 0x + 40 lowercase hex digits). */
function keyOf(address: { toString(): string }): string {
  return address.toString().slice(2);
}

/** Slot number → slot key. */
export function slotKey(slot: bigint): string {
  return slot.toString(16).padStart(64, '0');
}

/** Storage value bytes → the 32-byte word they stand for. */
export function storageWord(value: Uint8Array | undefined): Uint8Array {
  const out = new Uint8Array(32);
  if (value) out.set(value, 32 - value.length);
  return out;
}
