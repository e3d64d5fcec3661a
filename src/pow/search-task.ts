// What one worker thread does with its share of a search: run a kernel over its nonce
// range in slices of a few milliseconds, publishing the hashes done and checking the
// shared stop flag between slices. Free of any worker API, so the Node worker thread, a
// browser Web Worker and the tests all run this same function.
//
// Given several kernels ('auto'), it keeps the fastest (kernel-race.ts): every
// PROBE_EVERY slices one slice runs on another kernel, and if that slice beats the
// current kernel's recent rate the thread switches. Which kernel is fastest is not fixed:
// it depends on the engine (Chromium runs the two-lane SIMD kernel faster than Node 20
// does) and on the load, since on the 2-core dev VM every kernel slows down by a
// different factor while the cores' other hardware threads are busy (all kernels return
// the same nonces, so switching mid-range changes no answer).

import type { WasmFlavor } from '../wasm/kernel.js';
import type { KernelName, MiningKernel } from './kernel.js';
import { KernelRace } from './kernel-race.js';

/** Values of the stop flag, control[0]. */
export const RUNNING = 0;
export const SOLVED = 1;
export const ABORTED = 2;

/** A kernel by name, or 'auto': every kernel the thread has, fastest kept. */
export type KernelChoice = KernelName | 'auto';

export interface SearchTask {
  /** The body to mine; its last 8 bytes are the nonce. */
  body: Uint8Array;
  difficulty: number;
  /** This task's nonces: start .. end - 1. */
  start: bigint;
  end: bigint;
  kernel: KernelChoice;
  /**
   * Int32Array: [0] the stop flag (RUNNING, SOLVED, ABORTED), shared by every task of a
   * search; [1], when present, counts the tasks that have started hashing (the calling
   * thread hands the search over once every thread has). A plain ArrayBuffer where
   * SharedArrayBuffer is unavailable (a browser page that is not cross-origin isolated):
   * the pool then polls the flag between short runs, and marks a start itself.
   */
  control: SharedArrayBuffer | ArrayBuffer;
  /** BigInt64Array[1]: hashes done by every task of a search. */
  counter: SharedArrayBuffer | ArrayBuffer;
  /** Target duration of one kernel call, so the flag is seen within about this long. */
  sliceMs: number;
  /**
   * WASM modules the calling thread compiled: a thread that has not compiled a flavor
   * adopts these instead (each binary compiled once per process or page).
   */
  modules?: Partial<Record<WasmFlavor, WebAssembly.Module>>;
  /** The SIMD kernels failed a known-answer check on the calling thread: leave them out here too. */
  distrustSimd?: boolean;
}

export interface SearchTaskResult {
  /** The qualifying nonce this task found, or null when it stopped or ran out of range. */
  nonce: bigint | null;
  hashes: number;
  /** Hashes done by each kernel. */
  byKernel: Partial<Record<KernelName, number>>;
  /** The kernel in use when the task ended: the one to start the next task with. */
  kernel: KernelName;
  /** Milliseconds spent in kernel calls: the search itself, without start-up. */
  busyMs: number;
  /** The first nonce of the range not searched (task.end when the range ran out). */
  next?: bigint;
}

export interface RunOptions {
  /** Return after the kernel call that ends past this performance.now() time (a time slice). */
  untilMs?: number;
  /** Count this run in control[1], the tasks that started hashing (default true). */
  markStart?: boolean;
  /** Milliseconds for slices and kernel rates (default performance.now; a virtual clock in tests). */
  clock?: () => number;
}

const MIN_SLICE = 256;
const MAX_SLICE = 1 << 24;
/** Slices between two probes of another kernel: about 130 ms at 4 ms slices. */
export const PROBE_EVERY = 32;
/** Slices shorter than this say nothing about a kernel's rate. */
const MIN_MEASURED_MS = 0.05;

/** What a thread keeps from one task to the next on the same kernels: the race and the slice sizes. */
export interface SearchState {
  readonly kernels: readonly MiningKernel[];
  readonly race: KernelRace;
  /** Nonces per call for each kernel, steered toward the task's sliceMs. */
  readonly slice: number[];
}

export function createSearchState(kernels: MiningKernel | readonly MiningKernel[]): SearchState {
  const list: readonly MiningKernel[] = Array.isArray(kernels) ? kernels : [kernels as MiningKernel];
  return {
    kernels: list,
    race: new KernelRace(
      list.map((k) => k.name),
      PROBE_EVERY,
      1.03,
      MIN_MEASURED_MS,
    ),
    // Start small: the first calls may run in the engine's baseline tier.
    slice: list.map((k) => 1024 * k.lanes),
  };
}

const isState = (x: MiningKernel | readonly MiningKernel[] | SearchState): x is SearchState => 'race' in x;

/** Runs a task on one kernel, a list of them (fresh state) or a thread's state (kept between tasks). */
export function runSearchTask(kernels: MiningKernel | readonly MiningKernel[] | SearchState, task: SearchTask, options: RunOptions = {}): SearchTaskResult {
  const state = isState(kernels) ? kernels : createSearchState(kernels);
  const { kernels: list, race, slice } = state;
  const stop = new Int32Array(task.control);
  const counter = new BigInt64Array(task.counter);
  const until = options.untilMs ?? Infinity;
  const now = options.clock ?? (() => performance.now());
  for (const kernel of list) kernel.init(task.body);
  if (options.markStart !== false && stop.length > 1) Atomics.add(stop, 1, 1);
  const byKernel: Partial<Record<KernelName, number>> = {};
  let cursor = task.start;
  let hashes = 0;
  let busyMs = 0;
  while (cursor < task.end && Atomics.load(stop, 0) === RUNNING) {
    const use = race.next();
    const kernel = list[use];
    const left = task.end - cursor;
    const count = left < BigInt(slice[use]) ? Number(left) : slice[use];
    const began = now();
    const offset = kernel.search(cursor, count, task.difficulty);
    const took = now() - began;
    busyMs += took;
    const done = offset >= 0 ? offset + 1 : count;
    hashes += done;
    byKernel[kernel.name] = (byKernel[kernel.name] ?? 0) + done;
    Atomics.add(counter, 0, BigInt(done));
    race.record(use, done, took);
    if (offset >= 0) {
      Atomics.compareExchange(stop, 0, RUNNING, SOLVED);
      return { nonce: cursor + BigInt(offset), hashes, byKernel, kernel: list[race.current].name, busyMs, next: cursor + BigInt(done) };
    }
    cursor += BigInt(count);
    // Steer the slice toward sliceMs; halfway steps ride out timer noise.
    const ideal = took > MIN_MEASURED_MS ? (slice[use] * task.sliceMs) / took : slice[use] * 4;
    const next = Math.round((slice[use] + Math.min(ideal, slice[use] * 4)) / 2);
    slice[use] = Math.min(MAX_SLICE, Math.max(MIN_SLICE, next - (next % kernel.lanes)));
    if (began + took >= until) break;
  }
  return { nonce: null, hashes, byKernel, kernel: list[race.current].name, busyMs, next: cursor };
}
