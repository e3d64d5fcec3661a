// Accepted transactions waiting for a block, in txid order (which is arrival order: txid
// times are strictly increasing), with the body-hash index that makes an identical
// resubmission return the first txid. A transaction is known from the moment it is accepted,
// but a block takes it only once its write is durable: the front of the queue up to the first
// one still being written. It is bounded three ways: transactions, their bytes, and the
// transactions of one sending wallet, so one client can neither exhaust memory nor crowd out
// the others. Ethereum transactions join the queue in nonce order (eth-queue.ts): one whose
// nonce is ahead is known (counted, found by hash) but waits outside the queue.

import { bytesToHex } from '../../bytes.js';
import { ValidationError } from '../../errors.js';
import type { NodeLimits } from '../config/config.js';
import { EthQueue } from './eth-queue.js';
import type { NodeTx } from './node-tx.js';

/** The wallet a transaction is charged to for the per-sender bound (a register has none yet). */
function senderOf(tx: NodeTx): string | undefined {
  if (tx.body.kind === 'register') return undefined;
  return tx.body.kind === 'ether' ? tx.body.from : bytesToHex(tx.body.from);
}

export class Mempool {
  private queue: NodeTx[] = [];
  private head = 0;
  private readonly byTxid = new Map<string, NodeTx>();
  private readonly byBodyHash = new Map<string, string>();
  private readonly writing = new Set<NodeTx>();
  private readonly bySender = new Map<string, number>();
  private totalBytes = 0;
  /** Ethereum transactions by account and nonce. */
  readonly eth: EthQueue;

  /** `nonceOf`: an EVM account's committed nonce, which orders its Ethereum transactions. */
  constructor(nonceOf: (key: string) => bigint = () => 0n) {
    this.eth = new EthQueue(nonceOf);
  }

  get size(): number {
    return this.byTxid.size;
  }

  /** Bytes of the pending containers. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Pending transactions sent by a wallet (lowercase address hex). */
  pendingFrom(sender: string): number {
    return this.bySender.get(sender) ?? 0;
  }

  /** MEMPOOL_FULL naming the bound `tx` would pass, or undefined when there is room for it. */
  refusal(tx: NodeTx, limits: Pick<NodeLimits, 'maxPending' | 'maxPendingBytes' | 'maxPendingPerSender' | 'maxQueued' | 'maxQueuedPerSender'>): ValidationError | undefined {
    const full = (message: string, details: string) => new ValidationError('MEMPOOL_FULL', message, { details });
    if (this.size >= limits.maxPending) return full('Too many pending transactions', `${this.size} are waiting for a block, the limit (--max-pending); retry later`);
    if (this.totalBytes + tx.raw.length > limits.maxPendingBytes) {
      return full(
        'Pending transactions fill the memory allowed',
        `${this.totalBytes} bytes are waiting for a block; with ${tx.raw.length} more they pass the limit of ${limits.maxPendingBytes} (--max-pending-bytes); retry later`,
      );
    }
    const sender = senderOf(tx);
    if (sender !== undefined && this.pendingFrom(sender) >= limits.maxPendingPerSender) {
      return full(
        'Too many pending transactions from this wallet',
        `0x${sender} has ${this.pendingFrom(sender)} waiting for a block, the limit per sender (--max-pending-per-sender); retry once some are included`,
      );
    }
    return tx.body.kind === 'ether' ? this.eth.check(tx, limits).refusal : undefined;
  }

  /** The waiting Ethereum transaction `tx` would replace (same account and nonce), if any. */
  replaced(tx: NodeTx, limits: Pick<NodeLimits, 'maxQueued' | 'maxQueuedPerSender'>): NodeTx | undefined {
    return tx.body.kind === 'ether' ? this.eth.check(tx, limits).replaces : undefined;
  }

  /** Adds a transaction; `durable` false while its store write is still in flight. */
  add(tx: NodeTx, durable = true): void {
    if (tx.body.kind === 'ether') this.queue.push(...this.eth.add(tx));
    else this.queue.push(tx);
    this.byTxid.set(tx.txid, tx);
    this.totalBytes += tx.raw.length;
    const sender = senderOf(tx);
    if (sender !== undefined) this.bySender.set(sender, this.pendingFrom(sender) + 1);
    this.byBodyHash.set(tx.bodyHash, tx.txid);
    if (!durable) this.writing.add(tx);
  }

  /** Its write is on disk: a block may take it now. */
  markDurable(tx: NodeTx): void {
    this.writing.delete(tx);
  }

  /**
   * Forgets a transaction whose write failed (it was never acknowledged). A ready Ethereum one
   * takes the same account's transactions with higher nonces along (returned): they were
   * acknowledged, yet none can run without its nonce, so they end with a stated reason
   * (the caller writes it) instead of waiting forever or failing in a block.
   */
  drop(tx: NodeTx): NodeTx[] {
    this.writing.delete(tx);
    // Already released along with an earlier nonce of the same failed write.
    if (!this.has(tx)) return [];
    let released: NodeTx[] = [];
    const body = tx.body;
    if (body.kind === 'ether') {
      if (this.eth.isWaiting(tx)) this.eth.dropWaiting(tx);
      else {
        released = [...this.byTxid.values()].filter((t) => t.body.kind === 'ether' && t.body.from === body.from && t.body.nonce > body.nonce);
        this.eth.release(body.from, released);
        this.queue.push(...this.eth.doneReady(tx, false));
      }
    }
    for (const t of [tx, ...released]) {
      this.writing.delete(t);
      this.forget(t);
    }
    this.skipRemoved();
    return released;
  }

  get(txid: string): NodeTx | undefined {
    return this.byTxid.get(txid);
  }

  txidForBody(bodyHash: string): string | undefined {
    return this.byBodyHash.get(bodyHash);
  }

  /** Up to `max` durable transactions of at most `maxBytes` container bytes (one at least) from the front, without removing them. */
  peek(max: number, maxBytes = Infinity): NodeTx[] {
    const out: NodeTx[] = [];
    let bytes = 0;
    for (let i = this.head; i < this.queue.length && out.length < max; i++) {
      const tx = this.queue[i];
      if (!this.has(tx)) continue;
      if (this.writing.has(tx)) break;
      // In order, never skipping one: the next block starts with the one that did not fit.
      if (bytes + tx.raw.length > maxBytes && out.length > 0) break;
      bytes += tx.raw.length;
      out.push(tx);
    }
    return out;
  }

  /** Removes the transactions a committed block took (a prefix of what peek gave). */
  remove(txs: NodeTx[]): void {
    for (const tx of txs) {
      if (tx.body.kind === 'ether' && this.has(tx)) this.queue.push(...this.eth.doneReady(tx, true));
      this.forget(tx);
    }
    this.skipRemoved();
    // Compact once the consumed prefix dominates, so removing stays O(1) amortized.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.filter((tx, i) => i >= this.head && this.has(tx));
      this.head = 0;
    }
  }

  private has(tx: NodeTx): boolean {
    return this.byTxid.get(tx.txid) === tx;
  }

  private forget(tx: NodeTx): void {
    if (!this.has(tx)) return;
    this.byTxid.delete(tx.txid);
    this.totalBytes -= tx.raw.length;
    const sender = senderOf(tx);
    if (sender !== undefined) {
      const n = this.pendingFrom(sender) - 1;
      if (n > 0) this.bySender.set(sender, n);
      else this.bySender.delete(sender);
    }
    if (this.byBodyHash.get(tx.bodyHash) === tx.txid) this.byBodyHash.delete(tx.bodyHash);
  }

  private skipRemoved(): void {
    while (this.head < this.queue.length && !this.has(this.queue[this.head])) this.head++;
  }
}
