// What one worker thread does with its share of a search: run the kernel over its nonce
// range in slices of a few milliseconds, publishing the hashes done and checking the
// shared stop flag between slices. Free of any worker API, so the piscina worker, a
// browser Web Worker and the tests all run this same function.

import type { KernelName, MiningKernel } from './kernel.js';

/** Values of the stop flag, control[0]. */
export const RUNNING = 0;
export const SOLVED = 1;
export const ABORTED = 2;

export interface SearchTask {
  /** The body to mine; its last 8 bytes are the nonce. */
  body: Uint8Array;
  difficulty: number;
  /** This task's nonces: start .. end - 1. */
  start: bigint;
  end: bigint;
  kernel: KernelName;
  /** Int32Array[1]: the stop flag (RUNNING, SOLVED, ABORTED), shared by every task of a search. */
  control: SharedArrayBuffer;
  /** BigInt64Array[1]: hashes done by every task of a search. */
  counter: SharedArrayBuffer;
  /** Target duration of one kernel call, so the flag is seen within about this long. */
  sliceMs: number;
}

export interface SearchTaskResult {
  /** The qualifying nonce this task found, or null when it stopped or ran out of range. */
  nonce: bigint | null;
  hashes: number;
}

const MIN_SLICE = 256;
const MAX_SLICE = 1 << 24;

export function runSearchTask(kernel: MiningKernel, task: SearchTask): SearchTaskResult {
  const stop = new Int32Array(task.control);
  const counter = new BigInt64Array(task.counter);
  kernel.init(task.body);
  // Start small: the first calls may run in the engine's baseline tier.
  let slice = 1024 * kernel.lanes;
  let cursor = task.start;
  let hashes = 0;
  while (cursor < task.end && Atomics.load(stop, 0) === RUNNING) {
    const left = task.end - cursor;
    const count = left < BigInt(slice) ? Number(left) : slice;
    const began = performance.now();
    const offset = kernel.search(cursor, count, task.difficulty);
    const took = performance.now() - began;
    if (offset >= 0) {
      hashes += offset + 1;
      Atomics.add(counter, 0, BigInt(offset + 1));
      Atomics.compareExchange(stop, 0, RUNNING, SOLVED);
      return { nonce: cursor + BigInt(offset), hashes };
    }
    hashes += count;
    Atomics.add(counter, 0, BigInt(count));
    cursor += BigInt(count);
    // Steer the slice toward sliceMs; halfway steps ride out timer noise.
    const ideal = took > 0.05 ? (slice * task.sliceMs) / took : slice * 4;
    slice = Math.round((slice + Math.min(ideal, slice * 4)) / 2);
    slice = Math.min(MAX_SLICE, Math.max(MIN_SLICE, slice - (slice % kernel.lanes)));
  }
  return { nonce: null, hashes };
}
