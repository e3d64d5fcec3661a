// A set of listeners told of an event in turn: one that throws is logged and the others are
// still told, so a failing live-stream client cannot stop blocks reaching the rest.

import type { Logger } from '../base/log.js';

export class Listeners<E> {
  private readonly set = new Set<(event: E) => void>();

  constructor(
    private readonly what: string,
    private readonly logger: Logger,
  ) {}

  /** Adds `listener`; returns the function that removes it. */
  add(listener: (event: E) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  tell(event: E): void {
    for (const listener of this.set) {
      try {
        listener(event);
      } catch (err) {
        this.logger.error(`${this.what} listener failed: ${(err as Error).message}`);
      }
    }
  }
}
