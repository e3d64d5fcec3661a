// Accepted transactions waiting for a block, in txid order (which is arrival order: txid
// times are strictly increasing), with the body-hash index that makes an identical
// resubmission return the first txid.

import type { NodeTx } from './node-tx.js';

export class Mempool {
  private queue: NodeTx[] = [];
  private head = 0;
  private readonly byTxid = new Map<string, NodeTx>();
  private readonly byBodyHash = new Map<string, string>();

  get size(): number {
    return this.byTxid.size;
  }

  add(tx: NodeTx): void {
    this.queue.push(tx);
    this.byTxid.set(tx.txid, tx);
    this.byBodyHash.set(tx.bodyHash, tx.txid);
  }

  get(txid: string): NodeTx | undefined {
    return this.byTxid.get(txid);
  }

  txidForBody(bodyHash: string): string | undefined {
    return this.byBodyHash.get(bodyHash);
  }

  /** Up to `max` transactions from the front, without removing them. */
  peek(max: number): NodeTx[] {
    return this.queue.slice(this.head, this.head + max);
  }

  /** Removes the first `count` transactions (the ones a committed block took). */
  shift(count: number): void {
    for (let i = 0; i < count && this.head < this.queue.length; i++) {
      const tx = this.queue[this.head++];
      this.byTxid.delete(tx.txid);
      if (this.byBodyHash.get(tx.bodyHash) === tx.txid) this.byBodyHash.delete(tx.bodyHash);
    }
    // Compact once the consumed prefix dominates, so shifting stays O(1) amortized.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
