// Node's miner pool: piscina worker threads running worker.ts, a fixed number, all started
// at once on the pool's first task (or warm()) and kept (each keeps its tiered-up kernels
// between searches), one task per thread at a time. Starting on the first task, not at
// creation, keeps piscina and the threads' start-up off a first search that the calling
// thread finishes alone (search.ts hands tasks over once the WASM modules are compiled). The search's stop flag and hash counter are SharedArrayBuffers every task
// shares; piscina's AbortSignal is not used, since aborting a running piscina task ends its
// thread. Idle piscina threads are unref'd: an idle pool never keeps the process alive.
// piscina's optional `@napi-rs/nice` is loaded only for a nonzero `niceIncrement`: never here.

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { AbortError, ArgumentError, ERROR_CODES, TpkitError, type ErrorCode } from '../errors.js';
import type { MinerPool } from './search.js';
import type { SearchTask, SearchTaskResult } from './search-task.js';
import type { WorkerReply } from './worker.js';
import { warmPool } from './warm-pool.js';
import { useNodeSha512 } from './native-sha512.js';

// The JS kernel of this thread hashes with node:crypto (native-sha512.ts).
useNodeSha512();

/** A CommonJS entry, so piscina never require()s the ES module (see worker-entry.cts). */
const WORKER = new URL('./worker-entry.cjs', import.meta.url).href;
/** piscina is loaded with the first pool, not with tpkit: importing the miner stays cheap. */
let piscinaClass: typeof Piscina | undefined;
const loadPiscina = () => (piscinaClass ??= (createRequire(import.meta.url)('piscina') as { Piscina: typeof Piscina }).Piscina);
/** Threads at the pool's size are never retired; this only bounds a resized pool. */
const IDLE_TIMEOUT_MS = 10 * 60_000;

function workerError(error: { code?: string; message: string }): TpkitError {
  const code = error.code && error.code in ERROR_CODES ? (error.code as ErrorCode) : 'WASM_UNAVAILABLE';
  return new TpkitError(code, error.code ? error.message : 'Miner thread failed', { details: error.code ? undefined : error.message });
}

export class NodeMinerPool implements MinerPool {
  readonly threads: number;
  #piscina: Piscina<SearchTask, WorkerReply> | undefined;
  #destroyed = false;
  #completed = 0;
  #warming: Promise<void> | undefined;

  constructor(threads: number) {
    this.threads = threads;
  }

  /** The threads, started on first need. */
  #start(): Piscina<SearchTask, WorkerReply> {
    if (this.#piscina) return this.#piscina;
    // Flags a worker refuses stay with the process: `--input-type` of a `node -e` run, and
    // `--jitless`, a V8 flag that holds for every thread of the process anyway (the threads
    // then mine with the JS kernel, WebAssembly being absent). The rest (profiling, limits) carry over.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type') && a !== '--jitless');
    const PiscinaPool = loadPiscina();
    this.#piscina = new PiscinaPool<SearchTask, WorkerReply>({
      filename: WORKER,
      minThreads: this.threads,
      maxThreads: this.threads,
      concurrentTasksPerWorker: 1,
      idleTimeout: IDLE_TIMEOUT_MS,
      execArgv,
    });
    return this.#piscina;
  }

  /** Whether the threads were started (by a first task or warm()). */
  get started(): boolean {
    return this.#piscina !== undefined;
  }

  /** Tasks finished so far, for tests and diagnostics. */
  get completed(): number {
    return this.#completed;
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.#piscina?.queueSize ?? 0;
  }

  async run(task: SearchTask): Promise<SearchTaskResult> {
    if (this.#destroyed) throw new AbortError('miner pool destroyed');
    let reply: WorkerReply;
    try {
      reply = await this.#start().run(task);
    } catch (err) {
      if (this.#destroyed) throw new AbortError('miner pool destroyed');
      throw new TpkitError('WASM_UNAVAILABLE', 'Miner thread failed', { details: err instanceof Error ? err.message : String(err), cause: err });
    }
    this.#completed++;
    if ('error' in reply) throw workerError(reply.error);
    return reply.result;
  }

  /**
   * Starts every thread, hands it the calling thread's compiled kernels and runs a short
   * search on each, so the kernels reach the engine's optimizing tier before a search needs
   * them. Concurrent calls share one warm-up.
   */
  warm(): Promise<void> {
    this.#warming ??= warmPool(this);
    return this.#warming;
  }

  /** Ends every thread; running and queued searches reject. */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#piscina?.destroy();
  }
}

/** A new pool of `threads` miner threads (default: one per core), all started on its first task or warm(). */
export function createMinerPool(threads: number = availableParallelism()): NodeMinerPool {
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new ArgumentError(`"threads" expected an integer 1..256, got ${String(threads)}`);
  }
  return new NodeMinerPool(threads);
}

let shared: NodeMinerPool | undefined;

/** The process's pool, created on first call. */
export function sharedMinerPool(): NodeMinerPool {
  shared ??= createMinerPool();
  return shared;
}

/** Ends the shared pool's threads (a later sharedMinerPool() makes a new one). */
export async function closeSharedMinerPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  if (pool) await pool.destroy();
}
