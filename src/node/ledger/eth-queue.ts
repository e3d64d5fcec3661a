// Ethereum transactions of each account in nonce order, as geth's pool keeps them: those that
// follow the account's nonce without a gap are ready (they go to the block queue in order), a
// nonce further ahead waits here ("queued") until the gap fills. A waiting one may be replaced
// by one of the same nonce at a price at least 10 % higher (geth's price bump).

import { ValidationError } from '../../errors.js';
import type { EthTxBody } from '../evm/eth-tx.js';
import type { NodeLimits } from '../config/config.js';
import type { NodeTx } from './node-tx.js';

interface Account {
  /** The nonce after the last ready transaction; meaningful while `ready` > 0. */
  next: bigint;
  ready: number;
  waiting: Map<bigint, NodeTx>;
}

const bodyOf = (tx: NodeTx) => tx.body as unknown as EthTxBody;
/** geth's txpool.pricebump: a replacement pays at least 10 % more per gas. */
const PRICE_BUMP_PERCENT = 10n;

export function ethRefused(message: string, details: string): ValidationError {
  return new ValidationError('ETH_TX_REFUSED', message, { details });
}

export class EthQueue {
  private readonly accounts = new Map<string, Account>();
  private waitingCount = 0;

  /** `nonceOf`: an account's committed nonce (40 hex digits). */
  constructor(private readonly nonceOf: (key: string) => bigint) {}

  /** Transactions waiting behind a gap, of all accounts. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** The nonce after the account's ready transactions: eth_getTransactionCount "pending". */
  pendingNonce(key: string): bigint {
    const a = this.accounts.get(key);
    return a && a.ready > 0 ? a.next : this.nonceOf(key);
  }

  /**
   * Why `tx` cannot join, or what it replaces: a same-nonce transaction waiting behind a gap.
   * Nonces below the committed one are the submission's to refuse.
   */
  check(tx: NodeTx, limits: Pick<NodeLimits, 'maxQueued' | 'maxQueuedPerSender'>): { refusal?: ValidationError; replaces?: NodeTx } {
    const body = bodyOf(tx);
    const a = this.accounts.get(body.from);
    const next = this.pendingNonce(body.from);
    if (body.nonce < next) {
      return { refusal: ethRefused('replacement transaction underpriced', `nonce ${body.nonce} is already taken by a transaction ready for the next block, which can no longer be replaced`) };
    }
    if (body.nonce === next) return {};
    const old = a?.waiting.get(body.nonce);
    if (old) {
      const price = bodyOf(old).gasPrice;
      if (body.gasPrice * 100n < price * (100n + PRICE_BUMP_PERCENT) || body.gasPrice <= price) {
        return { refusal: ethRefused('replacement transaction underpriced', `nonce ${body.nonce} waits at gas price ${price}; a replacement pays at least ${PRICE_BUMP_PERCENT} % more`) };
      }
      return { replaces: old };
    }
    if ((a?.waiting.size ?? 0) >= limits.maxQueuedPerSender) {
      return {
        refusal: new ValidationError('MEMPOOL_FULL', 'txpool is full', {
          details: `0x${body.from} has ${a!.waiting.size} transactions waiting for nonce ${next}, the limit per account (limits.maxQueuedPerSender); send nonce ${next} first`,
        }),
      };
    }
    if (this.waitingCount >= limits.maxQueued) {
      return { refusal: new ValidationError('MEMPOOL_FULL', 'txpool is full', { details: `${this.waitingCount} transactions wait for an earlier nonce, the limit (limits.maxQueued); retry later` }) };
    }
    return {};
  }

  /**
   * Takes `tx` (checked, with any transaction it replaces already removed); returns the
   * transactions that became ready, in nonce order, for the block queue.
   */
  add(tx: NodeTx): NodeTx[] {
    const body = bodyOf(tx);
    const a = this.account(body.from);
    const next = a.ready > 0 ? a.next : this.nonceOf(body.from);
    // Below the next nonce only on a restart over a changed state: it goes to the block,
    // which gives it its failed status.
    if (body.nonce < next) return [tx];
    if (body.nonce > next) {
      a.waiting.set(body.nonce, tx);
      this.waitingCount++;
      return [];
    }
    const out = [tx];
    a.next = next + 1n;
    a.ready++;
    for (let w = a.waiting.get(a.next); w; w = a.waiting.get(a.next)) {
      a.waiting.delete(a.next);
      this.waitingCount--;
      out.push(w);
      a.next++;
      a.ready++;
    }
    return out;
  }

  /** Whether `tx` waits behind a gap (not in the block queue). */
  isWaiting(tx: NodeTx): boolean {
    const body = bodyOf(tx);
    return this.accounts.get(body.from)?.waiting.get(body.nonce) === tx;
  }

  /** Forgets a waiting transaction (replaced, or its write failed). */
  dropWaiting(tx: NodeTx): void {
    const body = bodyOf(tx);
    const a = this.accounts.get(body.from);
    if (a?.waiting.get(body.nonce) !== tx) return;
    a.waiting.delete(body.nonce);
    this.waitingCount--;
    this.tidy(body.from, a);
  }

  /**
   * A ready transaction left the block queue: included in a block, or its write failed (then
   * the account's next nonce goes back to it). Returns transactions that became ready: after
   * a block the committed nonce may have reached a waiting one.
   */
  doneReady(tx: NodeTx, included: boolean): NodeTx[] {
    const body = bodyOf(tx);
    const a = this.accounts.get(body.from);
    if (!a || a.ready === 0) return [];
    a.ready--;
    if (!included && body.nonce < a.next) a.next = body.nonce;
    if (a.ready > 0) return [];
    const nonce = this.nonceOf(body.from);
    const first = a.waiting.get(nonce);
    if (!first) {
      this.tidy(body.from, a);
      return [];
    }
    a.waiting.delete(nonce);
    this.waitingCount--;
    return this.add(first);
  }

  /**
   * A ready transaction's write failed: the account's transactions of `released` (ready ones
   * and waiting ones, all with a higher nonce) leave the queue with it, since none can run
   * without its nonce. Call before doneReady of the failed one.
   */
  release(key: string, released: NodeTx[]): void {
    const a = this.accounts.get(key);
    if (!a) return;
    for (const tx of released) {
      const nonce = bodyOf(tx).nonce;
      if (a.waiting.get(nonce) === tx) {
        a.waiting.delete(nonce);
        this.waitingCount--;
      } else if (a.ready > 0) a.ready--;
    }
    this.tidy(key, a);
  }

  private account(key: string): Account {
    let a = this.accounts.get(key);
    if (!a) this.accounts.set(key, (a = { next: 0n, ready: 0, waiting: new Map() }));
    return a;
  }

  private tidy(key: string, a: Account): void {
    if (a.ready === 0 && a.waiting.size === 0) this.accounts.delete(key);
  }
}
