// The node's key-value store: string keys, byte values, atomic batches, prefix scans.
// LevelDB (store-level.ts) on disk; MemoryStore for `--memory` and tests.

export type StoreOp = { type: 'put'; key: string; value: Uint8Array } | { type: 'del'; key: string };

export interface Store {
  readonly persistent: boolean;
  get(key: string): Promise<Uint8Array | undefined>;
  /** Values of several keys in one call, in the order of `keys`. */
  getMany(keys: string[]): Promise<(Uint8Array | undefined)[]>;
  /** All operations land together or not at all, also across a crash. */
  batch(ops: StoreOp[], options?: { sync?: boolean }): Promise<void>;
  /** Entries whose key starts with `prefix`, in key order; with `after`, only keys above it. */
  entries(prefix: string, after?: string): AsyncIterable<[string, Uint8Array]>;
  close(): Promise<void>;
}

export class MemoryStore implements Store {
  readonly persistent = false;
  private readonly map = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.map.get(key);
  }

  async getMany(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((key) => this.map.get(key));
  }

  async batch(ops: StoreOp[]): Promise<void> {
    for (const op of ops) {
      if (op.type === 'put') this.map.set(op.key, op.value.slice());
      else this.map.delete(op.key);
    }
  }

  async *entries(prefix: string, after?: string): AsyncIterable<[string, Uint8Array]> {
    const keys = [...this.map.keys()].filter((k) => k.startsWith(prefix) && (after === undefined || k > after)).sort();
    for (const key of keys) {
      const value = this.map.get(key);
      if (value) yield [key, value];
    }
  }

  async close(): Promise<void> {}
}
