// Test controls of the local node, one object behind the dev API routes and startNode():
// snapshots and revert, rollback to a height, the movable clock, spaced mining, direct state
// setting and injected faults. Every change of state runs with the chain at rest
// (chain.exclusive), and the ones that take the chain back or move its clock are announced on
// the live stream, so a watching client resets its view.

import { bytesToHex } from '../../bytes.js';
import { addressToText, makeAddress } from '../../codec/address.js';
import { normalizePublicKey } from '../../crypto/keys.js';
import { ValidationError } from '../../errors.js';
import { MAX_WALLET_NUMBER } from '../ledger/apply.js';
import type { Chain, ChainReset } from '../ledger/chain.js';
import { FaultInjector } from './faults.js';
import type { JournalStore, SnapshotInfo } from '../store/journal-store.js';
import { rollbackPlan } from './rollback.js';
import { cloneWallet, newWallet, type Wallet } from '../ledger/wallet.js';

/** Largest balance a wallet can hold in one currency (the reference ledger's uint64). */
const MAX_BALANCE = (1n << 64n) - 1n;
/** Far enough for any test of a timestamp window, near enough to stay a valid date. */
const MAX_OFFSET_MS = 100 * 365 * 86_400_000;

export interface MovedChain {
  height: number;
  hash: string;
}

export class DevControl {
  readonly faults = new FaultInjector();

  constructor(
    readonly chain: Chain,
    private readonly journal: JournalStore,
  ) {}

  snapshot(name?: string): Promise<SnapshotInfo> {
    return this.chain.exclusive(() => this.journal.take(this.chain.height, name));
  }

  snapshots(): SnapshotInfo[] {
    return this.journal.list();
  }

  /** Back to the state of a snapshot (id or name); the snapshot stays valid for another revert. */
  async revert(idOrName: string): Promise<ChainReset & { snapshot: string; dropped: string[] }> {
    const { target, dropped } = await this.chain.exclusive(async () => {
      const target = this.journal.find(idOrName);
      const { dropped } = await this.journal.revert(target);
      await this.chain.reload();
      return { target, dropped };
    });
    return { ...this.chain.announce('revert', { snapshot: target.id }), snapshot: target.id, dropped };
  }

  async deleteSnapshot(idOrName: string): Promise<SnapshotInfo> {
    return this.chain.exclusive(async () => {
      const target = this.journal.find(idOrName);
      await this.journal.remove(target);
      return target;
    });
  }

  /** Drops the blocks above `height`; their transactions become unknown. */
  async rollback(height: number): Promise<ChainReset & { droppedTxs: number }> {
    const dropped = await this.chain.exclusive(async () => {
      const plan = await rollbackPlan(this.chain, height);
      await this.chain.store.batch(plan.ops, { sync: this.chain.store.persistent });
      await this.chain.reload();
      return plan.dropped;
    });
    return { ...this.chain.announce('rollback'), droppedTxs: dropped };
  }

  /** Moves the node clock: by an offset from the system clock, or to a given time. */
  async setTime(to: { offsetMs?: number; setMs?: number }): Promise<ChainReset> {
    const { offsetMs, setMs } = to;
    if ((offsetMs === undefined) === (setMs === undefined)) {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Give "offsetMs" or "setMs"', { details: 'e.g. {"offsetMs": 7200000} (two hours ahead) or {"setMs": 1700000000000}' });
    }
    const offset = offsetMs ?? setMs! - (this.chain.now() - this.chain.clockOffsetMs);
    checkOffset(offset, offsetMs === undefined ? 'setMs' : 'offsetMs');
    await this.chain.exclusive(() => this.chain.setClockOffset(offset));
    return this.chain.announce('clock');
  }

  /** Makes `blocks` blocks; with `intervalMs`, the clock moves that far before each one. */
  async mine(blocks: number, intervalMs?: number): Promise<{ hash: string; height: number; txs: number; time: number }[]> {
    // The clock ends within the bound setTime keeps, or no block is made.
    if (intervalMs) checkOffset(this.chain.clockOffsetMs + blocks * intervalMs, 'intervalMs');
    const made = [];
    for (let i = 0; i < blocks; i++) {
      if (intervalMs) await this.chain.exclusive(() => this.chain.setClockOffset(this.chain.clockOffsetMs + intervalMs));
      const record = await this.chain.mineBlock();
      made.push({ hash: record.hash, height: record.header.height, txs: record.txs.length, time: record.time });
    }
    if (intervalMs) this.chain.announce('clock');
    return made;
  }

  /** Sets a balance to exactly `amount` (0 removes the currency); creates a keyless wallet if none. */
  setBalance(address: Uint8Array, currency: string, amount: bigint): Promise<Wallet> {
    if (!/^[\x21-\x7e]{1,32}$/.test(currency)) {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid currency', { field: 'currency', details: `expected a currency name of printable ASCII, got ${JSON.stringify(currency)}` });
    }
    if (amount < 0n || amount > MAX_BALANCE) {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "amount"', { field: 'amount', details: `expected 0 to 2^64 - 1, got ${amount}` });
    }
    return this.chain.exclusive(async () => {
      const hex = bytesToHex(address);
      const current = this.chain.wallets.get(hex);
      const w = current ? cloneWallet(current) : newWallet(null);
      if (amount === 0n) w.amount.delete(currency);
      else w.amount.set(currency, amount);
      await this.chain.putWallets(new Map([[hex, w]]));
      return w;
    });
  }

  /** Sets the seq of an existing wallet: its next transaction must carry a higher one. */
  setSeq(address: Uint8Array, seq: bigint): Promise<Wallet> {
    if (seq < 0n || seq > MAX_BALANCE) throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "seq"', { field: 'seq', details: `expected 0 to 2^64 - 1, got ${seq}` });
    return this.chain.exclusive(async () => {
      const hex = bytesToHex(address);
      const current = this.chain.wallets.get(hex);
      if (!current) throw new ValidationError('WALLET_NOT_FOUND', 'Not found', { details: `no wallet ${addressToText(address)}; create it first (createWallet or setBalance)` });
      const w = cloneWallet(current);
      w.seq = seq;
      await this.chain.putWallets(new Map([[hex, w]]));
      return w;
    });
  }

  /**
   * A wallet without a register transaction: for a public key, at the next free number of the
   * chain (as a register would place it; the same key again gets the same wallet) or at
   * `address`; for an address alone, a keyless wallet that can receive.
   */
  createWallet(spec: { publicKey?: Uint8Array | string; address?: Uint8Array }): Promise<{ address: Uint8Array; created: boolean }> {
    if (spec.publicKey === undefined && spec.address === undefined) {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Give "publicKey" or "address"', { details: 'e.g. {"publicKey": "02…"} or {"address": "AA…"}' });
    }
    const key = spec.publicKey === undefined ? null : normalizePublicKey(spec.publicKey, 'publicKey');
    return this.chain.exclusive(async () => {
      const c = this.chain;
      if (key) {
        const owner = c.ownerOf(bytesToHex(key));
        if (owner !== undefined && c.wallets.get(owner)?.pubkey) return { address: Buffer.from(owner, 'hex'), created: false };
      }
      let address = spec.address;
      let allocLast = c.allocLast;
      if (address) {
        if (c.wallets.has(bytesToHex(address))) throw new ValidationError('BAD_REQUEST_PARAM', 'The wallet exists', { field: 'address', details: `${addressToText(address)} is taken` });
      } else {
        let n = allocLast;
        do {
          if (n >= MAX_WALLET_NUMBER) throw new ValidationError('BAD_REQUEST_PARAM', 'No wallet number left', { details: `chain ${c.config.chain} has allocated all of them` });
          n++;
          address = makeAddress({ group: c.config.allocGroup, block: c.config.chain, wallet: n });
        } while (c.wallets.has(bytesToHex(address)));
        allocLast = n;
      }
      await c.putWallets(new Map([[bytesToHex(address!), newWallet(key)]]), allocLast);
      return { address: address!, created: true };
    });
  }

  close(): void {
    this.faults.close();
  }
}

/** Every path that moves the node clock keeps it within MAX_OFFSET_MS of the system clock. */
function checkOffset(offset: number, field: string): void {
  if (!Number.isSafeInteger(offset) || offset < -MAX_OFFSET_MS || offset > MAX_OFFSET_MS) {
    throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, {
      field,
      details: `the node clock must stay an integer within ±${MAX_OFFSET_MS} ms of the system clock; this would put it ${JSON.stringify(offset)} ms off`,
    });
  }
}
