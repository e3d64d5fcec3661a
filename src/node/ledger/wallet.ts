// A wallet record as the ledger keeps it, and its two encodings: the stored JSON (amounts as
// decimal strings, so JSON.parse cannot round them) and the canonical bytes hashed into a
// block's balance root.

import { bytesToHex, hexToBytes } from '../../bytes.js';

export interface Wallet {
  /** Compressed public key; null for a wallet created by a transfer, which can only receive. */
  pubkey: Uint8Array | null;
  amount: Map<string, bigint>;
  seq: bigint;
  /** Timestamp of the last transaction sent from this wallet, ms. */
  t: number;
  /** Block of the last change to this wallet. */
  lastblk: Uint8Array;
  /** Block of the change before that (all zeros when there was none). */
  preblk: Uint8Array;
}

export const ZERO_HASH = new Uint8Array(32);

export function newWallet(pubkey: Uint8Array | null): Wallet {
  return { pubkey, amount: new Map(), seq: 0n, t: 0, lastblk: ZERO_HASH, preblk: ZERO_HASH };
}

export function cloneWallet(w: Wallet): Wallet {
  return { ...w, amount: new Map(w.amount) };
}

export interface StoredWallet {
  pubkey: string | null;
  amount: Record<string, string>;
  seq: string;
  t: number;
  lastblk: string;
  preblk: string;
}

/** The stored form: JSON-safe, amounts and seq as decimal strings. */
export function storedWallet(w: Wallet): StoredWallet {
  const amount: Record<string, string> = {};
  for (const [cur, v] of w.amount) amount[cur] = v.toString();
  return {
    pubkey: w.pubkey ? bytesToHex(w.pubkey) : null,
    amount,
    seq: w.seq.toString(),
    t: w.t,
    lastblk: bytesToHex(w.lastblk),
    preblk: bytesToHex(w.preblk),
  };
}

export function encodeWallet(w: Wallet): Uint8Array {
  return Buffer.from(JSON.stringify(storedWallet(w)));
}

export function decodeWallet(bytes: Uint8Array): Wallet {
  const s = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString()) as StoredWallet;
  return {
    pubkey: s.pubkey ? hexToBytes(s.pubkey) : null,
    amount: new Map(Object.entries(s.amount).map(([cur, v]) => [cur, BigInt(v)])),
    seq: BigInt(s.seq),
    t: s.t,
    lastblk: hexToBytes(s.lastblk),
    preblk: hexToBytes(s.preblk),
  };
}

/**
 * Bytes of a wallet's state for the balance root: address, key, seq, t and the sorted
 * balances. lastblk/preblk are left out: they name the block being hashed.
 */
export function walletStateBytes(addressHex: string, w: Wallet): Uint8Array {
  const amounts = [...w.amount].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // JSON quoting keeps any currency name unambiguous.
  const state = [addressHex, w.pubkey ? bytesToHex(w.pubkey) : '', w.seq.toString(), w.t, amounts.map(([c, v]) => [c, v.toString()])];
  return Buffer.from(JSON.stringify(state));
}
