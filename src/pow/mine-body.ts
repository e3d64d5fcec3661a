// Mining a body whose last 8 bytes are a big-endian uint64 nonce: the register body
// (R2) is encoded once with the nonce last, and only those bytes change. The search
// runs on a miner pool; the answer is re-checked with the plain JS SHA-512 before it
// is returned.

import { expectBytes } from '../bytes.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { MAX_MINE_DIFFICULTY, powBits } from './bits.js';
import { defaultMinerPool } from './default-pool.js';
import { callingThreadState } from './calling-thread.js';
import { checkKernelChoice, type KernelName } from './kernel.js';
import { searchNonce, type MinerPool, type MiningProgress } from './search.js';
import { wasmAvailable, wasmRefusal } from '../wasm/kernel.js';

export interface MineOptions {
  difficulty: number;
  /** Threads to use (default: every thread of the pool, one per core for the shared pool). */
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (progress: MiningProgress) => void;
  /** Milliseconds between onProgress calls (default 250). */
  progressIntervalMs?: number;
  /** A miner pool from createMinerPool() or createWebMinerPool(), or any MinerPool (default: the process's shared worker-thread pool in Node, the page's Web Worker pool in browsers). */
  pool?: MinerPool;
  /** Kernel to run (default 'auto': each thread keeps whichever WASM kernel runs fastest). */
  kernel?: KernelName | 'auto';
  /** First nonce searched (default 0). */
  startNonce?: bigint;
  /**
   * Hash on the calling thread too, in slices of a few milliseconds, until every pool thread
   * hashes (default true): the search starts at once rather than after the threads' start-up.
   */
  callingThread?: boolean;
}

export interface MineResult {
  /** The body with the qualifying nonce in its last 8 bytes. */
  body: Uint8Array;
  nonce: bigint;
  /** Leading zero bits of SHA-512(body): at least the difficulty. */
  bits: number;
  hashes: number;
  /** From the call to the result, worker start-up included. */
  elapsedMs: number;
  /** Time spent hashing (the busiest thread): hashes / searchMs is the mining rate itself. */
  searchMs: number;
  /** The kernel that did most of the hashes. */
  kernel: KernelName;
  /** Hashes done by each kernel. */
  byKernel: Partial<Record<KernelName, number>>;
  /** Hashes done on the calling thread while the pool's threads started (part of `hashes`). */
  callingThreadHashes: number;
  /** Why `kernel` ran: asked for, the fastest measured, or the JS fallback and what refused WebAssembly. */
  kernelReason: string;
  /** Set when the pool's threads could not start and the calling thread mined alone: what failed. */
  poolFailure?: string;
}

export async function resolvePool(pool: MinerPool | undefined): Promise<MinerPool> {
  if (pool === undefined) return defaultMinerPool();
  if (pool && typeof pool.run === 'function' && Number.isInteger(pool.threads) && pool.threads > 0) return pool;
  throw new ArgumentError('"pool" expected a MinerPool (from createMinerPool() or createWebMinerPool())');
}

/** Finds a nonce for `body` (nonce = its last 8 bytes) with at least `difficulty` leading zero bits. */
export async function mineBody(body: Uint8Array, options: MineOptions): Promise<MineResult> {
  expectBytes(body, 'body');
  if (body.length < 8) throw new ArgumentError(`"body" expected at least 8 bytes (the nonce), got ${body.length}`);
  const { difficulty } = options;
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > MAX_MINE_DIFFICULTY) {
    throw new ArgumentError(`"difficulty" expected an integer 0..${MAX_MINE_DIFFICULTY} (the nonce has 64 bits; more leading zero bits are out of reach), got ${String(difficulty)}`);
  }
  const kernel = checkKernelChoice(options.kernel);
  // The calling thread's kernel compiles while the pool loads and its threads start.
  if (options.callingThread !== false) callingThreadState(kernel).catch(() => undefined);
  const pool = await resolvePool(options.pool);
  const outcome = await searchNonce({
    body,
    difficulty: options.difficulty,
    pool,
    kernel,
    threads: options.threads,
    signal: options.signal,
    onProgress: options.onProgress,
    progressIntervalMs: options.progressIntervalMs,
    startNonce: options.startNonce,
    callingThread: options.callingThread,
    // The default pool's workers may be blocked here: then the calling thread mines alone.
    carryOnWithoutPool: options.pool === undefined,
  });
  const mined = body.slice();
  new DataView(mined.buffer).setBigUint64(mined.length - 8, outcome.nonce);
  const bits = powBits(mined);
  if (bits < options.difficulty) {
    throw new TpkitError('MINING_BAD_RESULT', 'Mined nonce failed the SHA-512 re-check', {
      details: `nonce ${outcome.nonce} gives ${bits} bits, difficulty ${options.difficulty}`,
    });
  }
  const used = (Object.entries(outcome.byKernel) as [KernelName, number][]).sort((a, b) => b[1] - a[1]);
  const ran = used[0]?.[0] ?? (kernel === 'auto' ? 'js' : kernel);
  return {
    body: mined,
    nonce: outcome.nonce,
    bits,
    hashes: outcome.hashes,
    elapsedMs: outcome.elapsedMs,
    searchMs: outcome.searchMs,
    kernel: ran,
    byKernel: outcome.byKernel,
    callingThreadHashes: outcome.callingThreadHashes,
    kernelReason: await kernelReason(kernel, ran),
    poolFailure: outcome.poolFailure,
  };
}

/** Why a search's main kernel was the one that ran (its words are in a module loaded on first use). */
export async function kernelReason(choice: KernelName | 'auto', ran: KernelName): Promise<string> {
  const refusal = await import('../wasm/refusal.js');
  return refusal.kernelReason(choice, ran, wasmRefusal(), wasmAvailable());
}
