// What a resuming chain reads back from the store besides its head record: every wallet (those
// stored before heights were kept get the height of their last block, found from its hash) and
// the dev API's clock offset.

import { bytesToHex } from '../../bytes.js';
import { CLOCK_KEY, hashKey, PREFIX } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { decodeWallet, type Wallet } from './wallet.js';

const text = new TextDecoder();

export async function loadWallets(store: Store): Promise<Map<string, Wallet>> {
  const wallets = new Map<string, Wallet>();
  for await (const [key, value] of store.entries(PREFIX.wallet)) wallets.set(key.slice(2), decodeWallet(value));
  for (const w of wallets.values()) {
    if (w.height >= 0) continue;
    const h = await store.get(hashKey(bytesToHex(w.lastblk, true)));
    w.height = h ? Number(text.decode(h)) : 0;
  }
  return wallets;
}

/** The clock offset the dev API set, 0 when none was. */
export async function loadClockOffset(store: Store): Promise<number> {
  const offset = await store.get(CLOCK_KEY);
  return offset ? Number(text.decode(offset)) : 0;
}
