// The scheduling side of a multi-threaded nonce search, independent of the thread pool.
// The calling thread hashes at once, in slices of a few milliseconds (calling-thread.ts),
// while the pool's threads start; each pool thread takes its own disjoint range as soon as
// it is ready, and the calling thread stops once every one of them hashes. All share a stop
// flag and a hash counter (SharedArrayBuffer). The search returns the moment any thread
// finds a nonce: threads still starting see the raised flag and return at once, unawaited;
// threads that were hashing stop within one slice and are awaited, so their counts are in
// the result and none is still hashing once the promise settles; so every task that returns
// must have counted itself in control[1], even one that never hashed. The figures returned
// are a copy: a task that returns later changes nothing. With `carryOnWithoutPool`, a pool
// thread that cannot start (its worker blocked or absent) leaves the calling thread to
// search alone, and the outcome says why (poolFailure). A pool is anything that
// runs a SearchTask on some thread: worker threads in Node (pool.node.ts), Web Workers in
// browsers (pool.web.ts); a pool that shares no memory marks a task's start itself.

import { expectBytes } from '../bytes.js';
import { AbortError, ArgumentError, TpkitError } from '../errors.js';
import { estimateMining } from './estimate.js';
import { callingThreadAloneState, callingThreadState, modulesFor, searchOnCallingThread, type CallingThreadTally } from './calling-thread.js';
import { simdIsDistrusted, type KernelName } from './kernel.js';
import { ABORTED, RUNNING, SOLVED, type KernelChoice, type SearchState, type SearchTask, type SearchTaskResult } from './search-task.js';

export interface MinerPool {
  /** Threads the pool runs at once; a search uses at most this many. */
  readonly threads: number;
  run(task: SearchTask): Promise<SearchTaskResult>;
  /** Starts every thread and readies its kernels ahead of need (optional). */
  warm?(): Promise<unknown>;
  /**
   * False while the threads are not started (they start with the first task). Such a pool
   * joins a short search only once the calling thread was expected to be done alone.
   */
  readonly started?: boolean;
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
  /** Pool threads to use (default: all of the pool's). */
  threads?: number;
  /**
   * Hash on the calling thread too until every pool thread hashes (default true): the
   * search starts at once instead of after the threads' start-up. It takes the first range.
   */
  callingThread?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: MiningProgress) => void;
  progressIntervalMs?: number;
  /**
   * Milliseconds per kernel call between two looks at the stop flag (default 4: a
   * stop reaches every thread well within 50 ms even on a busy machine, and a call
   * costs about a microsecond, 0.03 % of a slice).
   */
  sliceMs?: number;
  /** First nonce of the first range (default 0). */
  startNonce?: bigint;
  /** Nonces per range, one range per thread (default 2^56). */
  rangePerThread?: bigint;
  /**
   * When the pool's threads cannot start (workers blocked or absent), let the calling thread
   * finish the search alone instead of failing (default false; mineBody sets it for the
   * default pool). The outcome's poolFailure says what failed.
   */
  carryOnWithoutPool?: boolean;
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
  /** Hashes done on the calling thread (included in `hashes`). */
  callingThreadHashes: number;
  /**
   * Why the pool's threads did not mine, when they failed to start (workers blocked or
   * unavailable) and the calling thread searched alone instead.
   */
  poolFailure?: string;
}

const NONCE_LIMIT = 1n << 64n;
/** The calling thread's rate while its kernel is still cold, a low estimate (bench/kernel-tier-up.ts). */
const COLD_RATE_PER_MS = 2000;
/** Searches expected to take the calling thread longer than this start the pool at once. */
const SOLO_LIMIT_MS = 40;

/**
 * How long a search leaves a pool that is not started asleep. Starting it (loading piscina,
 * booting threads) takes the same cores from the calling thread for about 30 ms, more than a
 * short search lasts: at the network's difficulty 16 the calling thread alone is expected to
 * be done in about 33 ms, so the pool is woken only if it is not done after 1.5 times that.
 */
export function soloWindowMs(difficulty: number): number {
  const expectedMs = 2 ** difficulty / COLD_RATE_PER_MS;
  return expectedMs <= SOLO_LIMIT_MS ? expectedMs * 1.5 : 0;
}

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
  const began = performance.now();
  // The pool's threads get the modules compiled here (compiled once per process or page);
  // meanwhile the calling thread hashes. Where its kernels cannot load, the pool alone searches.
  let local: SearchState | undefined;
  // With 'auto', kernels that do not load (the lean bundle's .wasm files not copied beside it)
  // leave the calling thread the JS kernel, so a search whose pool fails too still mines.
  if (options.callingThread !== false) {
    local = await callingThreadState(kernel)
      .catch(() => (kernel === 'auto' ? callingThreadState('js') : undefined))
      .catch(() => undefined);
  }
  // Compiled when the pool is started (a short search may never need them).
  let modulesReady: ReturnType<typeof modulesFor> | undefined;
  const poolModules = () => (modulesReady ??= modulesFor(kernel));
  if (!local) await poolModules();
  if (signal?.aborted) throw new AbortError('aborted before the search started');
  // Browsers hide SharedArrayBuffer from pages that are not cross-origin isolated.
  const Shared = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer;
  const control = new Shared(8);
  const counter = new Shared(8);
  const flags = new Int32Array(control);
  const done = new BigInt64Array(counter);
  const range = options.rangePerThread ?? 1n << 56n;
  const first = options.startNonce ?? 0n;
  const sliceMs = options.sliceMs ?? 4;
  const taskFor = (index: number): SearchTask | undefined => {
    const start = first + BigInt(index) * range;
    if (start >= NONCE_LIMIT - 1n) return undefined;
    const end = start + range < NONCE_LIMIT ? start + range : NONCE_LIMIT - 1n;
    return { body, difficulty, start, end, kernel, control, counter, sliceMs, ...(simdIsDistrusted() ? { distrustSimd: true } : {}) };
  };

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

  let found: bigint | null = null;
  let failure: unknown;
  const byKernel: Partial<Record<KernelName, number>> = {};
  let busiestMs = 0;
  let launched = 0;
  let launching = true;
  let returned = 0;
  let localRunning = false;
  // Pool threads that failed to start while the calling thread searched: it carries on alone.
  let failedThreads = 0;
  let poolFailure: string | undefined;
  const tally: CallingThreadTally = { hashes: 0, busyMs: 0, byKernel: {} };

  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  // Settled once a nonce is found, the user aborts or a thread fails, as soon as every
  // thread that started hashing has returned; or once every range is searched.
  const check = () => {
    const stopped = Atomics.load(flags, 0) !== RUNNING || failure !== undefined;
    const allDone = !launching && returned === launched && !localRunning;
    // Every range searched but the calling thread's, which it left to the pool: search its rest.
    if (allDone && !stopped && found === null && localTask && tally.handedOverAt !== undefined) {
      const rest = { ...localTask, start: tally.handedOverAt, modules: launchedModules };
      tally.handedOverAt = undefined;
      runOnPool(rest);
      return;
    }
    if (allDone || (stopped && !localRunning && returned >= Atomics.load(flags, 1))) settle();
  };
  const onAbort = () => {
    Atomics.compareExchange(flags, 0, RUNNING, ABORTED);
    check();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = onProgress ? setInterval(report, options.progressIntervalMs ?? 250) : undefined;

  const localTask = local ? taskFor(0) : undefined;
  if (local && localTask) {
    localRunning = true;
    const handOver = () => launched > failedThreads && Atomics.load(flags, 1) >= launched - failedThreads;
    searchOnCallingThread(() => local!, localTask, handOver, tally)
      .then(
        (nonce) => {
          if (nonce !== null && found === null) found = nonce;
        },
        (err: unknown) => {
          failure ??= err;
          Atomics.compareExchange(flags, 0, RUNNING, ABORTED);
        },
      )
      .finally(() => {
        localRunning = false;
        check();
      });
  }
  const offset = local ? 1 : 0;
  let launchedModules: SearchTask['modules'];
  const launch = (modules: SearchTask['modules']) => {
    launching = false;
    launchedModules = modules;
    // Stopped meanwhile (found, aborted): the threads have nothing to do.
    if (Atomics.load(flags, 0) !== RUNNING) return check();
    for (let i = 0; i < threads; i++) {
      const task = taskFor(i + offset);
      if (!task) break;
      runOnPool({ ...task, modules });
    }
    check();
  };
  function runOnPool(task: SearchTask): void {
    launched++;
    pool.run(task).then(
      (result) => {
        returned++;
        if (result.nonce !== null && found === null) found = result.nonce;
        // A pool of the caller's own may not raise the flag itself: the other threads must stop.
        if (result.nonce !== null) Atomics.compareExchange(flags, 0, RUNNING, SOLVED);
        busiestMs = Math.max(busiestMs, result.busyMs ?? 0);
        for (const [name, count] of Object.entries(result.byKernel) as [KernelName, number][]) {
          byKernel[name] = (byKernel[name] ?? 0) + count;
        }
        check();
      },
      (err: unknown) => {
        returned++;
        // A thread that could not start (its script, worker or kernels did not load), not a search gone wrong.
        if (options.carryOnWithoutPool && localRunning && err instanceof TpkitError && (err.code === 'WASM_UNAVAILABLE' || err.code === 'FILE_ORIGIN')) {
          failedThreads++;
          // A TpkitError's message already ends with its details.
          poolFailure ??= err.message;
          // Every thread failed: the calling thread mines alone, on the race a thread would run.
          if (failedThreads === launched && !launching) {
            callingThreadAloneState(kernel).then(
              (alone) => (local = alone),
              () => undefined,
            );
          }
        } else {
          failure ??= err;
          Atomics.compareExchange(flags, 0, RUNNING, ABORTED);
        }
        check();
      },
    );
  }
  const startPool = () => poolModules().then(launch, () => launch(undefined));
  const soloMs = local && localTask && pool.started === false ? soloWindowMs(difficulty) : 0;
  const soloTimer = soloMs > 0 ? setTimeout(startPool, soloMs) : undefined;
  if (soloTimer === undefined) startPool();
  try {
    await settled;
  } finally {
    clearTimeout(soloTimer);
    if (timer !== undefined) clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  // Threads still starting, or queued behind another search, see this and return at once.
  Atomics.compareExchange(flags, 0, RUNNING, found !== null ? SOLVED : ABORTED);
  if (failure !== undefined && found === null) throw failure;
  if (found === null) {
    if (signal?.aborted) throw new AbortError('mining aborted');
    throw new TpkitError('MINING_EXHAUSTED', 'No nonce reached the difficulty', {
      details: `searched ${Number(Atomics.load(done, 0))} nonces at difficulty ${difficulty}`,
    });
  }
  // A copy: a thread still starting returns later, and the figures returned must not change.
  const totals: Partial<Record<KernelName, number>> = { ...byKernel };
  for (const [name, count] of Object.entries(tally.byKernel) as [KernelName, number][]) {
    totals[name] = (totals[name] ?? 0) + count;
  }
  report();
  const elapsedMs = performance.now() - began;
  busiestMs = Math.max(busiestMs, tally.busyMs);
  return {
    nonce: found,
    hashes: Number(Atomics.load(done, 0)),
    elapsedMs,
    searchMs: busiestMs > 0 ? Math.min(busiestMs, elapsedMs) : elapsedMs,
    byKernel: totals,
    callingThreadHashes: tally.hashes,
    poolFailure,
  };
}
