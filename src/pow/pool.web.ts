// The browser's miner pool: module Web Workers running worker.web.ts (bundled beside this
// file as miner-worker.js), all started when the pool is made and kept, so each keeps its
// kernels. They compile nothing: a task carries the WebAssembly.Modules the page compiled
// (once, while the .wasm files downloaded), and the workers instantiate those. In a
// cross-origin-isolated page every task shares the search's stop flag and hash counter
// (SharedArrayBuffer) and runs its whole range. Elsewhere a task runs as a series of short
// runs of about 50 ms, and the flag is checked between them here.

import { AbortError, ArgumentError, ERROR_CODES, TpkitError, type ErrorCode } from '../errors.js';
import { RUNNING, SOLVED, type SearchTask, type SearchTaskResult } from './search-task.js';
import type { KernelName } from './kernel.js';
import { kernelsFor } from './task-runner.js';
import { KernelRace } from './kernel-race.js';
import { callingThreadState } from './calling-thread.js';
import { searchNonce, type MinerPool } from './search.js';

export interface WebMinerPool extends MinerPool {
  /** True when tasks share memory with the page (the page is cross-origin isolated). */
  readonly shared: boolean;
  /** Ends every worker; running and queued searches reject, a later search starts new workers. */
  terminate(): void;
  /**
   * Gets the pool ready ahead of need: the page compiles the kernels, every worker starts and
   * instantiates them, and the workers search for about `durationMs` (default 400) at a
   * difficulty never met, so the engine has compiled the kernels to its optimizing tier
   * before the first real search. Resolves when done; a search started meanwhile stops the warm-up
   * and takes the workers at once (the warm-up then resolves with what it measured).
   */
  warm(options?: { durationMs?: number }): Promise<WarmUp>;
}

/** What warm() measured. */
export interface WarmUp {
  /**
   * From the call until every worker hashed: the start-up a search pays on a cold page.
   * NaN when a search preempted the warm-up before that.
   */
  readyMs: number;
  /** Hashes per second of all workers together over the second half of the warm-up's hashing. */
  hashRate: number;
  /** True when a search started during the warm-up and cut it short. */
  preempted: boolean;
}

export interface WebMinerPoolOptions {
  /** The worker script (default: the entry's own, setMinerWorkerUrl). */
  workerUrl?: string | URL;
}

/** miner-worker.js beside the bundle, a literal new URL(…, import.meta.url) that webpack 5, Vite's build and Parcel copy. */
let defaultWorkerUrl = (): string | URL => new URL('./miner-worker.js', import.meta.url);

/**
 * Sets where pools find the miner worker's script when not told (the self-contained entry
 * does, with a blob: URL of the copy it carries). Called when a pool is made, not before.
 */
export function setMinerWorkerUrl(get: () => string | URL): void {
  defaultWorkerUrl = get;
}

/** Why a worker script did not load (asset-load.ts, loaded now). */
const workerFailure = async (url: string, message: string): Promise<TpkitError> => (await import('../wasm/asset-load.js')).workerFailure(TpkitError, url, message);

interface Reply {
  id: number;
  result?: SearchTaskResult;
  error?: { code?: string; message: string };
}

/** Target length of one run without shared memory: a stop waits for at most one run. */
const RUN_TARGET_MS = 50;
const FIRST_RUN = 1n << 14n;
const MIN_RUN = 1n << 10n;
const MAX_RUN = 1n << 28n;
/**
 * With kernel 'auto' and no shared memory, every PROBE_RUNS-th run (about 400 ms) tries
 * another kernel and the faster is kept. The choice is made per run, not inside one: a
 * run is too short for the in-task probe (search-task.ts), and a whole run's rate is
 * exact where a 1 ms slice's is not (pages that are not isolated get a 0.1 ms clock).
 */
const PROBE_RUNS = 8;
/**
 * How long warm() hashes. Chromium runs a new kernel in its baseline tier for a few
 * hundred milliseconds of hashing before the optimized code replaces it (V8 keeps one copy
 * of a module's compiled code for every thread that shares the WebAssembly.Module).
 */
const WARM_MS = 400;
/** warm()'s body: one SHA-512 block, like a one-key register body; difficulty 64 is never met. */
const WARM_BODY = new Uint8Array(66).map((_, i) => (i * 131 + 17) & 0xff);

class MinerWorker {
  readonly #worker: Worker | undefined;
  readonly #pending = new Map<number, { resolve: (r: SearchTaskResult) => void; reject: (e: unknown) => void }>();
  #next = 0;
  /** Set when the worker fails, resolving to the error (once known: why a script did not load takes a request). */
  #failing: Promise<TpkitError> | undefined;
  #race = new KernelRace(kernelsFor('auto'), PROBE_RUNS, 1.02, 1);

  /** Which kernel 'auto' keeps in this worker's short runs, carried from search to search (anew once the page's kernels change: SIMD distrusted). */
  get race(): KernelRace {
    const names = kernelsFor('auto');
    if (names.join() !== this.#race.names.join()) this.#race = new KernelRace(names, PROBE_RUNS, 1.02, 1);
    return this.#race;
  }

  constructor(url: string | URL) {
    // A script that does not load, or an exception outside a task: this worker is done. If
    // even asset-load.ts does not load, its import's error is the failure.
    const failed = (message: string) => (this.#failing ??= workerFailure('' + url, message).then(this.#fail, this.#fail));
    try {
      this.#worker = new Worker(url, { type: 'module' });
      this.#worker.onmessage = (event: MessageEvent<Reply>) => {
        const { id, result, error } = event.data;
        const call = this.#pending.get(id);
        if (!call) return;
        this.#pending.delete(id);
        if (result) call.resolve(result);
        else call.reject(workerError(error));
      };
      this.#worker.onerror = (event) => {
        event.preventDefault();
        failed(event.message);
      };
    } catch (err) {
      // WebKit refuses at once (SecurityError) a URL its CSP forbids; the others fire error later.
      failed('' + err);
    }
  }

  /** Set once the worker has failed (or is finding out why): the pool drops it. */
  get failed(): boolean {
    return !!this.#failing;
  }

  run(task: SearchTask): Promise<SearchTaskResult> {
    if (this.#failing) return this.#failing.then((err) => Promise.reject(err));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker!.postMessage({ id, task });
      } catch (err) {
        this.#pending.delete(id);
        reject(err);
      }
    });
  }

  terminate(): void {
    this.#worker?.terminate();
    // Calls in flight end as ABORTED (or, while a failure is being explained, with that failure).
    this.#failing ??= Promise.resolve(this.#fail(new AbortError('miner pool terminated')));
  }

  /** Rejects every call in flight with `err`, and returns it. */
  readonly #fail = (err: TpkitError): TpkitError => {
    for (const call of this.#pending.values()) call.reject(err);
    this.#pending.clear();
    return err;
  };
}

function workerError(error: Reply['error']): TpkitError {
  const code = error?.code && error.code in ERROR_CODES ? (error.code as ErrorCode) : 'WASM_UNAVAILABLE';
  return new TpkitError(code, 'Miner worker failed', { details: error?.message ?? 'no details' });
}

function addCounts(into: Partial<Record<KernelName, number>>, from: Partial<Record<KernelName, number>>): void {
  for (const [name, count] of Object.entries(from) as [KernelName, number][]) into[name] = (into[name] ?? 0) + count;
}

/** A task as short runs, for pages without shared memory: stops within one run of the flag. */
async function runInSteps(worker: MinerWorker, task: SearchTask): Promise<SearchTaskResult> {
  const stop = new Int32Array(task.control);
  const counter = new BigInt64Array(task.counter);
  const byKernel: Partial<Record<KernelName, number>> = {};
  const race = task.kernel === 'auto' ? worker.race : undefined;
  let started = false;
  let hashes = 0;
  let busyMs = 0;
  let cursor = task.start;
  let step = FIRST_RUN;
  while (cursor < task.end && Atomics.load(stop, 0) === RUNNING) {
    const use = race ? race.next() : 0;
    const kernel = race ? race.names[use] : (task.kernel as KernelName);
    const end = cursor + step < task.end ? cursor + step : task.end;
    const began = performance.now();
    // Each run gets buffers of its own: the page's may be shared, which a page that is
    // not cross-origin isolated cannot post.
    const result = await worker.run({
      ...task,
      kernel,
      start: cursor,
      end,
      control: new ArrayBuffer(task.control.byteLength),
      counter: new ArrayBuffer(8),
    });
    const took = performance.now() - began;
    if (!started) {
      // A search that stopped while this worker was starting did not wait for it (it was not
      // counted in control[1]) and may have settled: its result is no longer this run's to add
      // to. It counts itself now, as it returns: the search waits until as many tasks have
      // returned as have counted themselves, and a task returning uncounted would let it
      // settle while a worker that did count itself still hashes.
      if (Atomics.load(stop, 0) !== RUNNING) {
        if (stop.length > 1) Atomics.add(stop, 1, 1);
        break;
      }
      // The first run back means this worker hashes: the search counts it so the page's
      // thread can hand over to the workers.
      if (stop.length > 1) Atomics.add(stop, 1, 1);
      started = true;
    }
    hashes += result.hashes;
    busyMs += result.busyMs;
    addCounts(byKernel, result.byKernel);
    Atomics.add(counter, 0, BigInt(result.hashes));
    const current = race ? race.names[race.current] : kernel;
    if (result.nonce !== null) {
      Atomics.compareExchange(stop, 0, RUNNING, SOLVED);
      return { nonce: result.nonce, hashes, byKernel, kernel: current, busyMs };
    }
    cursor = end;
    race?.record(use, result.hashes, took);
    const scaled = took > 1 ? (step * BigInt(Math.round((RUN_TARGET_MS / took) * 1024))) / 1024n : step * 2n;
    step = scaled < MIN_RUN ? MIN_RUN : scaled > MAX_RUN ? MAX_RUN : scaled;
  }
  return { nonce: null, hashes, byKernel, kernel: race ? race.names[race.current] : (task.kernel as KernelName), busyMs };
}

/** Longest a warm-up waits for the workers to start before it gives up on them. */
const WARM_LIMIT_MS = 10_000;

/**
 * A search at a difficulty never met, on the workers: the page compiles the binaries (once)
 * and readies its own kernel, every worker starts (control[1] counts those hashing), then
 * they hash `durationMs` more. `run` is the pool's own, so the warm-up does not preempt
 * itself; `stop` is how a real search preempts it.
 */
async function warmUp(threads: number, run: MinerPool['run'], stop: AbortController, durationMs: number): Promise<WarmUp> {
  const began = performance.now();
  let control: Int32Array | undefined;
  let counter: BigInt64Array | undefined;
  const watched: MinerPool = {
    threads,
    run(task) {
      control = new Int32Array(task.control);
      counter = new BigInt64Array(task.counter);
      return run(task);
    },
  };
  let readyAt = NaN;
  // The rate is taken over the second half of the hashing: the first runs baseline code.
  let from = { at: NaN, hashes: 0 };
  const mark = () => (from = { at: performance.now(), hashes: counter ? Number(Atomics.load(counter, 0)) : 0 });
  let timedOut = false;
  let finished = false;
  let timer = setTimeout(() => ((timedOut = true), stop.abort()), WARM_LIMIT_MS);
  let half: ReturnType<typeof setTimeout> | undefined;
  const poll = setInterval(() => {
    if (!control || !counter || control.length < 2 || Atomics.load(control, 1) < threads) return;
    clearInterval(poll);
    readyAt = performance.now();
    mark();
    half = setTimeout(mark, durationMs / 2);
    clearTimeout(timer);
    timer = setTimeout(() => ((finished = true), stop.abort()), durationMs);
  }, 2);
  // The page's own kernel too, so a search's first slice starts at once.
  callingThreadState('auto').catch(() => undefined);
  try {
    // The workers alone: the page's thread stays free for the page (and for a search that
    // starts meanwhile, whose own share of the page's thread would otherwise be halved).
    await searchNonce({ body: WARM_BODY, difficulty: 64, pool: watched, kernel: 'auto', signal: stop.signal, callingThread: false });
  } catch (err) {
    if (!(err instanceof TpkitError && err.code === 'ABORTED')) throw err;
  } finally {
    clearInterval(poll);
    clearTimeout(timer);
    clearTimeout(half);
  }
  if (timedOut) throw new TpkitError('WASM_UNAVAILABLE', 'Miner workers did not start', { details: `not every worker hashed within ${WARM_LIMIT_MS} ms` });
  const hashes = counter ? Number(Atomics.load(counter, 0)) - from.hashes : 0;
  const ms = performance.now() - from.at;
  return { readyMs: readyAt - began, hashRate: ms > 0 ? (hashes / ms) * 1000 : 0, preempted: !finished };
}

export function createWebMinerPool(threads: number = globalThis.navigator?.hardwareConcurrency || 1, options: WebMinerPoolOptions = {}): WebMinerPool {
  if (!Number.isInteger(threads) || threads < 1) throw new ArgumentError(`"threads" expected a positive integer, got ${String(threads)}`);
  if (typeof Worker !== 'function') throw new TpkitError('WASM_UNAVAILABLE', 'Web Workers are not available here');
  const url = options.workerUrl ?? defaultWorkerUrl();
  const shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;
  const live: MinerWorker[] = [];
  const idle: MinerWorker[] = [];
  const waiting: { resolve: (worker: MinerWorker) => void; reject: (err: unknown) => void }[] = [];

  const spawn = (): MinerWorker => {
    const worker = new MinerWorker(url);
    live.push(worker);
    return worker;
  };
  // Every worker starts with the pool, so its script loads while the page compiles the kernels.
  const spawnAll = () => {
    while (live.length < threads) idle.push(spawn());
  };
  const acquire = (): Promise<MinerWorker> => {
    spawnAll();
    const free = idle.shift();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  const release = (worker: MinerWorker) => {
    if (worker.failed) {
      const at = live.indexOf(worker);
      if (at >= 0) live.splice(at, 1);
    }
    const next = waiting.shift();
    if (next) next.resolve(worker.failed ? spawn() : worker);
    else if (!worker.failed) idle.push(worker);
  };
  let warming: Promise<WarmUp> | undefined;
  let warmStop: AbortController | undefined;
  const runTask = async (task: SearchTask): Promise<SearchTaskResult> => {
    const worker = await acquire();
    try {
      const together = shared && task.control instanceof SharedArrayBuffer && task.counter instanceof SharedArrayBuffer;
      return together ? await worker.run(task) : await runInSteps(worker, task);
    } finally {
      release(worker);
    }
  };

  const pool: WebMinerPool = {
    threads,
    shared,
    run(task) {
      // A real search takes the workers from a warm-up at once.
      warmStop?.abort();
      return runTask(task);
    },
    terminate() {
      const ended = new AbortError('miner pool terminated');
      for (const call of waiting.splice(0)) call.reject(ended);
      for (const worker of live.splice(0)) worker.terminate();
      idle.length = 0;
    },
    warm(options = {}) {
      const durationMs = options.durationMs ?? WARM_MS;
      if (typeof durationMs !== 'number' || !(durationMs >= 0) || durationMs > 10_000) {
        return Promise.reject(new ArgumentError(`"durationMs" expected a number 0..10000, got ${String(durationMs)}`));
      }
      if (!warming) {
        const stop = new AbortController();
        warmStop = stop;
        warming = warmUp(threads, runTask, stop, durationMs).finally(() => {
          warming = undefined;
          if (warmStop === stop) warmStop = undefined;
        });
      }
      return warming;
    },
  };
  spawnAll();
  return pool;
}

let sharedPool: WebMinerPool | undefined;

/** The page's pool: one worker per logical core, created on first use. */
export function sharedWebMinerPool(): WebMinerPool {
  sharedPool ??= createWebMinerPool();
  return sharedPool;
}
