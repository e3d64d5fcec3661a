// An EVM on its own worker thread (evm-worker.ts), so nothing a contract does holds the node's
// event loop: runs go one at a time through a bounded queue; the thread asks for what a run
// reads and this side answers from the ledger the run was given. A run past its time bound,
// or whose caller gave up (its AbortSignal), is stopped the only sure way, by terminating the
// thread; a fresh one starts for the next run. The packages are also loaded here, on the main
// thread, for what does not run code (decoding Ethereum transactions, hashing signatures).

import { Worker } from 'node:worker_threads';
import { TpkitError } from '../../errors.js';
import { loadEvm, type EvmLib } from './load.js';
import type { EvmMessage, EvmRun } from './runner.js';
import type { EvmChanges, EvmLedger } from './state.js';
import type { FromEvmThread, SessionUpdate, ToEvmThread } from './evm-worker.js';

export interface EvmThreadOptions {
  chainId: bigint;
  /** What GASLIMIT answers. */
  blockGasLimit: bigint;
  /** What BASEFEE answers. */
  baseFee: bigint;
  /** Runs waiting beyond the running one before more are refused with EVM_BUSY. */
  maxQueue: number;
  /** Named in errors and logs: "view" or "block". */
  name: string;
}

export interface RunOptions {
  /** Milliseconds the run may take once started; past it the run is stopped (EVM_TIMEOUT). */
  timeoutMs: number;
  /** A queued run is dropped, a running one stopped, when this aborts (ABORTED). */
  signal?: AbortSignal;
  /** Called when the run leaves the queue for the thread. */
  onStart?: () => void;
  /** The runs of one block: the thread keeps what they read (see RunSession). */
  session?: RunSession;
}

/**
 * Runs that read one ledger in turn (a block's transactions): the thread keeps the code and
 * storage they read, so each value crosses between threads once per block, not once per run.
 * `changes` lists, in order, every change made to that ledger's code and storage since the
 * session began; each run sends the thread those it has not seen, so its copy stays true.
 */
export interface RunSession {
  readonly changes: readonly Pick<EvmChanges, 'code' | 'storage'>[];
}

interface Job {
  ledger: EvmLedger;
  message: EvmMessage;
  options: RunOptions;
  resolve(run: EvmRun): void;
  reject(err: unknown): void;
  onAbort?: () => void;
}

/** geth's words for a view stopped by --rpc.evmtimeout. */
export function timeoutError(ms: number): TpkitError {
  const s = ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
  return new TpkitError('EVM_TIMEOUT', `execution aborted (timeout = ${s})`, {
    details: 'the run was stopped; a larger bound is limits.viewTimeoutMs (views) or limits.blockTxTimeoutMs (block transactions)',
  });
}

export class EvmThread {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private readonly queue: Job[] = [];
  private running: Job | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The session the thread last saw, on which worker, and how many of its changes it has. */
  private delivered: { session: RunSession; worker: Worker; seen: number } | undefined;
  /** Threads terminated to stop a run (timeouts and cancellations): what tests observe. */
  stopped = 0;

  private constructor(
    readonly library: EvmLib,
    /** The chain configuration Ethereum transactions are decoded with. */
    readonly common: unknown,
    private readonly options: EvmThreadOptions,
  ) {}

  /** Loads the EVM packages here (DEPENDENCY_MISSING when absent) and starts the thread. */
  static async create(options: EvmThreadOptions): Promise<EvmThread> {
    const lib = await loadEvm();
    const thread = new EvmThread(lib, lib.createCustomCommon({ chainId: Number(options.chainId) }, lib.Mainnet), options);
    await thread.start();
    return thread;
  }

  /** Runs waiting and running: what a view's queue bound counts. */
  get load(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  run(ledger: EvmLedger, message: EvmMessage, options: RunOptions): Promise<EvmRun> {
    if (this.closed) return Promise.reject(closedError());
    if (options.signal?.aborted) return Promise.reject(abortedError());
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new TpkitError('EVM_BUSY', `The node's ${this.options.name} queue is full`, { details: `${this.options.maxQueue} runs wait already; retry later` }));
    }
    return new Promise<EvmRun>((resolve, reject) => {
      const job: Job = { ledger, message, options, resolve, reject };
      if (options.signal) {
        job.onAbort = () => this.abort(job);
        options.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.next();
    });
  }

  /** Stops the thread; the running and queued runs fail with NODE_SHUTTING_DOWN. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const jobs = [...(this.running ? [this.running] : []), ...this.queue.splice(0)];
    this.running = undefined;
    for (const job of jobs) this.settle(job, closedError());
    await this.kill();
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(new URL('./evm-worker.js', import.meta.url), {
        workerData: { chainId: this.options.chainId, blockGasLimit: this.options.blockGasLimit, baseFee: this.options.baseFee },
      });
      this.worker = worker;
      worker.on('message', (m: FromEvmThread) => {
        if (m.type === 'ready') resolve(worker);
        else this.onMessage(worker, m);
      });
      worker.on('error', (err) => {
        if (this.worker !== worker) return;
        reject(err);
        this.lost(err);
      });
      worker.on('exit', (code) => {
        if (this.worker !== worker) return;
        const err = new TpkitError('NODE_INTERNAL', `The ${this.options.name} EVM thread ended (exit code ${code})`);
        reject(err);
        this.lost(err);
      });
    });
    return this.ready;
  }

  /** The thread died on its own: its run fails, the next run gets a new thread. */
  private lost(err: unknown): void {
    this.worker = undefined;
    this.ready = undefined;
    const job = this.running;
    this.running = undefined;
    if (job) this.settle(job, err);
    this.next();
  }

  private async kill(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    this.delivered = undefined;
    if (worker) await worker.terminate();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    this.start().then(
      (worker) => {
        if (this.running !== job) return;
        const { ledger, message } = job;
        const keys = [message.caller, ...(message.to === undefined ? [] : [message.to])];
        const out: ToEvmThread = {
          type: 'run',
          message,
          accounts: keys.map((k) => [k, ledger.account(k)]),
          code: keys.map((k) => [k, ledger.code(k)]),
          ...(job.options.session ? { session: this.sessionUpdate(job.options.session, worker) } : {}),
        };
        this.timer = setTimeout(() => this.stop(job, timeoutError(job.options.timeoutMs)), job.options.timeoutMs);
        worker.postMessage(out);
        job.options.onStart?.();
      },
      (err: unknown) => {
        if (this.running !== job) return;
        this.running = undefined;
        this.settle(job, err);
        this.next();
      },
    );
  }

  /** What `worker` lacks of `session`: everything, on a new session or a new worker (a reset). */
  private sessionUpdate(session: RunSession, worker: Worker): SessionUpdate {
    const d = this.delivered;
    const same = d !== undefined && d.session === session && d.worker === worker;
    this.delivered = { session, worker, seen: session.changes.length };
    return { reset: !same, changes: same ? session.changes.slice(d.seen) : [] };
  }

  private onMessage(worker: Worker, m: FromEvmThread): void {
    const job = this.running;
    if (!job || worker !== this.worker) return;
    if (m.type === 'read') {
      let value: unknown;
      try {
        value = m.what === 'account' ? job.ledger.account(m.key) : m.what === 'code' ? job.ledger.code(m.key) : job.ledger.storage(m.key, m.slot!);
      } catch (err) {
        this.stop(job, err);
        return;
      }
      const answer = (v: unknown) => worker.postMessage({ type: 'answer', id: m.id, value: v } as ToEvmThread);
      // A slot not in the cache is a store read; the job may end (a timeout, a hang-up) meanwhile.
      if (value instanceof Promise) {
        value.then(
          (v) => this.running === job && worker === this.worker && answer(v),
          (err) => this.running === job && this.stop(job, err),
        );
      } else answer(value);
      return;
    }
    this.running = undefined;
    if (m.type === 'done') this.settle(job, undefined, m.run as EvmRun);
    else if (m.type === 'failed') this.settle(job, m.code === 'DEPENDENCY_MISSING' ? new TpkitError('DEPENDENCY_MISSING', m.message) : new Error(m.message));
    this.next();
  }

  /** Ends `job` with `err`: dropped from the queue, or, running, its thread terminated. */
  private stop(job: Job, err: unknown): void {
    if (this.running === job) {
      this.running = undefined;
      this.stopped++;
      void this.kill().then(() => {
        // A fresh thread for the next run, started now rather than when one arrives.
        if (!this.closed) this.start().catch(() => undefined);
        this.next();
      });
    } else {
      const at = this.queue.indexOf(job);
      if (at < 0) return;
      this.queue.splice(at, 1);
    }
    this.settle(job, err);
  }

  private abort(job: Job): void {
    this.stop(job, abortedError());
  }

  private settle(job: Job, err: unknown, run?: EvmRun): void {
    if (this.timer && !this.running) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (job.onAbort) job.options.signal?.removeEventListener('abort', job.onAbort);
    if (run) job.resolve(run);
    else job.reject(err);
  }
}

function closedError(): TpkitError {
  return new TpkitError('NODE_SHUTTING_DOWN', 'The node is shutting down', { details: 'the EVM run was stopped' });
}

function abortedError(): TpkitError {
  return new TpkitError('ABORTED', 'The contract run was cancelled', { details: 'the client closed the connection' });
}
