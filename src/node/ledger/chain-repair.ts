// A damaged chain rebuilt into a fresh store: the unbroken run of blocks from genesis that
// passes the start-up check (chain-check.ts's `intact`), with what its transactions need
// (containers, statuses, the duplicate index, contract receipts), the ledger state as of its
// last block, and the transactions the node acknowledged but no kept block holds, queued
// again. The state is worked out as a rollback works it out (dev/rollback.ts), from the kept
// blocks' own records, not from the damaged store's wallets: each wallet as the last kept block
// that changed it left it, or as the store holds it when its record still names that block (a
// dev edit made since is kept); a wallet no block ever changed (made by the dev API) is kept;
// one that only lost blocks changed or made is dropped, and its number is free again. Contract
// state is put back with the undo records of the blocks above. Snapshots are not carried over:
// they name states of the damaged chain. The source store is only read.

import { addressFromText, addressParts } from '../../codec/address.js';
import { bytesToHex, hexToBytes } from '../../bytes.js';
import type { NodeConfig } from '../config/config.js';
import { evmRollbackOps } from '../evm/contract-state.js';
import { CLOCK_KEY, hashKey, META_KEY, pendingKey, PREFIX, statusKey, txKey, walletKey, type ChainMeta } from '../store/keys.js';
import type { Store, StoreOp } from '../store/store.js';
import type { BlockRecord } from './block.js';
import { devAccounts, feeAddressOf } from './genesis.js';

export interface ChainRebuild {
  /** What the fresh store holds. */
  kept: { height: number; hash: string; blocks: number; txs: number; wallets: number; pending: number };
  /** Blocks above the kept ones the damaged store still names or holds. */
  lost: {
    /** The highest height the damaged store names (its head, or a block above it); -1 if none is above the kept ones. */
    toHeight: number;
    /** Lost blocks that still read, and the transactions they list. */
    readable: number;
    txs: number;
    /** Transactions of lost blocks queued again (their containers still read). */
    requeued: number;
    /** Transactions a lost block lists whose container is gone: unknown from now on. */
    unknown: number;
  };
  /** Snapshots of the damaged store, not carried over. */
  snapshots: number;
  /** The chain head record was unreadable: chain settings came from the node's configuration. */
  headFromConfig: boolean;
  /** What could not be rebuilt as described, in words. */
  notes: string[];
}

const text = new TextDecoder();
const utf8 = new TextEncoder();
/** Operations written per store batch. */
const BATCH = 4096;
const ZERO_HEX = '0'.repeat(64);

const parse = <T>(bytes: Uint8Array | undefined): T | undefined => {
  if (!bytes) return undefined;
  try {
    return JSON.parse(text.decode(bytes)) as T;
  } catch {
    return undefined;
  }
};

/** Writes `ops` as they come, in batches; the last batch is synced. */
class BatchWriter {
  private ops: StoreOp[] = [];
  constructor(private readonly to: Store) {}
  async put(key: string, value: Uint8Array): Promise<void> {
    this.ops.push({ type: 'put', key, value });
    if (this.ops.length >= BATCH) await this.flush(false);
  }
  async flush(sync: boolean): Promise<void> {
    const ops = this.ops;
    this.ops = [];
    if (ops.length > 0 || sync) await this.to.batch(ops, { sync });
  }
}

/**
 * Writes into the empty store `to` the chain of `from` up to the intact block at `lastKept`, as the
 * node would hold it had it stopped there. `config` gives the chain settings when the damaged
 * store's head record is unreadable.
 */
export async function rebuildChain(from: Store, to: Store, lastKept: number, config: NodeConfig): Promise<ChainRebuild> {
  const out = new BatchWriter(to);
  const K = lastKept;
  const meta = parse<ChainMeta>(await from.get(META_KEY));
  const lost = { toHeight: meta && meta.height > K ? meta.height : -1, readable: 0, txs: 0, requeued: 0, unknown: 0 };

  // Blocks: the kept ones copied, the lost ones counted; each wallet's state after the last
  // kept block that changed it.
  const keptTxids = new Set<string>();
  const lostListed = new Set<string>();
  /** Each wallet after the last kept block that changed it (lowercase address hex). */
  const lastChange = new Map<string, Record<string, unknown>>();
  /** Each wallet before the first lost block that changed it, while the lost blocks read one after another from K + 1. */
  const beforeLost = new Map<string, Record<string, unknown> | null>();
  let nextLost = K + 1;
  /** Wallet numbers the lost blocks' registrations took. */
  const freed: number[] = [];
  let head: BlockRecord | undefined;
  let genesis: BlockRecord | undefined;
  let blocks = 0;
  for await (const [key, value] of from.entries(PREFIX.block)) {
    const height = parseInt(key.slice(PREFIX.block.length), 16);
    const record = parse<BlockRecord>(value);
    if (height > K) {
      lost.toHeight = Math.max(lost.toHeight, height);
      try {
        const listed = record!.txs.filter((txid) => typeof txid === 'string');
        const registered = Object.values(record!.registered).map((address) => addressParts(addressFromText(address)).wallet);
        lost.readable++;
        for (const txid of listed) lostListed.add(txid);
        freed.push(...registered);
        if (height !== nextLost || !record!.pre) throw new Error('not the next lost block, or one without its wallets before it');
        for (const [address, before] of Object.entries(record!.pre)) {
          if (!beforeLost.has(address.toLowerCase())) beforeLost.set(address.toLowerCase(), before as Record<string, unknown> | null);
        }
        nextLost++;
      } catch {
        nextLost = Infinity; // from here on, which lost block changed a wallet first is unknown
      }
      continue;
    }
    // The check found every block up to K whole.
    const block = record!;
    await out.put(key, value);
    await out.put(hashKey(block.hash), utf8.encode(String(height)));
    for (const txid of block.txs) keptTxids.add(txid);
    for (const [address, stored] of Object.entries(block.bals)) lastChange.set(address.toLowerCase(), stored as Record<string, unknown>);
    if (height === 0) genesis = block;
    if (height === K) head = block;
    blocks++;
  }
  if (!head || !genesis) throw new Error(`blocks 0 to ${K} were found intact but do not read`);

  // What the kept transactions need: containers, statuses, and the duplicate index.
  const kept = [...keptTxids];
  for (let i = 0; i < kept.length; i += BATCH) {
    const txids = kept.slice(i, i + BATCH);
    const values = await from.getMany(txids.flatMap((txid) => [txKey(txid), statusKey(txid)]));
    for (let j = 0; j < txids.length; j++) {
      await out.put(txKey(txids[j]), values[2 * j]!);
      await out.put(statusKey(txids[j]), values[2 * j + 1]!);
    }
  }
  for await (const [key, value] of from.entries(PREFIX.body)) if (keptTxids.has(text.decode(value))) await out.put(key, value);
  // A status outside any block: a pending transaction refused at a restart, still known as such.
  for await (const [key, value] of from.entries(PREFIX.status)) {
    const txid = key.slice(PREFIX.status.length);
    const status = parse<{ block?: string }>(value);
    if (status && status.block === undefined && !keptTxids.has(txid) && !lostListed.has(txid)) await out.put(key, value);
  }

  // Acknowledged and in no kept block: pending ones stay pending, those of lost blocks are queued again.
  let pending = 0;
  const queued = new Set<string>();
  for await (const [key, value] of from.entries(PREFIX.pending)) {
    const txid = key.slice(PREFIX.pending.length);
    if (keptTxids.has(txid)) continue;
    await out.put(key, value);
    queued.add(txid);
    if (lostListed.has(txid)) lost.requeued++;
    else pending++;
  }
  for await (const [key, value] of from.entries(PREFIX.tx)) {
    const txid = key.slice(PREFIX.tx.length);
    if (keptTxids.has(txid) || queued.has(txid)) continue;
    await out.put(pendingKey(txid), value);
    queued.add(txid);
    lost.requeued++;
  }
  for (const txid of lostListed) if (!queued.has(txid)) lost.unknown++;
  lost.txs = lostListed.size;

  // Wallets as of block K.
  const chain = meta?.chain ?? genesis.header.chain;
  const allocGroup = meta?.allocGroup ?? config.allocGroup;
  const ours = (addressHex: string) => {
    const parts = addressParts(hexToBytes(addressHex));
    return parts.kind === 'public' && parts.group === allocGroup && parts.block === chain ? parts.wallet : undefined;
  };
  let wallets = 0;
  let highest = 0;
  const keepWallet = async (address: string, wallet: Record<string, unknown>) => {
    const { was: _was, ...stored } = wallet;
    await out.put(walletKey(address), utf8.encode(JSON.stringify(stored)));
    highest = Math.max(highest, ours(address) ?? 0);
    wallets++;
  };
  const seen = new Set<string>();
  const settle = async (address: string, current: Record<string, unknown> | undefined) => {
    seen.add(address);
    const last = lastChange.get(address);
    let then: Record<string, unknown> | null | undefined;
    // As it was just before the first lost block that changed it (dev edits included), as a rollback puts it back;
    if (beforeLost.has(address)) then = beforeLost.get(address);
    // else as the store holds it when no block changed it since the last kept one (or ever: made by the dev API);
    else if (current && current.lastblk === (last?.lastblk ?? ZERO_HEX)) then = current;
    // else as the last kept block that changed it left it. A wallet only lost blocks made is gone.
    else then = last;
    if (then) await keepWallet(address, then);
    else if (ours(address) !== undefined) freed.push(ours(address)!);
  };
  for await (const [key, value] of from.entries(PREFIX.wallet)) await settle(key.slice(PREFIX.wallet.length), parse<Record<string, unknown>>(value));
  for (const address of [...lastChange.keys(), ...beforeLost.keys()]) if (!seen.has(address)) await settle(address, undefined);

  // Contract state: as the store holds it, with the blocks above K undone by their undo records.
  const evm = new Map<string, Uint8Array | undefined>();
  for (const prefix of [PREFIX.code, PREFIX.storage, PREFIX.evmAccount]) for await (const [key, value] of from.entries(prefix)) evm.set(key, value);
  const notes: string[] = [];
  try {
    for (const op of await evmRollbackOps(from, K)) {
      if ([PREFIX.code, PREFIX.storage, PREFIX.evmAccount].some((p) => op.key.startsWith(p))) evm.set(op.key, op.type === 'put' ? op.value : undefined);
    }
  } catch (err) {
    notes.push(`the contract state's undo records above block ${K} do not all read (${(err as Error).message}): contract state is kept as the damaged store held it`);
  }
  for (const [key, value] of evm) if (value) await out.put(key, value);
  for (const prefix of [PREFIX.logs, PREFIX.evmUndo]) {
    for await (const [key, value] of from.entries(prefix)) if (parseInt(key.slice(prefix.length), 16) <= K) await out.put(key, value);
  }
  for await (const [key, value] of from.entries(PREFIX.receipt)) {
    const txid = parse<{ txid?: string }>(value)?.txid;
    if (txid !== undefined && keptTxids.has(txid)) await out.put(key, value);
  }

  const clock = await from.get(CLOCK_KEY);
  if (clock) await out.put(CLOCK_KEY, clock);
  let snapshots = 0;
  for await (const _ of from.entries('snap:')) snapshots++;

  // The head, last: registration numbers the lost blocks took are free again, as after a rollback.
  let allocLast = meta?.allocLast ?? highest;
  if (freed.length > 0) allocLast = Math.min(allocLast, Math.min(...freed) - 1);
  const fallback = { ...config, chain, allocGroup };
  const newMeta: ChainMeta = {
    version: 1,
    chain,
    allocGroup,
    nodeName: meta?.nodeName ?? config.nodeName,
    feeAddress: meta?.feeAddress ?? bytesToHex(feeAddressOf(fallback)),
    accounts: meta?.accounts ?? devAccounts(fallback).length,
    height: K,
    hash: head.hash,
    time: head.time,
    allocLast,
  };
  await out.put(META_KEY, utf8.encode(JSON.stringify(newMeta)));
  await out.flush(true);
  return {
    kept: { height: K, hash: head.hash, blocks, txs: keptTxids.size, wallets, pending },
    lost,
    snapshots,
    headFromConfig: meta === undefined,
    notes,
  };
}
