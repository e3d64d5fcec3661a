// A miner pool without threads, for places that have no workers (a Manifest V3 extension's
// service worker, some embedded webviews): its one "thread" is the calling thread, hashing in
// slices of a few milliseconds with a turn of the event loop between two (calling-thread.ts),
// so the page or service worker stays responsive and a stop is seen within a slice. Under
// kernel 'auto' it races every kernel this thread has. default-pool.ts loads it where no
// worker pool can be made, and hands it the two functions it runs on: importing nothing keeps
// it a chunk of its own in the browser build, which sharing code with the bundle would not.

import type { CallingThreadTally, searchOnCallingThread } from './calling-thread.js';
import type { MinerPool } from './search.js';
import type { SearchTask, SearchTaskResult } from './search-task.js';
import type { createStateCache } from './task-runner.js';

export interface InlineMinerPool extends MinerPool {
  readonly threads: 1;
  /** Why this pool stands in for a threaded one (no Worker here), when known. */
  readonly reason: string;
}

/** The two functions it runs on, as a list (the bundle spends no bytes on their names). */
export type InlineDeps = readonly [typeof searchOnCallingThread, typeof createStateCache];

/** A pool that mines on the calling thread, in slices that yield to the event loop. */
export function createInlineMinerPool(reason: string, deps: InlineDeps): InlineMinerPool {
  const [searchOnCallingThread, createStateCache] = deps;
  const states = createStateCache();
  return {
    threads: 1,
    started: true,
    reason,
    async run(task: SearchTask): Promise<SearchTaskResult> {
      const state = await states(task.kernel);
      const flags = new Int32Array(task.control);
      // Counted as hashing at once: the search's own calling-thread share hands over to this.
      if (flags.length > 1) Atomics.add(flags, 1, 1);
      const tally: CallingThreadTally = { hashes: 0, busyMs: 0, byKernel: {} };
      const nonce = await searchOnCallingThread(
        () => state,
        task,
        () => false,
        tally,
      );
      return { nonce, hashes: tally.hashes, byKernel: tally.byKernel, kernel: state.kernels[state.race.current].name, busyMs: tally.busyMs };
    },
  };
}
