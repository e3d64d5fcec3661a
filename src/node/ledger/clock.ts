// The node clock: the system clock (or one a test injects) moved by the dev API's offset, and
// the txids it hands out, whose time part is strictly increasing even when the clock stands
// still or is moved back.

import { encodeTxid } from '../../codec/txid.js';

export class NodeClock {
  /** Added to the source clock for block times, txids and the timestamp window (dev API `time`). */
  offsetMs = 0;
  /** Time part of the last txid handed out, ns. */
  private lastTimeNs = 0n;

  constructor(
    private readonly source: () => number,
    private readonly chain: number,
    private readonly nodeName: string,
  ) {}

  /** Milliseconds since the epoch, as the node sees them. */
  now(): number {
    return this.source() + this.offsetMs;
  }

  /** A txid for a transaction accepted now at `height`: its time part is strictly increasing. */
  issueTxid(height: number): { txid: string; timeNs: bigint } {
    let timeNs = BigInt(this.now()) * 1_000_000n;
    if (timeNs <= this.lastTimeNs) timeNs = this.lastTimeNs + 1n;
    this.lastTimeNs = timeNs;
    return { txid: encodeTxid({ chain: this.chain, height, timeNs, node: this.nodeName }), timeNs };
  }

  /** A txid handed out before (a restored pending one) is never handed out again. */
  noteIssued(timeNs: bigint): void {
    if (timeNs > this.lastTimeNs) this.lastTimeNs = timeNs;
  }

  /** True when no txid has been handed out yet in this process or restored. */
  get unused(): boolean {
    return this.lastTimeNs === 0n;
  }
}
