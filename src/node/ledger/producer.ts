// When blocks are made: on the block-time interval while transactions wait, at once with
// --instant, or only when asked (--mine-on-demand, the dev API). One block is built at a time;
// the chain supplies the building, this decides when it runs.

import type { NodeConfig } from '../config/config.js';

export interface ProducerHost {
  readonly config: NodeConfig;
  /** Pending transactions waiting for a block. */
  pendingCount(): number;
  /** True while the chain is shutting down or a dev operation holds it. */
  paused(): boolean;
  /** Builds and commits one block; `force` makes one even with nothing pending. */
  produce(force: boolean): Promise<unknown>;
}

export class BlockProducer {
  private producing: Promise<unknown> | undefined;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly host: ProducerHost) {}

  /** Starts the interval, or the first instant block for restored pending transactions. */
  start(): void {
    const { config } = this.host;
    if (config.mineOnDemand) {
      // Blocks only when asked for (POST /api/dev/mine, the faucet).
    } else if (!config.instant) {
      this.timer = setInterval(() => this.schedule(), config.blockTime);
      this.timer.unref();
    }
    // Restored pending transactions wait for the first tick, or go at once with --instant.
    else if (this.host.pendingCount() > 0) this.schedule();
  }

  /** True when an instant chain should make a block as soon as transactions arrive. */
  get instant(): boolean {
    return this.host.config.instant && !this.host.config.mineOnDemand;
  }

  /** Asks for a block soon; one block is built at a time. */
  schedule(): void {
    if (this.scheduled || this.producing || this.host.paused()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.producing || this.host.paused() || this.host.pendingCount() === 0) return;
      this.run(this.host.produce(false)).finally(() => {
        if (this.host.config.instant && this.host.pendingCount() > 0) this.schedule();
      });
    });
  }

  /** Runs `made` as the block being built: no other starts until it settles. */
  run<T>(made: Promise<T>): Promise<T> {
    const tracked = made.finally(() => {
      this.producing = undefined;
    });
    this.producing = tracked;
    return tracked;
  }

  /** True while a block is being built. */
  get busy(): boolean {
    return this.producing !== undefined;
  }

  /** Resolves once the block being built (if any) is done, whatever its outcome. */
  async idle(): Promise<void> {
    while (this.producing) await this.producing.catch(() => undefined);
  }

  /** Waits until nothing is pending and no block is being built (tests, tools). */
  async settle(): Promise<void> {
    while (this.host.pendingCount() > 0 || this.producing || this.scheduled) {
      if (!this.producing && !this.scheduled) this.schedule();
      await (this.producing ?? new Promise((r) => setImmediate(r)));
    }
  }

  /** Stops the interval; the block being built finishes (await idle()). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
