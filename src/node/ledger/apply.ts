// Block-time processing: the checks that depend on order (seq, timestamps, fee, balances)
// and the ledger changes, in txid order, with the reference node's reason names. Each check
// runs before any change, so a failed transaction changes nothing: no seq consumed, no fee.

import { bytesToHex, equalBytes, hexToBytes } from '../../bytes.js';
import { feeCost, type FeeRate } from '../../codec/fee.js';
import { PURPOSE_SRCFEE, PURPOSE_TRANSFER, TIMESTAMP_WINDOW_MS, type NodeTx, type PayloadItem } from './node-tx.js';
import { cloneWallet, newWallet, type Wallet } from './wallet.js';

/** Wallet numbers run 1..0xFFFFFE inside an allocation block (reference aalloc). */
export const MAX_WALLET_NUMBER = 0xfffffe;

export interface ApplyContext {
  now: number;
  fees: ReadonlyMap<string, FeeRate>;
  /** The address (8 bytes) of wallet number `n` in the allocation block. */
  allocAddress(n: number): Uint8Array;
}

export type TxOutcome =
  | { ok: true; address?: Uint8Array }
  | { ok: false; reason: string; cost?: bigint };

/** The ledger as a block being built sees it: the committed wallets plus this block's copies. */
export class BlockDraft {
  readonly changed = new Map<string, Wallet>();
  readonly feeTotals = new Map<string, bigint>();

  constructor(
    private readonly base: ReadonlyMap<string, Wallet>,
    public allocLast: number,
    /** Committed wallet address by key hex. */
    private readonly owners: ReadonlyMap<string, string> = new Map(),
  ) {}

  private readonly newOwners = new Map<string, string>();

  /** The wallet that holds `key` now, in this block's view. */
  ownerOf(key: Uint8Array): string | undefined {
    const hex = bytesToHex(key);
    for (const address of [this.newOwners.get(hex), this.owners.get(hex)]) {
      const w = address === undefined ? undefined : this.read(address);
      if (w?.pubkey && equalBytes(w.pubkey, key)) return address;
    }
    return undefined;
  }

  /** Records a wallet created in this block for `key`. */
  own(key: Uint8Array, address: string): void {
    this.newOwners.set(bytesToHex(key), address);
  }

  read(address: string): Wallet | undefined {
    return this.changed.get(address) ?? this.base.get(address);
  }

  /** A copy of the wallet owned by this block (created empty, keyless, if absent). */
  write(address: string): Wallet {
    let w = this.changed.get(address);
    if (!w) {
      const committed = this.base.get(address);
      w = committed ? cloneWallet(committed) : newWallet(null);
      this.changed.set(address, w);
    }
    return w;
  }
}

const fail = (reason: string, cost?: bigint): TxOutcome => (cost === undefined ? { ok: false, reason } : { ok: false, reason, cost });

function signedBy(wallet: Wallet, tx: NodeTx): boolean {
  const key = wallet.pubkey;
  return key !== null && tx.signers.some((s) => equalBytes(s, key));
}

/** Sender checks shared by generic, notify and chkey, in the reference order. */
function checkSender(draft: BlockDraft, tx: NodeTx, from: Uint8Array, seq: bigint, t: number, now: number): TxOutcome | Wallet {
  const wallet = draft.read(bytesToHex(from));
  if (!wallet) return fail('no_src_addr_loaded');
  // The key may have changed (chkey) since the signature was checked at submission.
  if (!signedBy(wallet, tx)) return fail('unverified');
  if (Math.abs(now - t) >= TIMESTAMP_WINDOW_MS) return fail('invalid_timestamp');
  if (seq <= wallet.seq) return fail('bad_seq');
  if (t <= wallet.t) return fail('bad_timestamp');
  return wallet;
}

interface Charge {
  /** Total debit per currency: the fee plus the transfers. */
  need: Map<string, bigint>;
  fee?: { currency: string; cost: bigint };
}

/** What the sender pays (only the fee cost, not the offered amount), or why it cannot. */
function charge(tx: NodeTx, payload: PayloadItem[], ctx: ApplyContext, withTransfers: boolean): Charge | TxOutcome {
  const need = new Map<string, bigint>();
  let fee: Charge['fee'];
  const feeItem = payload.find((p) => p.purpose === PURPOSE_SRCFEE);
  if (feeItem) {
    const rate = ctx.fees.get(feeItem.currency);
    if (!rate) return fail('unsupported_fee_cur');
    const cost = feeCost(tx.bodyLength, rate);
    if (feeItem.amount < cost) return fail('insufficient_fee', cost);
    need.set(feeItem.currency, cost);
    fee = { currency: feeItem.currency, cost };
  }
  if (withTransfers) {
    for (const item of payload) {
      // A zero amount moves nothing and creates no currency entry on either side.
      if (item.purpose !== PURPOSE_TRANSFER || item.amount === 0n) continue;
      if (item.amount < 0n) return fail('bad_amount');
      need.set(item.currency, (need.get(item.currency) ?? 0n) + item.amount);
    }
  }
  return { need, fee };
}

function canPay(wallet: Wallet, need: Map<string, bigint>): boolean {
  for (const [cur, amount] of need) if ((wallet.amount.get(cur) ?? 0n) < amount) return false;
  return true;
}

export function applyTx(draft: BlockDraft, tx: NodeTx, ctx: ApplyContext): TxOutcome {
  const body = tx.body;
  switch (body.kind) {
    case 'register': {
      // A key that already has a wallet gets that wallet again, not a second one.
      const owner = draft.ownerOf(tx.signers[0]);
      if (owner !== undefined) return { ok: true, address: hexToBytes(owner) };
      // Skip numbers a genesis wallet already holds.
      let n = draft.allocLast;
      let address: Uint8Array;
      do {
        if (n >= MAX_WALLET_NUMBER) return fail('unallocable');
        n++;
        address = ctx.allocAddress(n);
      } while (draft.read(bytesToHex(address)));
      draft.allocLast = n;
      draft.write(bytesToHex(address)).pubkey = tx.signers[0];
      draft.own(tx.signers[0], bytesToHex(address));
      return { ok: true, address };
    }
    case 'chkey': {
      const sender = checkSender(draft, tx, body.from, body.seq, body.t, ctx.now);
      if (!('amount' in sender)) return sender;
      const w = draft.write(bytesToHex(body.from));
      w.seq = body.seq;
      w.t = body.t;
      w.pubkey = body.keys[0];
      return { ok: true };
    }
    case 'generic':
    case 'notify': {
      const sender = checkSender(draft, tx, body.from, body.seq, body.t, ctx.now);
      if (!('amount' in sender)) return sender;
      const paid = charge(tx, body.payload, ctx, body.kind === 'generic');
      if (!('need' in paid)) return paid;
      if (!canPay(sender, paid.need)) return fail('insufficient_fund');
      const w = draft.write(bytesToHex(body.from));
      w.seq = body.seq;
      w.t = body.t;
      for (const [cur, amount] of paid.need) if (amount > 0n) w.amount.set(cur, (w.amount.get(cur) ?? 0n) - amount);
      if (paid.fee) draft.feeTotals.set(paid.fee.currency, (draft.feeTotals.get(paid.fee.currency) ?? 0n) + paid.fee.cost);
      if (body.kind === 'generic') {
        const moved = body.payload.filter((item) => item.purpose === PURPOSE_TRANSFER && item.amount > 0n);
        // The destination is created if absent, but only by a transfer that moves something.
        if (moved.length > 0) {
          const to = draft.write(bytesToHex(body.to));
          for (const item of moved) to.amount.set(item.currency, (to.amount.get(item.currency) ?? 0n) + item.amount);
        }
      }
      return { ok: true };
    }
  }
}

/** Credits the block's collected fees to the fee address, as the reference does once per block. */
export function depositFees(draft: BlockDraft, feeAddress: string): void {
  if (draft.feeTotals.size === 0) return;
  const w = draft.write(feeAddress);
  for (const [cur, amount] of draft.feeTotals) if (amount > 0n) w.amount.set(cur, (w.amount.get(cur) ?? 0n) + amount);
}
