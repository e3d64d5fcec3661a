// A block's `ledger_patch`, as the reference node writes it (tpnode_httpapi.erl,
// format_ledger_patch): one row [address, field, path, old value, new value] per changed
// field, binaries as "0x" + lowercase hex, a value the wallet did not have as "0x". Rows here
// cover the fields a plain wallet has: "balance" (path: the currency's bytes), "seq",
// "pubkey" and "lastblk" (path "0x7478", the bytes of "tx"; values are block heights).
//
// The reference writes the "lastblk" row for a transaction's sender only
// (generate_block2.erl); this node writes it for every wallet the block changes, so a walk
// from a wallet's `info.lastblock.tx` down these rows meets incoming transfers too.
//
// A block record keeps, beside each changed wallet, what the wallet was before (`was`: null
// for a wallet the block created). Blocks stored before that was kept have no rows.

import { bytesToHex } from '../../bytes.js';
import type { JsonValue } from '../base/json.js';
import type { StoredWallet, Wallet } from './wallet.js';

/** What a wallet was before a block changed it, as its record keeps it. */
export interface WalletBefore {
  /** Height of the block that changed it before. */
  height: number;
  seq: string;
  amount: Record<string, string>;
  /** Present only when the block changed the key: the key before (null: none). */
  pubkey?: string | null;
}

/** The `was` of a wallet the block turns from `before` (undefined: it did not exist) into `after`. */
export function walletBefore(before: Wallet | undefined, after: Wallet): WalletBefore | null {
  if (!before) return null;
  const amount: Record<string, string> = {};
  for (const [cur, v] of before.amount) amount[cur] = v.toString();
  const was: WalletBefore = { height: before.height, seq: before.seq.toString(), amount };
  const keyBefore = before.pubkey ? bytesToHex(before.pubkey) : null;
  const keyAfter = after.pubkey ? bytesToHex(after.pubkey) : null;
  if (keyBefore !== keyAfter) was.pubkey = keyBefore;
  return was;
}

const utf8 = new TextEncoder();
/** The reference's form of a binary: "0x" + lowercase hex ("0x" alone for no bytes). */
const hex0x = (hex: string) => `0x${hex.toLowerCase()}`;
const NONE = '0x';
const TX_PATH = hex0x(bytesToHex(utf8.encode('tx')));

/**
 * The rows of one block (at `height`) from its `bals` (uppercase address hex → stored wallet
 * with `was`); with `only` (uppercase hex), that wallet's rows alone.
 */
export function ledgerPatchRows(bals: Record<string, unknown>, height: number, only?: string): JsonValue[] {
  const rows: JsonValue[] = [];
  for (const [address, entry] of Object.entries(bals)) {
    if (only !== undefined && address !== only) continue;
    const stored = entry as StoredWallet & { was?: WalletBefore | null };
    if (stored.was === undefined) continue;
    const was = stored.was;
    const a = hex0x(address);
    const currencies = [...new Set([...Object.keys(was?.amount ?? {}), ...Object.keys(stored.amount)])].sort();
    for (const cur of currencies) {
      const old = BigInt(was?.amount[cur] ?? 0);
      const now = BigInt(stored.amount[cur] ?? 0);
      if (old !== now) rows.push([a, 'balance', hex0x(bytesToHex(utf8.encode(cur))), old, now]);
    }
    const seq = BigInt(stored.seq);
    if (was ? BigInt(was.seq) !== seq : seq !== 0n) rows.push([a, 'seq', [], was ? BigInt(was.seq) : NONE, seq]);
    const keyChanged = was ? was.pubkey !== undefined : stored.pubkey !== null;
    if (keyChanged) rows.push([a, 'pubkey', [], was?.pubkey ? hex0x(was.pubkey) : NONE, stored.pubkey ? hex0x(stored.pubkey) : NONE]);
    rows.push([a, 'lastblk', TX_PATH, was ? was.height : NONE, height]);
  }
  return rows;
}
