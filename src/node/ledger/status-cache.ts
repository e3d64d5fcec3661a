// The statuses of the newest transactions, kept in memory up to a bound (oldest dropped first);
// an older status is read from the store.

export class StatusCache {
  private readonly statuses = new Map<string, string>();

  constructor(private readonly entries: number) {}

  get size(): number {
    return this.statuses.size;
  }

  get(txid: string): string | undefined {
    return this.statuses.get(txid);
  }

  /** Keeps the statuses of a committed block, then drops the oldest beyond the bound. */
  add(txids: string[], statuses: string[]): void {
    for (let i = 0; i < txids.length; i++) this.statuses.set(txids[i], statuses[i]);
    let excess = this.statuses.size - this.entries;
    for (const key of this.statuses.keys()) {
      if (excess-- <= 0) break;
      this.statuses.delete(key);
    }
  }

  clear(): void {
    this.statuses.clear();
  }
}
