// Which pool `mineRegister` uses when the caller passes none. Node's is its worker-thread pool;
// the browser entry registers its Web Worker pool here, and its bundle replaces
// pool.node.js with a module that is never reached, so no Node code ships to browsers.

import type { MinerPool } from './search.js';

let factory: (() => MinerPool) | undefined;

export function setDefaultMinerPool(make: () => MinerPool): void {
  factory = make;
}

export async function defaultMinerPool(): Promise<MinerPool> {
  if (factory) return factory();
  const node = await import('./pool.node.js');
  return node.sharedMinerPool();
}
