// What the chain tells and takes: a committed block for the live stream, the listeners of
// blocks and resets, the options of Chain.open, and the refusal once the node shuts down.

import { ValidationError } from '../../errors.js';
import type { ChainReset } from '../../dev-wire.js';
import type { Logger } from '../base/log.js';
import type { BlockRecord } from './block.js';
import type { NodeTx } from './node-tx.js';

export type { ChainReset };

/** A block just committed, with what it did, for the live update stream. */
export interface CommittedBlock {
  record: BlockRecord;
  txs: NodeTx[];
  /** Status JSON of each transaction, in the order of `txs`. */
  statuses: string[];
}

export type BlockListener = (block: CommittedBlock) => void;

export type ResetListener = (reset: ChainReset) => void;

export interface ChainOptions {
  /** Milliseconds since the epoch; tests inject a fixed clock to replay old vectors. */
  clock?: () => number;
  logger?: Logger;
  /** Where the store lives, for messages about it (the ledger directory). */
  storeName?: string;
  /** Transaction statuses kept in memory, newest first (default 100,000); older ones are read from the store. */
  statusCacheEntries?: number;
}

/** What a submission, a block or a dev operation gets once the node has begun to shut down. */
export function shuttingDown(): ValidationError {
  return new ValidationError('NODE_SHUTTING_DOWN', 'The node is shutting down', { details: 'it accepts nothing more; start it again to continue' });
}
