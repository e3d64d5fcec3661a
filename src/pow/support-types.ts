// What minerSupport() reports (support.ts asks, support-check.ts finds out).

import type { WasmRefusalInfo } from '../wasm/refusal.js';
import type { KernelName } from './kernel-types.js';
import type { MinerPool } from './search.js';

export interface MinerSupportOptions {
  /** Difficulty of the proof whose expected time is reported (default 16, the network's register difficulty). */
  difficulty?: number;
  /** Milliseconds spent measuring this thread's kernels (default 300; 0 measures nothing and leaves rates empty). */
  measureMs?: number;
  /** The pool whose workers are checked (default: the one mineRegister uses); false leaves workers unstarted. */
  pool?: MinerPool | false;
  /** Longest wait for a worker to answer its first task, ms (default 10000). */
  workerTimeoutMs?: number;
}

export interface MinerSupport {
  /** The JavaScript runtime: "Node 20.20.2", "Bun 1.3.1", "Deno 2.1.4" or a browser's user agent. */
  engine: string;
  webAssembly: {
    /** A WebAssembly global exists. */
    present: boolean;
    /** This thread compiles and runs a module (false when missing, or refused by a CSP). */
    usable: boolean;
    /** Why it is not usable: the cause, the engine's message, the CSP directive at fault and the fix. */
    refusal?: WasmRefusalInfo;
  };
  simd: {
    /** The engine validates WebAssembly SIMD. */
    present: boolean;
    /** The SIMD kernels found the known answers (null when there is no SIMD to check). */
    correct: boolean | null;
    /** What went wrong when not correct. */
    detail?: string;
  };
  workers: {
    /** A Worker (browsers) or worker thread (Node, Deno, Bun) API exists. */
    present: boolean;
    /** The pool's workers ran a task (null when not checked: `pool: false`). */
    usable: boolean | null;
    /** Threads of the pool mining would use. */
    threads: number;
    /** Why they did not run. */
    error?: string;
  };
  sharedMemory: {
    /** SharedArrayBuffer exists here. */
    sharedArrayBuffer: boolean;
    /** The page is cross-origin isolated (null outside browsers). */
    crossOriginIsolated: boolean | null;
    /** The page's response carries COOP and COEP headers that isolate it (null when not asked: outside browsers, or the page cannot be fetched again). */
    isolationHeaders: boolean | null;
    /** Why the workers cannot share the search's memory, when they cannot. */
    cause?: string;
  };
  /** Logical cores the engine reports (navigator.hardwareConcurrency, or the pool's size in Node). */
  cores: number;
  /** The kernel mining runs with kernel 'auto': the one its kernel race keeps here, found by running that race (auto-measure.ts). */
  kernel: KernelName;
  /** Why that kernel. */
  kernelReason: string;
  /** Hashes per second of each kernel on one thread, as measured (empty with measureMs 0). */
  rates: Partial<Record<KernelName, number>>;
  /** Threads that would mine: the pool's threads when its workers run, else the calling thread alone. */
  threads: number;
  /** Expected hashes per second of all those threads (one thread's rate times their number). */
  hashRate: number;
  /** Time to a proof at `difficulty` at that rate (geometric distribution, estimate.ts); Infinity when nothing was measured. */
  /**
   * Time to a proof at `hashRate`, and `basis`: that it is an estimate, from which rate
   * measured how, under the machine's load at that moment (a busier machine takes longer).
   */
  expected: { difficulty: number; meanMs: number; medianMs: number; p95Ms: number; basis: string };
  /** How long this diagnosis took. */
  elapsedMs: number;
}
