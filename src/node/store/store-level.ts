// LevelDB through classic-level: the store blockchain nodes typically embed. Its npm package
// ships prebuilt binaries, so `npm ci` needs no compiler. It is an optional peer dependency,
// loaded only when a node keeps a data directory, so a wallet that embeds the library never
// installs a native module.

import { mkdirSync } from 'node:fs';
import type { ClassicLevel } from 'classic-level';
import { TpkitError, ValidationError } from '../../errors.js';

async function loadClassicLevel(): Promise<typeof ClassicLevel> {
  try {
    return (await import('classic-level')).ClassicLevel;
  } catch (cause) {
    throw new TpkitError('DEPENDENCY_MISSING', 'The node needs classic-level to keep a data directory', {
      details: 'install it next to tpkit (npm install classic-level), or run the node with --memory',
      cause,
    });
  }
}
import type { Store, StoreOp } from './store.js';

export class LevelStore implements Store {
  readonly persistent = true;
  private constructor(private readonly db: ClassicLevel<string, Uint8Array>) {}

  static async open(dir: string): Promise<LevelStore> {
    const Level = await loadClassicLevel();
    mkdirSync(dir, { recursive: true });
    const db = new Level<string, Uint8Array>(dir, { keyEncoding: 'utf8', valueEncoding: 'view' });
    try {
      await db.open();
    } catch (cause) {
      const locked = (cause as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED';
      throw new ValidationError('CONFIG_INVALID', `Cannot open the data directory ${dir}`, {
        details: locked ? 'another node process holds it' : String((cause as Error).message),
        cause,
      });
    }
    return new LevelStore(db);
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.db.get(key);
  }

  getMany(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    return this.db.getMany(keys);
  }

  batch(ops: StoreOp[], options: { sync?: boolean } = {}): Promise<void> {
    // The chained form: one LevelDB WriteBatch like the array form, but about 8x less JS
    // work per operation in classic-level 3 (1.3 against 9-12 us, measured with 25k ops).
    const batch = this.db.batch();
    for (const op of ops) {
      if (op.type === 'put') batch.put(op.key, op.value);
      else batch.del(op.key);
    }
    return batch.write({ sync: options.sync ?? false });
  }

  async *entries(prefix: string, after?: string): AsyncIterable<[string, Uint8Array]> {
    const from = after !== undefined && after >= prefix ? { gt: after } : { gte: prefix };
    for await (const entry of this.db.iterator({ ...from, lt: prefix + '\uffff' })) yield entry;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
