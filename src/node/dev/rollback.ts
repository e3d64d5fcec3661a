// Rollback to a height (dev API; the reference node's operators have node/rollback): the
// blocks above it are deleted with their transactions, statuses and duplicate index entries,
// so those transactions are unknown again, and each wallet they changed is put back as the
// last block at or below the height left it (each stored wallet names the block of its
// previous change, so this walks one step per wallet, not the chain). Wallets the dropped
// blocks created are deleted. Transactions still pending stay pending.

import { addressParts } from '../../codec/address.js';
import { hexToBytes } from '../../bytes.js';
import { ValidationError } from '../../errors.js';
import type { BlockRecord } from '../ledger/block.js';
import type { Chain } from '../ledger/chain.js';
import { hashKey, heightKey, PREFIX, statusKey, txKey, walletKey } from '../store/keys.js';
import type { StoreOp } from '../store/store.js';

const utf8 = new TextEncoder();
const ZERO_HEX = '0'.repeat(64);

export interface RollbackPlan {
  ops: StoreOp[];
  /** Transactions that become unknown. */
  dropped: number;
}

/** The store operations that take the chain back to `target` (call inside chain.exclusive). */
export async function rollbackPlan(chain: Chain, target: number): Promise<RollbackPlan> {
  if (!Number.isSafeInteger(target) || target < 0 || target > chain.height) {
    throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "height"', { field: 'height', details: `expected 0 to ${chain.height} (the head), got ${JSON.stringify(target)}` });
  }
  const ops: StoreOp[] = [];
  const droppedTxids = new Set<string>();
  /** Address hex (uppercase) → its stored wallet before the first dropped block that changed it. */
  const firstChange = new Map<string, { preblk?: string }>();
  const created: number[] = [];
  const heights = Array.from({ length: chain.height - target }, (_, i) => target + 1 + i);
  const stored = await chain.store.getMany(heights.map(heightKey));
  for (let i = 0; i < heights.length; i++) {
    const h = heights[i];
    const bytes = stored[i];
    if (!bytes) continue;
    const record = JSON.parse(Buffer.from(bytes).toString()) as BlockRecord;
    ops.push({ type: 'del', key: heightKey(h) }, { type: 'del', key: hashKey(record.hash) });
    for (const txid of record.txs) {
      droppedTxids.add(txid);
      ops.push({ type: 'del', key: txKey(txid) }, { type: 'del', key: statusKey(txid) });
    }
    for (const [address, stored] of Object.entries(record.bals)) if (!firstChange.has(address)) firstChange.set(address, stored as { preblk?: string });
  }
  // The duplicate index maps body hashes to txids; its entries for dropped transactions go too.
  if (droppedTxids.size > 0) {
    for await (const [key, value] of chain.store.entries(PREFIX.body)) if (droppedTxids.has(Buffer.from(value).toString())) ops.push({ type: 'del', key });
  }
  for (const [address, stored] of firstChange) {
    const preblk = stored.preblk ?? ZERO_HEX;
    const before = preblk === ZERO_HEX ? undefined : await chain.blockByHash(preblk);
    const then = before?.bals[address];
    if (then === undefined) {
      ops.push({ type: 'del', key: walletKey(address) });
      const parts = addressParts(hexToBytes(address));
      if (parts.kind === 'public' && parts.group === chain.config.allocGroup && parts.block === chain.config.chain) created.push(parts.wallet);
    } else {
      ops.push({ type: 'put', key: walletKey(address), value: utf8.encode(JSON.stringify(then)) });
    }
  }
  const head = (await chain.blockAt(target)) as BlockRecord;
  // Registration numbers go up one by one: the lowest one a dropped block handed out is free again.
  const allocLast = created.length ? Math.min(chain.allocLast, Math.min(...created) - 1) : chain.allocLast;
  ops.push(chain.headOp({ height: target, hash: hexToBytes(head.hash), time: head.time, allocLast }));
  return { ops, dropped: droppedTxids.size };
}
