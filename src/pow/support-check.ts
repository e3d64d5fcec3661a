// minerSupport()'s work (support.ts loads this module on the first call, so the browser
// bundle carries it as a chunk of its own): what this environment offers the miner and what
// mining will use, asked before the wait. It checks WebAssembly (present, and allowed by the page's Content
// Security Policy), SIMD (validated, and computing right: a known-answer search on each
// SIMD kernel, since an engine may accept the instructions and compute them wrongly),
// workers (started for real, with one tiny task), shared memory and cross-origin isolation
// (and which of the two is missing), then finds the kernel 'auto' keeps here by running
// the same kernel race a miner thread runs, and turns its rate into the expected time to a
// proof at a difficulty.

import type { ArgumentError } from '../errors.js';
import type { describeRefusal } from '../wasm/refusal.js';
import type { simdSupported, wasmAvailable, wasmRefusal } from '../wasm/kernel.js';
import { measureAuto, type AutoMeasureDeps } from './auto-measure.js';
import type { defaultMinerPool } from './default-pool.js';
import type { estimateMining } from './estimate.js';
import type { availableKernels, distrustSimd, loadKernel, KernelName } from './kernel.js';
import type { modulesFor } from './calling-thread.js';
import type { kernelReason } from './mine-body.js';
import type { MinerPool } from './search.js';
import type { SearchTask } from './search-task.js';
import type { MinerSupport, MinerSupportOptions } from './support-types.js';

/**
 * The miner's functions this module calls, handed over by support.ts: importing none of
 * them keeps this module a chunk of its own in the browser build, sharing no code with the
 * bundle (which already holds all of them). A list, not an object: the bundle then spends
 * no bytes on their names. The number is the stop flag's value for an aborted search.
 */
export type SupportDeps = readonly [
  typeof ArgumentError,
  typeof describeRefusal,
  typeof simdSupported,
  typeof wasmAvailable,
  typeof wasmRefusal,
  AutoMeasureDeps,
  typeof defaultMinerPool,
  typeof estimateMining,
  typeof availableKernels,
  typeof distrustSimd,
  typeof loadKernel,
  typeof kernelReason,
  number,
  typeof modulesFor,
];

/** A one-block body and, at difficulty 9, the first qualifying nonce from each start (node:crypto's answers). */
const KNOWN_BODY = (): Uint8Array => new Uint8Array(66).map((_, i) => (i * 151 + 7) & 0xff);
const KNOWN_DIFFICULTY = 9;
const KNOWN_ANSWERS: readonly (readonly [bigint, bigint])[] = [
  [0n, 164n],
  [1000n, 1862n],
  [5001n, 5042n],
  [20000n, 20543n],
];

/** Each kernel's first nonce from each known start, checked against the known answers. */
export async function checkKernelAnswers(loadKernel: SupportDeps[10], names: readonly KernelName[]): Promise<string | undefined> {
  for (const name of names) {
    const kernel = await loadKernel(name);
    kernel.init(KNOWN_BODY());
    for (const [start, answer] of KNOWN_ANSWERS) {
      const offset = kernel.search(start, 4096, KNOWN_DIFFICULTY);
      const got = offset < 0 ? null : start + BigInt(offset);
      if (got !== answer) return `kernel '${name}' found ${got === null ? 'no nonce' : String(got)} from ${start} where the answer is ${answer}`;
    }
  }
  return undefined;
}

function engineName(): string {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } }; process?: { versions?: { node?: string } }; navigator?: { userAgent?: string } };
  if (g.Bun) return `Bun ${g.Bun.version}`;
  if (g.Deno) return `Deno ${g.Deno.version.deno}`;
  if (g.process?.versions?.node && typeof (globalThis as { window?: unknown }).window === 'undefined') return `Node ${g.process.versions.node}`;
  return g.navigator?.userAgent ?? 'unknown';
}

/** The CSP directive a fresh compile violates, from the securitypolicyviolation event browsers fire. */
async function violatedDirective(): Promise<string | undefined> {
  const target = (globalThis as { document?: EventTarget }).document ?? (globalThis as unknown as EventTarget);
  if (typeof target?.addEventListener !== 'function') return undefined;
  let directive: string | undefined;
  const listen = (event: Event) => {
    const e = event as Event & { effectiveDirective?: string; violatedDirective?: string; originalPolicy?: string };
    directive ??= e.effectiveDirective || e.violatedDirective;
  };
  target.addEventListener('securitypolicyviolation', listen);
  try {
    try {
      await WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    } catch {
      // The refusal itself: the event says which directive.
    }
    // The event is queued as a task after the refusal.
    for (let i = 0; i < 5 && directive === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    target.removeEventListener('securitypolicyviolation', listen);
  }
  return directive;
}

/** One tiny task on the pool, as a search sends it: with the modules this thread compiled (a blob: worker has no other way to its kernels). */
async function checkWorkers(pool: MinerPool, timeoutMs: number, ABORTED: number, modules: SearchTask['modules']): Promise<string | undefined> {
  const Shared = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer;
  const control = new Shared(8);
  const task: SearchTask = {
    body: KNOWN_BODY(),
    difficulty: 0,
    start: 0n,
    end: 1n,
    kernel: 'auto',
    control,
    counter: new Shared(8),
    sliceMs: 4,
    modules,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no worker answered within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      pool.run(task).then(
        (result) => (result.nonce === 0n ? undefined : 'a worker returned a wrong answer'),
        // A TpkitError's message already ends with its details.
        (err: unknown) => (err as { message?: string })?.message ?? String(err),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    // A worker that answers after the timeout returns at once.
    Atomics.store(new Int32Array(control), 0, ABORTED);
  }
}

async function isolationHeaders(): Promise<boolean | null> {
  const location = (globalThis as { location?: { href?: string; protocol?: string } }).location;
  if (typeof (globalThis as { document?: unknown }).document === 'undefined' || !location?.href || !/^https?:$/.test(location.protocol ?? '')) return null;
  try {
    const response = await fetch(location.href, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' });
    const coop = response.headers.get('cross-origin-opener-policy')?.split(';')[0].trim();
    const coep = response.headers.get('cross-origin-embedder-policy')?.split(';')[0].trim();
    return coop === 'same-origin' && (coep === 'require-corp' || coep === 'credentialless');
  } catch {
    return null;
  }
}

/**
 * Why the page has no shared memory, from what it sees: SharedArrayBuffer, crossOriginIsolated,
 * the isolation headers of its own response, and isSecureContext (undefined outside a browser).
 */
export function sharedMemoryCause(sab: boolean, isolated: boolean | null, headers: boolean | null, secure?: boolean): string | undefined {
  if (isolated === null) return sab ? undefined : 'this engine has no SharedArrayBuffer';
  if (sab && isolated) return undefined;
  // Browsers ignore COOP/COEP on an insecure origin: its headers are beside the point.
  if (secure === false) {
    return 'the page is not a secure context (plain http:// from a host other than localhost): browsers give cross-origin isolation and SharedArrayBuffer only to https:// pages and to http://localhost; serve it over HTTPS';
  }
  if (isolated || headers === true) {
    return "the page is served with COOP/COEP headers but this browser gives it no SharedArrayBuffer (the engine's policy, not the server)";
  }
  if (headers === false) {
    return 'the page is not cross-origin isolated: its response lacks Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp (or credentialless)';
  }
  return 'the page is not cross-origin isolated (COOP/COEP headers missing, or the browser refuses isolation)';
}

/** What this environment offers the miner, what mining will use, and how long a proof should take. */
export async function checkMinerSupport(options: MinerSupportOptions, deps: SupportDeps): Promise<MinerSupport> {
  const [
    ArgumentError,
    describeRefusal,
    simdSupported,
    wasmAvailable,
    wasmRefusal,
    autoDeps,
    defaultMinerPool,
    estimateMining,
    availableKernels,
    distrustSimd,
    loadKernel,
    kernelReason,
    ABORTED,
    modulesFor,
  ] = deps;
  const began = performance.now();
  const difficulty = options.difficulty ?? 16;
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 64) {
    throw new ArgumentError(`"difficulty" expected an integer 0..64, got ${String(options.difficulty)}`);
  }
  const measureMs = options.measureMs ?? 300;
  if (typeof measureMs !== 'number' || !(measureMs >= 0) || measureMs > 1000) {
    throw new ArgumentError(`"measureMs" expected a number 0..1000, got ${String(options.measureMs)}`);
  }
  const workerTimeoutMs = options.workerTimeoutMs ?? 10_000;

  const present = wasmAvailable();
  const refused = wasmRefusal();
  let refusal = refused ? describeRefusal(refused.error, present) : undefined;
  if (refusal?.cause === 'csp' && refusal.directive === undefined) {
    const directive = await violatedDirective();
    if (directive) refusal = { ...refusal, directive };
  }

  const simdPresent = simdSupported();
  const simdKernels = availableKernels().filter((name) => name === 'hybrid' || name === 'simd');
  const simdProblem = simdPresent ? await checkKernelAnswers(loadKernel, simdKernels).catch((err: unknown) => (err instanceof Error ? err.message : String(err))) : undefined;
  // Wrong answers: 'auto' on this thread leaves the SIMD kernels out from now on.
  if (simdProblem) distrustSimd();

  const pool = options.pool === false ? undefined : await (options.pool ? Promise.resolve(options.pool) : defaultMinerPool()).catch(() => undefined);
  const workersPresent =
    typeof (globalThis as { Worker?: unknown }).Worker === 'function' || typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
  const inline = pool !== undefined && 'reason' in pool;
  const workerError = pool && !inline ? await checkWorkers(pool, workerTimeoutMs, ABORTED, await modulesFor('auto')) : inline ? (pool as { reason: string }).reason : undefined;
  const workersUsable = pool === undefined ? null : !inline && workerError === undefined;

  const sab = typeof SharedArrayBuffer === 'function';
  const isolatedFlag = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  const isolated = typeof isolatedFlag === 'boolean' ? isolatedFlag : null;
  const headers = isolated === null || (sab && isolated) ? null : await isolationHeaders();

  // The kernel 'auto' keeps here, found by the same race a miner thread runs (auto-measure.ts).
  const calibration = measureMs > 0 ? await measureAuto(autoDeps, { durationMs: measureMs }) : undefined;
  const kernel = calibration?.kernel ?? availableKernels()[0];
  const perThread = calibration?.hashRate ?? 0;
  const threads = workersUsable ? (pool?.threads ?? 1) : 1;
  const hashRate = perThread * threads;
  const estimate = hashRate > 0 ? estimateMining(difficulty, hashRate) : undefined;
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency || pool?.threads || 1;

  return {
    engine: engineName(),
    webAssembly: { present, usable: refused === null, ...(refusal ? { refusal } : {}) },
    simd: { present: simdPresent, correct: simdPresent ? simdProblem === undefined : null, ...(simdProblem ? { detail: simdProblem } : {}) },
    workers: { present: workersPresent, usable: workersUsable, threads: pool?.threads ?? 1, ...(workerError ? { error: workerError } : {}) },
    sharedMemory: {
      sharedArrayBuffer: sab,
      crossOriginIsolated: isolated,
      isolationHeaders: headers,
      ...withCause(sharedMemoryCause(sab, isolated, headers, (globalThis as { isSecureContext?: boolean }).isSecureContext)),
    },
    cores,
    kernel,
    kernelReason: await kernelReason('auto', kernel),
    rates: calibration?.rates ?? {},
    threads,
    hashRate,
    expected: {
      difficulty,
      meanMs: estimate?.meanMs ?? Infinity,
      medianMs: estimate?.medianMs ?? Infinity,
      p95Ms: estimate?.p95Ms ?? Infinity,
      basis: estimateBasis(perThread, measureMs, threads, kernel),
    },
    elapsedMs: performance.now() - began,
  };
}

const withCause = (cause: string | undefined) => (cause ? { cause } : {});

/** What `expected` rests on, in words: an estimate, from what was measured, at this moment's load. */
export function estimateBasis(perThread: number, measureMs: number, threads: number, kernel: string): string {
  if (!(perThread > 0)) return `no estimate: nothing was measured (measureMs ${measureMs})`;
  const rate = perThread >= 1e6 ? `${(perThread / 1e6).toFixed(2)} MH/s` : `${(perThread / 1e3).toFixed(1)} kH/s`;
  return `an estimate: kernel '${kernel}' measured at ${rate} on this thread over ${measureMs} ms, times ${threads} thread${threads === 1 ? '' : 's'}, under the machine's load at that moment; a busier machine, or one whose threads share cores, takes longer`;
}
