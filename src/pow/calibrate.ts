// How fast this device mines, and with which kernel, measured in well under a second so a
// wallet can show the expected registration time (estimate.ts) before it starts. Every
// WASM kernel runs here in alternating slices of a few milliseconds on a sample register
// body, yielding to the event loop in between. Which kernel wins depends on the engine and
// the CPU (on the Zen 5 dev machine under Node 20: hybrid 8.8 MH/s, scalar 6.9, two-lane
// SIMD 4.9, see scripts/gen-kernels.mjs); mining with kernel 'auto' does not rely on this
// one measurement but keeps re-measuring in every worker (search-task.ts).

import { ArgumentError } from '../errors.js';
import { availableKernels, loadKernel, type KernelName, type MiningKernel } from './kernel.js';

export interface Calibration {
  /** The fastest kernel here. */
  kernel: KernelName;
  /** Its hashes per second on one thread. */
  hashRate: number;
  /** Hashes per second of every kernel tried (median over the measuring rounds). */
  rates: Partial<Record<KernelName, number>>;
  elapsedMs: number;
}

export interface CalibrateOptions {
  /** Total measuring time (default 400 ms, at most 1000). */
  durationMs?: number;
  /** Kernels to try (default: every WASM kernel this engine runs, else 'js'). */
  kernels?: KernelName[];
}

/** A register body's size with one key and no extra data: one SHA-512 block. */
const SAMPLE_BODY_LENGTH = 66;

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function calibrate(options: CalibrateOptions = {}): Promise<Calibration> {
  const durationMs = options.durationMs ?? 400;
  if (typeof durationMs !== 'number' || !(durationMs > 0) || durationMs > 1000) {
    throw new ArgumentError(`"durationMs" expected a number in (0, 1000], got ${String(durationMs)}`);
  }
  let names = options.kernels ?? availableKernels().filter((n) => n !== 'js');
  if (names.length === 0) names = ['js'];
  const began = performance.now();
  const kernels: MiningKernel[] = [];
  const body = new Uint8Array(SAMPLE_BODY_LENGTH).map((_, i) => (i * 151 + 7) & 0xff);
  for (const name of names) {
    const kernel = await loadKernel(name);
    kernel.init(body);
    kernels.push(kernel);
  }
  // rates[i][r]: kernel i's hashes per second in round r; one round runs every kernel once,
  // back to back, so a round's kernels share whatever else the core was doing.
  const rates: number[][] = kernels.map(() => []);
  const slice = kernels.map((k) => 256 * k.lanes);
  const nonce = kernels.map(() => 0n);
  const sliceMs = 4;
  // The window starts once the kernels are loaded (compiling can outlast it on a busy
  // machine), and holds two rounds at least: a calibration always measures something.
  const measuring = performance.now();
  while (rates[0].length < 2 || performance.now() - measuring < durationMs) {
    for (let i = 0; i < kernels.length; i++) {
      const t0 = performance.now();
      // Difficulty 64 qualifies with probability 2^-64: every nonce is hashed.
      kernels[i].search(nonce[i], slice[i], 64);
      const took = Math.max(performance.now() - t0, 0.001);
      nonce[i] += BigInt(slice[i]);
      rates[i].push((slice[i] / took) * 1000);
      const next = (slice[i] * sliceMs) / took;
      slice[i] = Math.max(kernels[i].lanes, Math.round(Math.min(next, slice[i] * 4) / kernels[i].lanes) * kernels[i].lanes);
    }
    await yieldToEventLoop();
  }
  // Only the second half counts (the engine has optimised the kernels by then). The
  // winner has the best median ratio to the first kernel over paired rounds, robust to
  // another process taking the core for a while; a rate is the median round, the
  // figure to expect rather than the best moment.
  const rounds = rates[0].length;
  const from = Math.floor(rounds / 2);
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
  };
  const score = kernels.map((_, i) => median(rates[i].slice(from).map((r, j) => r / rates[0][from + j])));
  let winner = 0;
  score.forEach((value, i) => {
    if (value > score[winner]) winner = i;
  });
  const typical: Partial<Record<KernelName, number>> = {};
  kernels.forEach((k, i) => {
    typical[k.name] = median(rates[i].slice(from));
  });
  const name = kernels[winner].name;
  return { kernel: name, hashRate: typical[name] ?? 0, rates: typical, elapsedMs: performance.now() - began };
}
