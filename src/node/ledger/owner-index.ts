// Wallet address by the hex of its key: a register of a key that already has a wallet gets
// that wallet (the first wallet of a key keeps it).

import { bytesToHex } from '../../bytes.js';
import type { Wallet } from './wallet.js';

export class OwnerIndex {
  private readonly owners = new Map<string, string>();

  /** Follows a wallet whose key is new or changed. */
  note(address: string, before: Wallet | undefined, after: Wallet): void {
    const old = before?.pubkey ? bytesToHex(before.pubkey) : undefined;
    const key = after.pubkey ? bytesToHex(after.pubkey) : undefined;
    if (old === key) return;
    if (old !== undefined && this.owners.get(old) === address) this.owners.delete(old);
    if (key !== undefined && !this.owners.has(key)) this.owners.set(key, address);
  }

  get(keyHex: string): string | undefined {
    return this.owners.get(keyHex);
  }

  /** The index as a map, for the block builder. */
  get map(): Map<string, string> {
    return this.owners;
  }

  clear(): void {
    this.owners.clear();
  }
}
