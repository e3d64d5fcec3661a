// `tpkit node --check` and `--repair`: the chain in a data dir, checked, or rebuilt from its
// intact blocks. Neither changes the store it reads: both read a copy in the system's
// temporary folder, since LevelDB rewrites its log when it opens a store. A repair moves the
// damaged store aside, never deleting it, and puts a fresh one in its place.

import { closeSync, cpSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ArgumentError, TpkitError } from '../errors.js';
import type { NodeConfig } from '../node/config/config.js';
import { checkStore, exportChain, type StoreCheck } from '../node/ledger/chain-check.js';
import { rebuildChain, type ChainRebuild } from '../node/ledger/chain-repair.js';
import { dataDirError } from '../node/store/data-dir-error.js';
import type { LevelStore } from '../node/store/store-level.js';
import { checkTables, describeTableDamage, type TablesCheck } from '../node/store/table-check.js';

const levelStore = () => import('../node/store/store-level.js');

/** Runs `work` on a copy of the store folder `dir`, removed after. */
async function onCopy<T>(dir: string, work: (copy: string) => Promise<T>): Promise<T> {
  const copy = mkdtempSync(join(tmpdir(), 'tpkit-store-'));
  try {
    try {
      cpSync(dir, copy, { recursive: true });
    } catch (cause) {
      throw new TpkitError('DATA_DIR_UNUSABLE', `Cannot copy the store ${dir} to read it`, {
        details: `${(cause as Error).message}; the store is read from a copy in ${tmpdir()} (LevelDB rewrites its log when it opens one): free space there, or set TMPDIR; nothing was changed`,
        cause,
      });
    }
    return await work(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** An error about the copy `copy`, told about the store `dir` it was made from. */
function aboutOriginal(err: unknown, copy: string, dir: string): unknown {
  if (!(err instanceof TpkitError)) return err;
  return new TpkitError(err.code, err.shortMessage.split(copy).join(dir), { details: err.details?.split(copy).join(dir), cause: err });
}

/** The store folder of a data dir, or undefined when there is none; a file in its place is refused. */
function ledgerOf(dataDir: string): string | undefined {
  const dir = resolve(dataDir, 'ledger');
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TpkitError('DATA_DIR_UNUSABLE', `Cannot read the store folder ${dir}`, { details: (cause as Error).message, cause });
  }
  if (!isDir) {
    throw new TpkitError('DATA_DIR_UNUSABLE', `${dir} is a file, not a store folder`, {
      details: 'a node keeps its chain in a folder named ledger inside the data dir: move the file away, restore the folder from a copy, or use another --data-dir; nothing was changed',
    });
  }
  return dir;
}

/** The table files of the copy `copy` of `dir`, checked; a file that cannot be read is named by its original. */
async function tablesOf(copy: string, dir: string): Promise<TablesCheck> {
  try {
    return await checkTables(copy);
  } catch (cause) {
    throw aboutOriginal(dataDirError(dir, cause), copy, dir);
  }
}

/** LevelDB's error for a record that fails to read, as damage in words. */
const readFailure = (what: string, err: unknown) => `${what} fails: ${(err as Error).message}`;

/**
 * The chain of a copy of `dir` checked as the node checks it at start, and more: every block of
 * every table file against its checksum, and every record read once, so that "sound" means the
 * node starts and reads what it holds. A store LevelDB will not open at all throws.
 */
function checkAsNodeWould<T>(dir: string, then: (check: StoreCheck, store: LevelStore) => Promise<T>): Promise<T> {
  return onCopy(dir, async (copy) => {
    const tables = await tablesOf(copy, dir);
    let store;
    try {
      // The copy is the original kept aside already: no second one beside it.
      store = await (await levelStore()).LevelStore.open(copy, { keepFiles: false, verifyTables: false });
    } catch (err) {
      throw aboutOriginal(err, copy, dir);
    }
    try {
      const problems = tables.damage.map(describeTableDamage);
      try {
        await store.readEverything();
      } catch (err) {
        problems.push(readFailure('reading every record', err));
      }
      let check: StoreCheck;
      try {
        check = await checkStore(store);
      } catch (err) {
        check = { blocks: 0, txs: 0, problems: [readFailure('reading the chain', err)], ms: 0 };
      }
      check.problems = [...problems, ...check.problems].map((p) => p.split(copy).join(dir));
      return await then(check, store);
    } finally {
      await store.close();
    }
  });
}

/** A new file for --export; an existing one is never overwritten. */
function exportFile(path: string): number {
  try {
    return openSync(path, 'wx');
  } catch (cause) {
    const exists = (cause as NodeJS.ErrnoException).code === 'EEXIST';
    throw new ArgumentError(`--export ${resolve(path)} cannot be written: ${exists ? 'it already exists (never overwritten): name a new file, or move that one away' : (cause as Error).message}`, {
      cause,
    });
  }
}

/** `tpkit node --check [--export FILE]`: the chain in the data dir, checked and reported; nothing is changed. */
export async function checkDataDir(dataDir: string, exportTo: string | undefined): Promise<number> {
  try {
    const dir = ledgerOf(dataDir);
    if (!dir) {
      process.stderr.write(`${resolve(dataDir, 'ledger')}: no chain here (a node started with --data-dir ${dataDir} makes one)\n`);
      return 1;
    }
    // Made before the check runs, so a name already taken is refused at once.
    const out = exportTo === undefined ? undefined : { path: resolve(exportTo), fd: exportFile(exportTo), written: false };
    try {
      return await checkAsNodeWould(dir, async (check, store) => {
        const seconds = (check.ms / 1000).toFixed(2);
        const head = check.head ? `head at height ${check.head.height} (${check.head.hash})` : 'no head';
        process.stdout.write(`${dir}: ${head}; ${check.blocks} blocks and ${check.txs} transactions checked in ${seconds} s\n`);
        for (const problem of check.problems) process.stdout.write(`  damaged: ${problem}\n`);
        if (out) {
          out.written = true;
          let done;
          try {
            done = await exportChain(store, (line) => void writeSync(out.fd, line + '\n'));
          } catch (err) {
            throw new TpkitError('STORE_DAMAGED', `The export to ${out.path} stopped: a record of ${dir} does not read`, {
              details: `${(err as Error).message}; the blocks read before it are in the file`,
              cause: err,
            });
          }
          process.stdout.write(`exported ${done.blocks} blocks and ${done.txs} transactions to ${out.path}\n`);
        }
        process.stdout.write(
          check.problems.length === 0
            ? 'sound\n'
            : `damaged: the node will not start on ${dir}; nothing was changed. To go on: tpkit node --repair rebuilds it from its intact blocks (the damaged store is kept beside it), or restore a copy or snapshot of the data dir, or start with a fresh --data-dir\n`,
        );
        return check.problems.length === 0 ? 0 : 1;
      });
    } finally {
      if (out) {
        closeSync(out.fd);
        if (!out.written) rmSync(out.path, { force: true }); // made by this run, never written: no empty file left
      }
    }
  } catch (err) {
    if (!(err instanceof TpkitError)) throw err;
    process.stderr.write(`${err.code}: ${err.message}\n`);
    return 1;
  }
}

/**
 * `tpkit node --repair`: a damaged chain rebuilt from its intact blocks into a fresh store,
 * the damaged one moved aside as it was. Refused, with nothing changed, while a node holds
 * the store, when the chain is sound (exit 0), or when nothing of it can be kept.
 */
export async function repairDataDir(dataDir: string, config: NodeConfig): Promise<number> {
  const dir = ledgerOf(dataDir);
  if (!dir) throw new TpkitError('STORE_UNREADABLE', `No chain to repair in ${resolve(dataDir)}`, { details: `it has no ledger folder (a node started with --data-dir ${dataDir} makes one)` });
  const { LevelStore, storeInUse } = await levelStore();
  const inUse = await storeInUse(dir);
  if (inUse !== false) {
    throw new TpkitError('DATA_DIR_UNUSABLE', `Cannot repair the store in ${dir}`, {
      details: inUse
        ? 'another node process holds it: stop that node first; nothing was changed'
        : 'this file system makes no hard links, so whether a node holds the store cannot be told: copy the data dir to a local disk and repair the copy; nothing was changed',
    });
  }
  // What the node says of the store as it is: the reason for the repair, or none.
  let problems: string[];
  try {
    problems = await checkAsNodeWould(dir, async (check) => {
      if (check.problems.length === 0) {
        const head = check.head ? `head at height ${check.head.height}, ` : '';
        const sound = new TpkitError('REPAIR_NOT_NEEDED', `Nothing to repair: the chain in ${dir} is sound`, {
          details: `${head}${check.blocks} blocks, ${check.txs} transactions; nothing was changed`,
        });
        process.stdout.write(`${sound.message} [${sound.code}]\n`);
      }
      return check.problems;
    });
  } catch (err) {
    if (!(err instanceof TpkitError) || err.code !== 'STORE_DAMAGED') throw err;
    problems = [err.shortMessage];
  }
  if (problems.length === 0) return 0;

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const fresh = `${dir}.repairing-${stamp}`;
  const aside = `${dir}.damaged-${stamp}`;
  let rebuilt: ChainRebuild;
  let lostWrites: number;
  let leftOut: string[];
  try {
    ({ rebuilt, lostWrites, leftOut } = await onCopy(dir, async (copy) => {
      // What fails its checksums is left out, not read as it is: LevelDB's repair would keep
      // a damaged block that still decompresses. A table that does not read at all goes first.
      const { damage } = await tablesOf(copy, dir);
      const leftOut: string[] = [];
      for (const d of damage.filter((d) => d.kind === 'table')) {
        rmSync(join(copy, d.file));
        leftOut.push(`${describeTableDamage(d)}: the whole table is left out`);
      }
      const salvaged = await LevelStore.salvage(copy).catch((err) => {
        throw aboutOriginal(err, copy, dir);
      });
      try {
        for (const d of damage) {
          if (d.kind === 'filter') leftOut.push(`${describeTableDamage(d)}: no record lost (the filter is written anew)`);
          if (d.kind !== 'block' || !d.keys) continue;
          const dropped = await salvaged.store.dropRange(d.keys.after, d.keys.upTo);
          leftOut.push(`${describeTableDamage(d)}: the records in that range are left out (${dropped} of them still read)`);
        }
        const check = await checkStore(salvaged.store);
        if (check.intact === undefined) {
          const why = check.problems.length > 0 ? `not even its genesis block is intact (${check.problems.slice(0, 3).join('; ')})` : "LevelDB's repair found no record of it";
          throw new TpkitError('STORE_UNREADABLE', `Nothing of the chain in ${dir} can be kept`, {
            details: `${why}${leftOut.map((l) => `; ${l}`).join('')}; nothing was changed: restore a copy or snapshot of the data dir, start with another --data-dir, or --reset to begin a fresh chain in this one`,
          });
        }
        const target = await LevelStore.open(fresh);
        try {
          return { rebuilt: await rebuildChain(salvaged.store, target, check.intact, config), lostWrites: salvaged.lostWrites, leftOut };
        } finally {
          await target.close();
        }
      } catch (err) {
        throw aboutOriginal(err, copy, dir);
      } finally {
        await salvaged.store.close();
      }
    }));
    // The fresh store must pass the start-up check before it takes the damaged one's place.
    const after = await checkAsNodeWould(fresh, async (check) => check.problems);
    if (after.length > 0) throw new TpkitError('STORE_DAMAGED', 'The rebuilt store fails the start-up check', { details: `${after.join('; ')}; nothing was changed` });
  } catch (err) {
    rmSync(fresh, { recursive: true, force: true }); // only what this repair wrote
    throw err;
  }
  try {
    renameSync(dir, aside);
  } catch (cause) {
    rmSync(fresh, { recursive: true, force: true });
    throw new TpkitError('DATA_DIR_UNUSABLE', `Cannot move the damaged store ${dir} aside`, { details: `${(cause as Error).message}; nothing was changed`, cause });
  }
  try {
    renameSync(fresh, dir);
  } catch (cause) {
    renameSync(aside, dir);
    throw new TpkitError('DATA_DIR_UNUSABLE', `Cannot put the rebuilt store in place of ${dir}`, { details: `${(cause as Error).message}; the damaged store is back where it was`, cause });
  }
  process.stdout.write(repairReport(dir, aside, problems, rebuilt, lostWrites, leftOut));
  return 0;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function repairReport(dir: string, aside: string, problems: string[], r: ChainRebuild, lostWrites: number, leftOut: string[]): string {
  const { kept, lost } = r;
  const lines = [`repaired the chain in ${dir}`, ...problems.map((p) => `  was damaged: ${p}`), ...leftOut.map((l) => `  left out: ${l}`)];
  lines.push(`  the damaged store is kept, as it was, in ${aside}`);
  lines.push(
    `  kept: blocks 0 to ${kept.height} (${plural(kept.blocks, 'block')}, head ${kept.hash}), ${plural(kept.txs, 'transaction')} with their statuses, ${plural(kept.wallets, 'wallet')} as of block ${kept.height}, ${plural(kept.pending, 'pending transaction')}`,
  );
  if (lost.toHeight > kept.height) {
    const count = lost.toHeight - kept.height;
    const unreadable = count - lost.readable;
    lines.push(
      `  lost: blocks ${kept.height + 1} to ${lost.toHeight} (${plural(count, 'block')}): ${lost.readable} still read, listing ${plural(lost.txs, 'transaction')}` +
        (unreadable > 0 ? `; ${unreadable} do not read, what they held is not known` : ''),
    );
  } else lines.push(lostWrites > 0 ? `  lost: no block the store still names above ${kept.height}` : '  lost: no block');
  if (lost.requeued > 0)
    lines.push(`  queued again: ${plural(lost.requeued, 'transaction')} of the lost blocks (their containers read); the node checks them again when it starts, and the next blocks hold them`);
  if (lost.unknown > 0) lines.push(`  unknown from now on: ${plural(lost.unknown, 'transaction')} a lost block lists without its container`);
  if (lostWrites > 0)
    lines.push(`  also lost: ${plural(lostWrites, 'acknowledged write')} LevelDB had dropped from its log (blocks or pending transactions, counted by the store's seal); what they held is not known`);
  if (r.snapshots > 0) lines.push(`  dropped: ${plural(r.snapshots, 'snapshot')} of the damaged chain`);
  if (r.headFromConfig) lines.push('  the chain head record did not read: the chain settings (group, node name, accounts) come from this command line');
  for (const note of r.notes) lines.push(`  note: ${note}`);
  lines.push('start the node with the same --data-dir to go on', '');
  return lines.join('\n');
}
