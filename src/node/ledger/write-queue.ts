// Store writes one after another, in the order they were queued: a block's batch never
// overtakes the one before it, and the dev API can wait for every queued write to land.

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(write: () => Promise<T>): Promise<T> {
    const next = this.tail.then(write, write);
    this.tail = next.catch(() => undefined);
    return next;
  }

  idle(): Promise<unknown> {
    return this.tail;
  }
}
