// The contract storage slots read lately, at most `limit` of them (the least recently used
// goes first), so hot slots cost no store read. A value read from the store is kept only if no
// block was applied while the read was under way: a read that began before a commit may hold
// the slot's old value, and keeping it would hide the new one until it is evicted.

/** `null` is a slot known to be empty (zero); `undefined` is a slot not in the cache. */
export type CachedSlot = Uint8Array | null;

export class SlotCache {
  private readonly slots = new Map<string, CachedSlot>();
  private writes = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.slots.size;
  }

  /** Moves whenever committed values are written: what fill() compares against. */
  get version(): number {
    return this.writes;
  }

  get(key: string): CachedSlot | undefined {
    const value = this.slots.get(key);
    if (value !== undefined) {
      this.slots.delete(key);
      this.slots.set(key, value);
    }
    return value;
  }

  /** Keeps a value read from the store when the read began at the current `version`. */
  fill(key: string, value: CachedSlot, readAt: number): void {
    if (readAt === this.writes) this.keep(key, value);
  }

  /** Committed values, written over what is cached (one version step for all of them). */
  write(values: Iterable<[string, CachedSlot]>): void {
    this.writes++;
    for (const [key, value] of values) this.keep(key, value);
  }

  private keep(key: string, value: CachedSlot): void {
    this.slots.delete(key);
    if (this.limit <= 0) return;
    this.slots.set(key, value);
    if (this.slots.size > this.limit) this.slots.delete(this.slots.keys().next().value as string);
  }
}
