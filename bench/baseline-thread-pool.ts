// The miner's previous Node pool, kept as the benchmarks' baseline for the piscina pool
// (src/pow/pool.node.ts): plain worker threads running baseline-thread-worker.ts, all
// started at once and kept, so each keeps its compiled, tiered-up kernels between searches. One task per thread at a time; the
// search's stop flag and hash counter are SharedArrayBuffers every task shares. A thread that
// has nothing to do does not keep the process alive.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AbortError, ArgumentError, ERROR_CODES, TpkitError, type ErrorCode } from '../src/errors.js';
import type { MinerPool } from '../src/pow/search.js';
import type { SearchTask, SearchTaskResult } from '../src/pow/search-task.js';

const WORKER = new URL('./baseline-thread-worker.js', import.meta.url);

interface Reply {
  id: number;
  result?: SearchTaskResult;
  error?: { code?: string; message: string };
}

interface Call {
  task: SearchTask;
  resolve(result: SearchTaskResult): void;
  reject(err: unknown): void;
}

function workerError(error: Reply['error']): TpkitError {
  const code = error?.code && error.code in ERROR_CODES ? (error.code as ErrorCode) : 'WASM_UNAVAILABLE';
  return new TpkitError(code, error?.code ? error.message : 'Miner thread failed', { details: error?.code ? undefined : error?.message });
}

class MinerThread {
  readonly worker: Worker;
  current: (Call & { id: number }) | undefined;
  /** Set once it has answered a task: a thread that never worked is not replaced. */
  healthy = false;
  #next = 0;

  constructor(
    private readonly onIdle: (thread: MinerThread) => void,
    onDead: (thread: MinerThread, err: TpkitError) => void,
  ) {
    // Flags of a `node -e` or `--input-type` run are not valid for a worker; the rest (profiling, limits) carry over.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    this.worker = new Worker(WORKER, { name: 'tpkit-miner', execArgv });
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const call = this.current;
      if (!call || call.id !== reply.id) return;
      this.current = undefined;
      this.healthy = true;
      this.worker.unref();
      if (reply.result) call.resolve(reply.result);
      else call.reject(workerError(reply.error));
      this.onIdle(this);
    });
    // An exception outside a task, or a thread that exits: it is replaced.
    const die = (err: TpkitError) => {
      const call = this.current;
      this.current = undefined;
      call?.reject(err);
      onDead(this, err);
    };
    this.worker.on('error', (err) => die(new TpkitError('WASM_UNAVAILABLE', 'Miner thread failed', { details: err.message, cause: err })));
    this.worker.on('exit', (code) => die(new TpkitError('WASM_UNAVAILABLE', 'Miner thread exited', { details: `exit code ${code}` })));
  }

  start(call: Call): void {
    const id = this.#next++;
    this.current = { ...call, id };
    // A running search keeps the process alive until it settles.
    this.worker.ref();
    this.worker.postMessage({ id, task: call.task });
  }
}

export class NodeMinerPool implements MinerPool {
  readonly threads: number;
  #idle: MinerThread[] = [];
  #all = new Set<MinerThread>();
  #queue: Call[] = [];
  #destroyed = false;
  #completed = 0;
  #lastError: TpkitError | undefined;

  /** Tasks finished so far, for tests and diagnostics. */
  get completed(): number {
    return this.#completed;
  }

  /** Tasks waiting for a free thread. */
  get queueSize(): number {
    return this.#queue.length;
  }

  constructor(threads: number) {
    this.threads = threads;
    for (let i = 0; i < threads; i++) this.#spawn();
  }

  #spawn(): void {
    const thread = new MinerThread(
      (t) => this.#idleAgain(t),
      (t, err) => {
        if (!this.#all.delete(t)) return;
        this.#idle = this.#idle.filter((x) => x !== t);
        if (this.#destroyed) return;
        this.#lastError = err;
        // A thread that served tasks is replaced; one that never started would only fail again.
        if (t.healthy) this.#spawn();
        // Tasks waiting for a thread fail with its error rather than wait forever.
        if (this.#all.size === 0) for (const call of this.#queue.splice(0)) call.reject(err);
      },
    );
    this.#all.add(thread);
    this.#idle.push(thread);
  }

  #idleAgain(thread: MinerThread): void {
    this.#completed++;
    const next = this.#queue.shift();
    if (next) thread.start(next);
    else this.#idle.push(thread);
  }

  run(task: SearchTask): Promise<SearchTaskResult> {
    if (this.#destroyed) return Promise.reject(new AbortError('miner pool destroyed'));
    if (this.#all.size === 0) return Promise.reject(this.#lastError ?? new TpkitError('WASM_UNAVAILABLE', 'No miner thread could start'));
    return new Promise((resolve, reject) => {
      const call = { task, resolve, reject };
      const thread = this.#idle.pop();
      if (thread) thread.start(call);
      else this.#queue.push(call);
    });
  }

  /** Ends every thread; running and queued searches reject. */
  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    const aborted = new AbortError('miner pool destroyed');
    for (const call of this.#queue.splice(0)) call.reject(aborted);
    const threads = [...this.#all];
    this.#all.clear();
    for (const t of threads) t.current?.reject(aborted);
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}

/** A pool of `threads` plain worker threads (default: one per core), all started at once. */
export function createBaselinePool(threads: number = availableParallelism()): NodeMinerPool {
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new ArgumentError(`"threads" expected an integer 1..256, got ${String(threads)}`);
  }
  return new NodeMinerPool(threads);
}
