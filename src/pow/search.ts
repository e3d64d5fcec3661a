// The scheduling side of a multi-threaded nonce search, independent of the thread pool:
// it splits the nonce space into one disjoint range per thread, shares a stop flag and
// a hash counter with the tasks (SharedArrayBuffer), reports progress, and settles only
// after every task has returned, so no thread is still hashing once the promise is
// settled. A pool is anything that runs a SearchTask on some thread: worker threads in Node
// (pool.node.ts), Web Workers in browsers.

import { expectBytes } from '../bytes.js';
import { AbortError, ArgumentError, TpkitError } from '../errors.js';
import { estimateMining } from './estimate.js';
import type { KernelName } from './kernel.js';
import { ABORTED, RUNNING, type KernelChoice, type SearchTask, type SearchTaskResult } from './search-task.js';

export interface MinerPool {
  /** Threads the pool runs at once; a search uses at most this many. */
  readonly threads: number;
  run(task: SearchTask): Promise<SearchTaskResult>;
}

export interface MiningProgress {
  hashes: number;
  /** Hashes per second over the whole search so far, all threads together. */
  hashRate: number;
  elapsedMs: number;
  /** Time to solution at this rate (geometric distribution, see estimate.ts). */
  expected: { meanMs: number; medianMs: number; p95Ms: number };
}

export interface SearchOptions {
  /** The body to mine; its last 8 bytes are the nonce. */
  body: Uint8Array;
  difficulty: number;
  pool: MinerPool;
  /** A kernel, or 'auto': each thread keeps whichever of its kernels runs fastest. */
  kernel: KernelChoice;
  /** Threads to use (default: all of the pool's). */
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (progress: MiningProgress) => void;
  progressIntervalMs?: number;
  /**
   * Milliseconds per kernel call between two looks at the stop flag (default 4: a
   * stop reaches every thread well within 50 ms even on a busy machine, and a call
   * costs about a microsecond, 0.03 % of a slice).
   */
  sliceMs?: number;
  /** First nonce of thread 0's range (default 0). */
  startNonce?: bigint;
  /** Nonces per thread (default 2^56). */
  rangePerThread?: bigint;
}

export interface SearchOutcome {
  nonce: bigint;
  hashes: number;
  elapsedMs: number;
  /**
   * Milliseconds the busiest thread spent hashing: the search itself, without handing the
   * task to the threads or their start-up. hashes / searchMs is the rate the device mines at.
   */
  searchMs: number;
  /** Hashes done by each kernel, all threads together. */
  byKernel: Partial<Record<KernelName, number>>;
}

const NONCE_LIMIT = 1n << 64n;

function checkOptions(options: SearchOptions): number {
  const { body, difficulty, pool } = options;
  expectBytes(body, 'body');
  if (body.length < 8) throw new ArgumentError(`"body" expected at least 8 bytes (the nonce), got ${body.length}`);
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 512) {
    throw new ArgumentError(`"difficulty" expected an integer 0..512, got ${String(difficulty)}`);
  }
  if (!pool || typeof pool.run !== 'function' || !(pool.threads >= 1)) {
    throw new ArgumentError('"pool" expected a miner pool with run() and threads >= 1');
  }
  const threads = options.threads ?? pool.threads;
  if (!Number.isInteger(threads) || threads < 1) {
    throw new ArgumentError(`"threads" expected a positive integer, got ${String(options.threads)}`);
  }
  return Math.min(threads, pool.threads);
}

export async function searchNonce(options: SearchOptions): Promise<SearchOutcome> {
  const threads = checkOptions(options);
  const { body, difficulty, pool, kernel, signal, onProgress } = options;
  if (signal?.aborted) throw new AbortError('aborted before the search started');
  // Browsers hide SharedArrayBuffer from pages that are not cross-origin isolated.
  const Shared = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer;
  const control = new Shared(4);
  const counter = new Shared(8);
  const stop = new Int32Array(control);
  const done = new BigInt64Array(counter);
  const range = options.rangePerThread ?? 1n << 56n;
  const first = options.startNonce ?? 0n;
  const began = performance.now();

  const progress = (): MiningProgress => {
    const hashes = Number(Atomics.load(done, 0));
    const elapsedMs = performance.now() - began;
    const hashRate = elapsedMs > 0 ? (hashes / elapsedMs) * 1000 : 0;
    const e = hashRate > 0 ? estimateMining(difficulty, hashRate) : undefined;
    return {
      hashes,
      hashRate,
      elapsedMs,
      expected: { meanMs: e?.meanMs ?? Infinity, medianMs: e?.medianMs ?? Infinity, p95Ms: e?.p95Ms ?? Infinity },
    };
  };
  const report = () => {
    try {
      onProgress?.(progress());
    } catch {
      // A failing progress callback must not leave the threads running.
    }
  };
  const timer = onProgress ? setInterval(report, options.progressIntervalMs ?? 250) : undefined;
  const onAbort = () => Atomics.compareExchange(stop, 0, RUNNING, ABORTED);
  signal?.addEventListener('abort', onAbort, { once: true });

  let found: bigint | null = null;
  let failure: unknown;
  const byKernel: Partial<Record<KernelName, number>> = {};
  let busiestMs = 0;
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < threads; i++) {
    const start = first + BigInt(i) * range;
    if (start >= NONCE_LIMIT - 1n) break;
    const end = start + range < NONCE_LIMIT ? start + range : NONCE_LIMIT - 1n;
    const task: SearchTask = { body, difficulty, start, end, kernel, control, counter, sliceMs: options.sliceMs ?? 4 };
    tasks.push(
      pool.run(task).then(
        (result) => {
          if (result.nonce !== null && found === null) found = result.nonce;
          busiestMs = Math.max(busiestMs, result.busyMs ?? 0);
          for (const [name, count] of Object.entries(result.byKernel) as [KernelName, number][]) {
            byKernel[name] = (byKernel[name] ?? 0) + count;
          }
        },
        (err: unknown) => {
          failure ??= err;
          Atomics.compareExchange(stop, 0, RUNNING, ABORTED);
        },
      ),
    );
  }
  try {
    await Promise.all(tasks);
  } finally {
    if (timer !== undefined) clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw failure;
  if (found === null) {
    if (signal?.aborted) throw new AbortError('mining aborted');
    throw new TpkitError('MINING_EXHAUSTED', 'No nonce reached the difficulty', {
      details: `searched ${Number(Atomics.load(done, 0))} nonces at difficulty ${difficulty}`,
    });
  }
  report();
  const elapsedMs = performance.now() - began;
  return { nonce: found, hashes: Number(Atomics.load(done, 0)), elapsedMs, searchMs: busiestMs > 0 ? Math.min(busiestMs, elapsedMs) : elapsedMs, byKernel };
}
