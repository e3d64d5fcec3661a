// The chain in a store, checked before the node serves it: the head names a block, every height
// from genesis to the head has its block, each block hashes to its own hash and links to the one
// before, and every transaction a block lists has its container and its status. A store that
// fails is refused with what is missing, never repaired by deleting, never started silently.

import { TpkitError } from '../../errors.js';
import { META_KEY, PREFIX, statusKey, txKey } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { damageAdvice } from '../store/data-dir-error.js';
import { recordHash, type BlockRecord } from './block.js';

export interface StoreCheck {
  /** The head the store names (meta), or undefined when it names none. */
  head?: { height: number; hash: string };
  /** Blocks read and hashed. */
  blocks: number;
  /** Transactions whose container and status were looked up. */
  txs: number;
  /** What is wrong, most important first; empty for a sound chain. */
  problems: string[];
  /**
   * The last block of the unbroken run from genesis that passes every check (its block
   * whole, linked, its transactions' records there): what a repair keeps. Absent when the
   * genesis block itself fails. With no head, the blocks are checked as far as they go.
   */
  intact?: number;
  ms: number;
}

/** Problems past this many are counted, not listed: one is enough to refuse. */
const MAX_LISTED = 20;
/** Keys looked up per getMany call. */
const LOOKUP_BATCH = 2048;

const heightOfKey = (key: string) => parseInt(key.slice(PREFIX.block.length), 16);
const text = new TextDecoder();

/** The key prefixes a chain writes: a store holding any of them but no head is damaged. */
const CHAIN_PREFIXES = [PREFIX.block, PREFIX.hash, PREFIX.wallet, PREFIX.tx, PREFIX.status, PREFIX.pending];

/** True when the store holds no chain key at all (a store genesis may be written into). */
export async function storeIsEmpty(store: Store): Promise<boolean> {
  for (const prefix of CHAIN_PREFIXES) {
    for await (const _ of store.entries(prefix)) return false;
  }
  return true;
}

/** Checks the whole chain in `store`, genesis to head, in one pass over the blocks. */
export async function checkStore(store: Store): Promise<StoreCheck> {
  const began = performance.now();
  const problems: string[] = [];
  let more = 0;
  /** The lowest height a problem is about: the intact run ends below it. */
  let firstBad = Infinity;
  const problem = (p: string, height = Infinity) => {
    firstBad = Math.min(firstBad, height);
    if (problems.length < MAX_LISTED) problems.push(p);
    else more++;
  };
  const result: StoreCheck = { blocks: 0, txs: 0, problems, ms: 0 };
  const metaBytes = await store.get(META_KEY);
  let head: { height: number; hash: string } | undefined;
  let headLost = false;
  if (!metaBytes) {
    headLost = !(await storeIsEmpty(store));
    if (headLost) problem('the chain head (key "meta") is missing, yet the store holds chain records');
  } else {
    try {
      const meta = JSON.parse(text.decode(metaBytes)) as { height: number; hash: string };
      if (!Number.isSafeInteger(meta.height) || meta.height < 0 || typeof meta.hash !== 'string') throw new Error('no height or hash');
      head = { height: meta.height, hash: meta.hash.toUpperCase() };
      result.head = head;
    } catch (err) {
      headLost = true;
      problem(`the chain head (key "meta") is unreadable: ${(err as Error).message}`);
    }
  }
  // Without a head the blocks are still checked, so that a repair knows what it can keep.
  if (head || headLost) {
    let expected = 0;
    let parent: string | undefined;
    let pendingTxs: [txid: string, height: number][] = [];
    const lookUp = async (txs: [string, number][]) => {
      if (txs.length === 0) return;
      const keys = txs.flatMap(([txid]) => [txKey(txid), statusKey(txid)]);
      const values = await store.getMany(keys);
      for (let i = 0; i < txs.length; i++) {
        const [txid, height] = txs[i];
        if (!values[2 * i]) problem(`transaction ${txid} is listed in a block but its container (x:) is missing`, height);
        if (!values[2 * i + 1]) problem(`transaction ${txid} is listed in a block but its status (s:) is missing`, height);
      }
      result.txs += txs.length;
    };
    for await (const [key, value] of store.entries(PREFIX.block)) {
      const height = heightOfKey(key);
      if (head && height > head.height) {
        problem(`block ${height} lies above the head ${head.height}`);
        continue;
      }
      if (height !== expected) {
        problem(expected === height - 1 ? `block ${expected} is missing` : `blocks ${expected} to ${height - 1} are missing`, expected);
        parent = undefined;
      }
      expected = height + 1;
      let record: BlockRecord;
      try {
        record = JSON.parse(text.decode(value)) as BlockRecord;
        if (record.header.height !== height) throw new Error(`it says height ${record.header.height}`);
        if (recordHash(record) !== record.hash.toUpperCase()) throw new Error('its contents do not hash to its hash');
      } catch (err) {
        problem(`block ${height} is damaged: ${(err as Error).message}`, height);
        parent = undefined;
        continue;
      }
      if (parent !== undefined && record.header.parent.toUpperCase() !== parent) problem(`block ${height} does not link to block ${height - 1}`, height);
      if (head && height === head.height && record.hash.toUpperCase() !== head.hash) problem(`the head names ${head.hash} at height ${height}, the block there is ${record.hash}`, height);
      parent = record.hash.toUpperCase();
      result.blocks++;
      for (const txid of record.txs) pendingTxs.push([txid, height]);
      if (pendingTxs.length >= LOOKUP_BATCH) {
        await lookUp(pendingTxs);
        pendingTxs = [];
      }
    }
    await lookUp(pendingTxs);
    if (head && expected <= head.height) problem(expected === head.height ? `block ${head.height} (the head) is missing` : `blocks ${expected} to ${head.height} (the head) are missing`, expected);
    const last = Math.min(firstBad, expected) - 1;
    if (last >= 0) result.intact = last;
  }
  if (more > 0) problems.push(`and ${more} more problems`);
  result.ms = performance.now() - began;
  return result;
}

export function storeDamaged(dir: string, problems: string[]): TpkitError {
  return new TpkitError('STORE_DAMAGED', `The chain in ${dir} is damaged; the node will not start on it`, {
    details: `${problems.join('; ')}. ${damageAdvice(dir)}`,
  });
}

/**
 * Every block that still reads, with its transactions' containers (base64) and statuses, as
 * one JSON object a line: what a damaged store still holds, in a form any tool reads.
 */
export async function exportChain(store: Store, writeLine: (line: string) => void): Promise<{ blocks: number; txs: number }> {
  let blocks = 0;
  let txs = 0;
  for await (const [key, value] of store.entries(PREFIX.block)) {
    let record: BlockRecord;
    try {
      record = JSON.parse(text.decode(value)) as BlockRecord;
    } catch {
      continue; // unreadable: --check lists it
    }
    const values = await store.getMany(record.txs.flatMap((txid) => [txKey(txid), statusKey(txid)]));
    const found: Record<string, { tx: string | null; status: unknown }> = {};
    record.txs.forEach((txid, i) => {
      const raw = values[2 * i];
      const status = values[2 * i + 1];
      let parsed: unknown;
      try {
        parsed = status ? JSON.parse(text.decode(status)) : null;
      } catch {
        parsed = null;
      }
      found[txid] = { tx: raw ? Buffer.from(raw).toString('base64') : null, status: parsed };
    });
    writeLine(JSON.stringify({ height: heightOfKey(key), block: record, txs: found }));
    blocks++;
    txs += record.txs.length;
  }
  return { blocks, txs };
}
