// Which of several kernels a miner thread should run: mostly the one measured fastest, and
// every `probeEvery`-th slice another one in turn, so a change in the machine's state
// (a busy sibling hardware thread, an engine tiering code up) is noticed. The state lives
// as long as the thread, not one search: a search at a low difficulty lasts a few slices,
// and a choice made once (say while the faster kernel still ran in the engine's baseline
// tier) would otherwise stick through every short search that follows.

import type { KernelName } from './kernel.js';

export class KernelRace {
  readonly names: readonly KernelName[];
  readonly #probeEvery: number;
  readonly #switchMargin: number;
  readonly #minMs: number;
  /** Hashes per millisecond: a moving average for the current kernel, the last probe for the others. */
  readonly #rate: number[];
  #current = 0;
  #nextProbe = 1;
  #picks = 0;

  /**
   * @param probeEvery slices between two probes of another kernel
   * @param switchMargin how much faster a probe must be than the current kernel's average
   * @param minMs slices this short (or shorter) say nothing about a rate: the clock is too coarse
   */
  constructor(names: readonly KernelName[], probeEvery: number, switchMargin = 1.03, minMs = 0.05) {
    this.names = names;
    this.#probeEvery = probeEvery;
    this.#switchMargin = switchMargin;
    this.#minMs = minMs;
    this.#rate = names.map(() => 0);
  }

  /** The kernel currently kept. */
  get current(): number {
    return this.#current;
  }

  /** Index of the kernel for the next slice. */
  next(): number {
    if (this.names.length < 2 || ++this.#picks % this.#probeEvery !== 0) return this.#current;
    if (this.#nextProbe === this.#current) this.#nextProbe = (this.#nextProbe + 1) % this.names.length;
    const probe = this.#nextProbe;
    this.#nextProbe = (this.#nextProbe + 1) % this.names.length;
    return probe;
  }

  /** A slice on kernel `index` hashed `hashes` in `ms`; too short a slice says nothing. */
  record(index: number, hashes: number, ms: number): void {
    if (ms <= this.#minMs) return;
    const measured = hashes / ms;
    if (index === this.#current) {
      const rate = this.#rate[index];
      this.#rate[index] = rate > 0 ? rate * 0.75 + measured * 0.25 : measured;
      return;
    }
    this.#rate[index] = measured;
    if (measured > this.#rate[this.#current] * this.#switchMargin) this.#current = index;
  }
}
