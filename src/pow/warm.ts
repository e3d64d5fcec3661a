// warmMiner: the documented way to have the miner ready before a search needs it, e.g. while
// a wallet asks for a passphrase or loads its page. Afterwards the first search hashes at
// full speed on every thread from its first millisecond.

import { resolvePool } from './mine-body.js';
import type { MinerPool } from './search.js';
import { warmPool, type WarmOptions } from './warm-pool.js';

export interface WarmMinerOptions extends WarmOptions {
  /** The pool to warm (default: the one mineRegister uses when given none). */
  pool?: MinerPool;
}

/** Starts the pool's threads, compiles the kernels once and runs them into the engine's optimizing tier. */
export async function warmMiner(options: WarmMinerOptions = {}): Promise<void> {
  const pool = await resolvePool(options.pool);
  if (pool.warm && options.kernel === undefined && options.durationMs === undefined) {
    await pool.warm();
    return;
  }
  return warmPool(pool, options);
}
