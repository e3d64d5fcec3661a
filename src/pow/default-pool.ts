// Which pool `mineRegister` uses when the caller passes none. Node's is its worker-thread pool;
// the browser entry registers its Web Worker pool here, and its bundle replaces
// pool.node.js with a module that is never reached, so no Node code ships to browsers.
// Where that pool cannot be made (no Worker), the calling thread mines alone (pool.inline.ts).

import { searchOnCallingThread } from './calling-thread.js';
import type { InlineMinerPool } from './pool.inline.js';
import type { MinerPool } from './search.js';
import { createStateCache } from './task-runner.js';

let factory: (() => MinerPool) | undefined;
let inline: Promise<InlineMinerPool> | undefined;

export function setDefaultMinerPool(make: () => MinerPool): void {
  factory = make;
}

export async function defaultMinerPool(): Promise<MinerPool> {
  if (factory) {
    try {
      return factory();
    } catch (err) {
      // No workers here (a Manifest V3 service worker, some webviews): mine on this thread.
      return (inline ??= import('./pool.inline.js').then((m) => m.createInlineMinerPool((err as Error).message, [searchOnCallingThread, createStateCache])));
    }
  }
  const node = await import('./pool.node.js');
  return node.sharedMinerPool();
}
