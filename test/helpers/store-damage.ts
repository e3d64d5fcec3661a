// The damage the store tests do to a LevelDB store folder, as a disk or a crash does it: its
// CURRENT file deleted, bytes flipped in its log or in a table, a file cut to half; and what a folder holds.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type StoreDamage = 'CURRENT deleted' | 'bytes flipped in the log' | 'the log truncated to half';

export const STORE_DAMAGES: StoreDamage[] = ['CURRENT deleted', 'bytes flipped in the log', 'the log truncated to half'];

/** LevelDB's write-ahead log: where a chain this small lives until a compaction. */
export function logFile(ledger: string): string {
  const logs = readdirSync(ledger)
    .filter((n) => n.endsWith('.log'))
    .sort();
  if (logs.length === 0) throw new Error(`${ledger} has no log`);
  return join(ledger, logs[logs.length - 1]);
}

export function damageStore(ledger: string, damage: StoreDamage): void {
  if (damage === 'CURRENT deleted') return rmSync(join(ledger, 'CURRENT'));
  const log = logFile(ledger);
  if (damage === 'the log truncated to half') return truncateSync(log, Math.floor(statSync(log).size / 2));
  // 64 bytes in the middle of the log: LevelDB skips the records they fall in.
  const bytes = readFileSync(log);
  const at = Math.floor(bytes.length / 2);
  for (let i = at; i < at + 64; i++) bytes[i] ^= 0xff;
  writeFileSync(log, bytes);
}

/** name -> sha256 of every file under `dir` (recursively), LOCK aside. */
export function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }).map(String)) {
    const path = join(dir, name);
    if (statSync(path).isFile() && !name.endsWith('LOCK')) out.set(name.split('/').pop()!, createHash('sha256').update(readFileSync(path)).digest('hex'));
  }
  return out;
}

/** Where the table tests flip 64 bytes of a LevelDB table, or cut it to half. */
export type TableDamage = 'a data block' | 'the index block' | 'the footer' | 'the filter block' | 'the middle of a value' | 'the table truncated to half';

export const TABLE_DAMAGES: TableDamage[] = ['a data block', 'the index block', 'the footer', 'the filter block', 'the middle of a value', 'the table truncated to half'];

/** The one table file of a compacted store. */
export function tableFile(ledger: string): string {
  const tables = readdirSync(ledger).filter((n) => n.endsWith('.ldb'));
  if (tables.length !== 1) throw new Error(`${ledger} holds ${tables.length} tables, not 1`);
  return join(ledger, tables[0]);
}

/**
 * Flips 64 bytes of the store's table at `damage`, found from the table's own footer (LevelDB's
 * format: metaindex and index handles as varints, then the magic number); the filter block lies
 * just before the metaindex. A value: the bytes after a block record's "parent" in the file's
 * second half (Snappy leaves JSON text mostly literal).
 */
export function damageTable(ledger: string, damage: TableDamage): void {
  const path = tableFile(ledger);
  const file = readFileSync(path);
  if (damage === 'the table truncated to half') return truncateSync(path, Math.floor(file.length / 2));
  const varint = (at: number): [number, number] => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = file[at++];
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return [value, at];
    }
  };
  const footer = file.length - 48;
  const [metaAt, a] = varint(footer);
  const [, b] = varint(a);
  const [indexAt, c] = varint(b);
  const [indexSize] = varint(c);
  const at = {
    'a data block': 1000,
    'the index block': indexAt + Math.floor(indexSize / 2) - 32,
    'the footer': file.length - 64,
    'the filter block': metaAt - 200,
    'the middle of a value': file.indexOf(Buffer.from('"parent":"'), Math.floor(footer / 2)) + 12,
  }[damage];
  if (at < 12) throw new Error(`no place for ${damage} in ${path}`);
  for (let i = at; i < at + 64; i++) file[i] ^= 0xff;
  writeFileSync(path, file);
}
