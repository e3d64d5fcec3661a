// Group commit: a submission is acknowledged only once its write is synced to disk, and the
// writes of every submission that arrives while one synced batch is in flight go together in
// the next one. Each 200 then waits for about one fsync, shared by all the requests of that
// moment, instead of one fsync each.

import type { StoreOp } from './store.js';

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

export class GroupCommit {
  private ops: StoreOp[] = [];
  private waiters: Waiter[] = [];
  private running: Promise<void> | undefined;

  /** `write` stores one batch durably (synced) or rejects. */
  constructor(private readonly write: (ops: StoreOp[]) => Promise<void>) {}

  /** Resolves when `op` is durable; rejects with the store's error if its batch failed. */
  add(op: StoreOp): Promise<void> {
    this.ops.push(op);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    // Start on the next turn, so the requests parsed in this one share the first batch too.
    this.running ??= new Promise<void>((r) => setImmediate(r)).then(() => this.drain());
    return done;
  }

  /** Resolves once every write added so far has been attempted. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.ops.length > 0) {
      const ops = this.ops;
      const waiters = this.waiters;
      this.ops = [];
      this.waiters = [];
      try {
        await this.write(ops);
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
    }
    this.running = undefined;
  }
}
