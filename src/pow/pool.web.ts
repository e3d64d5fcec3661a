// The browser's miner pool: module Web Workers running worker.web.ts (bundled beside this
// file as miner-worker.js), created on first use and kept, so each keeps its compiled
// kernels. In a cross-origin-isolated page every task shares the search's stop flag and
// hash counter (SharedArrayBuffer) and runs its whole range. Elsewhere a task runs as a
// series of short runs of about 50 ms, and the flag is checked between them here.

import { ArgumentError, ERROR_CODES, TpkitError, type ErrorCode } from '../errors.js';
import type { MinerPool } from './search.js';
import { RUNNING, SOLVED, type SearchTask, type SearchTaskResult } from './search-task.js';
import type { KernelName } from './kernel.js';

export interface WebMinerPool extends MinerPool {
  /** True when tasks share memory with the page (the page is cross-origin isolated). */
  readonly shared: boolean;
  /** Ends every worker; a running search rejects. */
  terminate(): void;
}

export interface WebMinerPoolOptions {
  /** The worker script (default: miner-worker.js beside the bundle). */
  workerUrl?: string | URL;
}

interface Reply {
  id: number;
  result?: SearchTaskResult;
  error?: { code?: string; message: string };
}

const RUN_TARGET_MS = 50;
const MIN_RUN = 1n << 10n;
const MAX_RUN = 1n << 28n;

class MinerWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (r: SearchTaskResult) => void; reject: (e: unknown) => void }>();
  #next = 0;

  constructor(url: string | URL) {
    this.#worker = new Worker(url, { type: 'module', name: 'tpkit-miner' });
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
      this.#failAll(new TpkitError('WASM_UNAVAILABLE', 'Miner worker failed', { details: event.message || 'the worker script did not load' }));
    };
  }

  run(task: SearchTask): Promise<SearchTaskResult> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, task });
    });
  }

  terminate(): void {
    this.#worker.terminate();
    this.#failAll(new TpkitError('ABORTED', 'Operation aborted', { details: 'miner pool terminated' }));
  }

  #failAll(err: TpkitError): void {
    for (const call of this.#pending.values()) call.reject(err);
    this.#pending.clear();
  }
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
  let hashes = 0;
  let kernel: KernelName = 'js';
  let cursor = task.start;
  let step = 1n << 14n;
  while (cursor < task.end && Atomics.load(stop, 0) === RUNNING) {
    const end = cursor + step < task.end ? cursor + step : task.end;
    const began = performance.now();
    const result = await worker.run({ ...task, start: cursor, end });
    const took = performance.now() - began;
    hashes += result.hashes;
    kernel = result.kernel;
    addCounts(byKernel, result.byKernel);
    Atomics.add(counter, 0, BigInt(result.hashes));
    if (result.nonce !== null) {
      Atomics.compareExchange(stop, 0, RUNNING, SOLVED);
      return { nonce: result.nonce, hashes, byKernel, kernel };
    }
    cursor = end;
    const scaled = took > 1 ? (step * BigInt(Math.round((RUN_TARGET_MS / took) * 1024))) / 1024n : step * 2n;
    step = scaled < MIN_RUN ? MIN_RUN : scaled > MAX_RUN ? MAX_RUN : scaled;
  }
  return { nonce: null, hashes, byKernel, kernel };
}

export function createWebMinerPool(threads: number = globalThis.navigator?.hardwareConcurrency || 1, options: WebMinerPoolOptions = {}): WebMinerPool {
  if (!Number.isInteger(threads) || threads < 1) throw new ArgumentError(`"threads" expected a positive integer, got ${String(threads)}`);
  if (typeof Worker !== 'function') throw new TpkitError('WASM_UNAVAILABLE', 'Web Workers are not available here');
  const url = options.workerUrl ?? new URL('./miner-worker.js', import.meta.url);
  const workers: MinerWorker[] = [];
  const idle: MinerWorker[] = [];
  const waiting: ((worker: MinerWorker) => void)[] = [];
  const shared = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true;

  const acquire = (): Promise<MinerWorker> => {
    const free = idle.pop();
    if (free) return Promise.resolve(free);
    if (workers.length < threads) {
      const worker = new MinerWorker(url);
      workers.push(worker);
      return Promise.resolve(worker);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (worker: MinerWorker) => {
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  };

  return {
    threads,
    shared,
    async run(task) {
      const worker = await acquire();
      try {
        return task.control instanceof ArrayBuffer ? await runInSteps(worker, task) : await worker.run(task);
      } finally {
        release(worker);
      }
    },
    terminate() {
      for (const worker of workers) worker.terminate();
      workers.length = 0;
      idle.length = 0;
    },
  };
}

let sharedPool: WebMinerPool | undefined;

/** The page's pool: one worker per logical core, created on first use. */
export function sharedWebMinerPool(): WebMinerPool {
  sharedPool ??= createWebMinerPool();
  return sharedPool;
}
