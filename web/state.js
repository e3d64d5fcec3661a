// What the panels share: the connected node, its difficulty, the miner's measured speed,
// and which job holds the worker pool.

import { sharedWebMinerPool } from './browser/tpkit.js';
import { InputError } from './explain.js';

export const state = {
  client: null,
  /** True when the connected node has the development API (faucet, accounts). */
  devApi: false,
  /** current.register.diff of the connected node. */
  difficulty: null,
  calibration: null,
  /** What minerSupport() found: WebAssembly, SIMD, workers, shared memory, kernel, expected time. */
  support: null,
  /** The page-load warm-up's figures: { readyMs, hashRate } (pool.warm()). */
  warmUp: null,
  /** Milliseconds the last registration's miner spent before hashing (elapsedMs - searchMs). */
  startupMs: null,
  /** Hash rate of every worker together, from the last benchmark run. */
  measuredRate: null,
  /** 'register' | 'bench' while either uses the worker pool. */
  busy: null,
  registerAbort: null,
  benchAbort: null,
};

/** Workers of the page's miner pool: one per logical core the browser reports. */
export function minerThreads() {
  return sharedWebMinerPool().threads;
}

export function needClient() {
  if (!state.client) throw new InputError('Not connected to a node. Enter the node URL and press Connect.');
  return state.client;
}
