// Node's miner pool: piscina worker threads running worker.ts. One pool per process,
// created on first use with a thread per core, or made by the caller and passed in.
// Idle piscina threads are unref'd, so an idle pool never keeps the process alive.

import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { ArgumentError } from '../errors.js';
import type { MinerPool } from './search.js';
import type { SearchTask, SearchTaskResult } from './search-task.js';

export type MinerPiscina = Piscina<SearchTask, SearchTaskResult>;

const WORKER = new URL('./worker.js', import.meta.url).href;

/** A new pool of `threads` miner threads (default: one per core), all started at once. */
export function createMinerPool(threads: number = availableParallelism()): MinerPiscina {
  if (!Number.isInteger(threads) || threads < 1) {
    throw new ArgumentError(`"threads" expected a positive integer, got ${String(threads)}`);
  }
  return new Piscina<SearchTask, SearchTaskResult>({
    filename: WORKER,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: 1,
    // Threads stay warm between searches: each keeps its compiled, tiered-up kernel.
    idleTimeout: 60_000,
  });
}

let shared: MinerPiscina | undefined;

/** The process's pool, created on first call. */
export function sharedMinerPool(): MinerPiscina {
  shared ??= createMinerPool();
  return shared;
}

/** Ends the shared pool's threads (a later sharedMinerPool() makes a new one). */
export async function closeSharedMinerPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  if (pool) await pool.destroy();
}

/** Adapts a piscina pool to the scheduler's MinerPool. */
export function piscinaMinerPool(pool: MinerPiscina): MinerPool {
  return {
    threads: pool.options.maxThreads,
    run: (task) => pool.run(task),
  };
}

export function isPiscina(value: unknown): value is MinerPiscina {
  return value instanceof Piscina;
}
