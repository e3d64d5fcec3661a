// The damage the store tests do to a LevelDB store folder, as a disk or a crash does it: its
// CURRENT file deleted, bytes flipped in its log, its log cut to half; and what a folder holds.
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
