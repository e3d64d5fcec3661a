// One WASM kernel's hash rate on one thread, through the binaries' numbers-only ABI alone: no
// import, so Node, Bun and a browser's Web Worker run this very file (bench/jsc-kernels.ts).

export type ProbeKernel = 'hybrid' | 'simd' | 'scalar' | 'memsched';
export const PROBE_KERNELS: readonly ProbeKernel[] = ['hybrid', 'simd', 'scalar', 'memsched'];

interface MinerExports {
  memory: WebAssembly.Memory;
  inputPointer(): number;
  mineInit(length: number): number;
  mineLanes(lanes: number): number;
  mineMemSchedule(on: number): number;
  mineSearch(high: number, low: number, count: number, difficulty: number): number;
}

export interface ProbeResult {
  /** Hashes per second over the measured window. */
  rate: number;
  /** Milliseconds the window began after the agreed instant (the engine was late to start). */
  lateMs: number;
}

const SLICE = 8192;

/**
 * Warms `kernel` up for `warmMs`, waits for the wall-clock instant `at` (Date.now()), then
 * hashes for `ms` a one-block register body at a difficulty never met (every nonce hashed).
 */
export async function probeRate(binaries: { scalar: BufferSource; simd: BufferSource }, kernel: ProbeKernel, at: number, ms: number, warmMs = 400): Promise<ProbeResult> {
  const bytes = kernel === 'scalar' || kernel === 'memsched' ? binaries.scalar : binaries.simd;
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const x = instance.exports as unknown as MinerExports;
  new Uint8Array(x.memory.buffer).set(
    Array.from({ length: 66 }, (_, i) => (i * 151 + 7) & 0xff),
    x.inputPointer(),
  );
  x.mineInit(66);
  if (kernel === 'memsched' && x.mineMemSchedule(1) !== 1) throw new Error('no memsched kernel in the scalar binary');
  if (kernel === 'simd' && x.mineLanes(2) !== 2) throw new Error('no two-lane kernel in the SIMD binary');
  let low = 0;
  for (const began = performance.now(); performance.now() - began < warmMs; low += SLICE) x.mineSearch(0, low, SLICE, 64);
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 1));
  const lateMs = Date.now() - at;
  let hashes = 0;
  const began = performance.now();
  for (low = 0; performance.now() - began < ms; low += SLICE, hashes += SLICE) x.mineSearch(1, low, SLICE, 64);
  return { rate: (hashes / (performance.now() - began)) * 1000, lateMs };
}
