// Warming a pool ahead of need: every thread started, given the calling thread's compiled
// modules, and run through a short search that cannot succeed, long enough for the engine to
// move the kernels from its baseline tier to its optimizing one (about 100 ms in V8 for the
// SIMD binary's kernels). The calling thread's kernel (scalar under 'auto', at full speed a
// few milliseconds after its compile) gets a few slices only, so that a search started
// meanwhile has the calling thread to itself.

import { callingThreadState, modulesFor, searchOnCallingThread } from './calling-thread.js';
import type { MinerPool } from './search.js';
import { ABORTED, type KernelChoice, type SearchTask } from './search-task.js';

export interface WarmOptions {
  /** Kernel choice to warm (default 'auto'). */
  kernel?: KernelChoice;
  /** Milliseconds of hashing on each thread (default 150). */
  durationMs?: number;
}

const START_LIMIT_MS = 5_000;
/** Hashing on the calling thread while warming, ms: its first calls compile and tier the kernel up. */
const CALLING_THREAD_WARM_MS = 10;
/** A 120-byte body: the size of a register body with one key. */
const WARM_BODY = new Uint8Array(120);

export async function warmPool(pool: MinerPool, options: WarmOptions = {}): Promise<void> {
  const kernel = options.kernel ?? 'auto';
  const durationMs = options.durationMs ?? 150;
  const local = await callingThreadState(kernel).catch(() => undefined);
  const modules = await modulesFor(kernel);
  const Shared = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer;
  const control = new Shared(8);
  const counter = new Shared(8);
  const flags = new Int32Array(control);
  // Difficulty 512 is never met: each thread hashes until the flag rises.
  const task = (start: bigint): SearchTask => ({
    body: WARM_BODY,
    difficulty: 512,
    start,
    end: start + (1n << 40n),
    kernel,
    control,
    counter,
    sliceMs: 4,
    modules,
  });
  const runs: Promise<unknown>[] = [];
  for (let i = 0; i < pool.threads; i++) runs.push(pool.run(task(BigInt(i + 1) << 48n)).catch(() => undefined));
  if (local) {
    const localBegan = performance.now();
    const tally = { hashes: 0, busyMs: 0, byKernel: {} };
    const until = Math.min(durationMs, CALLING_THREAD_WARM_MS);
    runs.push(
      searchOnCallingThread(
        () => local,
        task(0n),
        () => performance.now() - localBegan > until,
        tally,
      ),
    );
  }
  // The clock starts once every thread hashes: warming is about running, not starting.
  // A thread that has not started within START_LIMIT_MS is not waited for.
  const began = performance.now();
  while (Atomics.load(flags, 1) < pool.threads && performance.now() - began < START_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  Atomics.store(flags, 0, ABORTED);
  await Promise.all(runs);
}
