// A mining kernel searches a range of nonces of one register body, in increasing order,
// for the first whose SHA-512 has at least `difficulty` leading zero bits (R2, R3). The
// WASM binaries and the pure-JS fallback give the same answer for the same range.

import { ArgumentError } from '../errors.js';
import { loadWasm, loadWasmSync, simdSupported, wasmUsable, type WasmFlavor, type WasmModule } from '../wasm/kernel.js';
import { isJavaScriptCore } from './engine.js';
import { loadJsKernel, makeJsKernel } from './js-kernel.js';
import { KERNEL_NAMES, type KernelName, type MiningKernel } from './kernel-types.js';

export { KERNEL_NAMES, type KernelName, type MiningKernel } from './kernel-types.js';

let simdDistrusted = false;

/**
 * Leaves the SIMD binary's kernels out of availableKernels() in this thread: they failed a
 * known-answer check (support.ts). The search tasks this thread hands out say so from then
 * on (SearchTask.distrustSimd), so a pool's threads leave them out too.
 */
export function distrustSimd(): void {
  simdDistrusted = true;
}

/** True once distrustSimd() was called in this thread (or a task told it so). */
export const simdIsDistrusted = (): boolean => simdDistrusted;

/** Kernels this thread can run, the usually fastest first ('auto' measures and keeps the fastest); 'js' alone where WebAssembly is missing or refused. */
export function availableKernels(): KernelName[] {
  const names: KernelName[] = [];
  if (wasmUsable()) {
    const simd: KernelName[] = simdSupported() && !simdDistrusted ? ['hybrid', 'simd'] : [];
    // JavaScriptCore runs the scalar kernel fastest (engine.ts): 'auto' starts with it there.
    names.push(...(isJavaScriptCore() ? ['scalar' as const, ...simd] : [...simd, 'scalar' as const]));
  }
  names.push('js');
  return names;
}

/** The binary a WASM kernel runs from. */
export const kernelFlavor = (name: Exclude<KernelName, 'js'>): WasmFlavor => (name === 'scalar' ? 'scalar' : 'simd');
const flavorOf = kernelFlavor;

function fromWasm(name: KernelName, module: WasmModule): MiningKernel {
  if (name === 'simd') module.useLanes(2);
  return {
    name,
    lanes: module.lanes,
    init: (body) => module.mineInit(body),
    search: (start, count, difficulty) => module.mineSearch(start, count, difficulty),
  };
}

/** A kernel choice checked against this engine: a name it runs, or 'auto'. */
export function checkKernelChoice(kernel: KernelName | 'auto' = 'auto'): KernelName | 'auto' {
  if (kernel !== 'auto' && !availableKernels().includes(kernel)) {
    throw new ArgumentError(`"kernel" expected one of ${availableKernels().join(', ')} or 'auto', got ${String(kernel)}`);
  }
  return kernel;
}

function checkName(name: KernelName): void {
  if (!KERNEL_NAMES.includes(name)) {
    throw new ArgumentError(`"kernel" expected one of ${KERNEL_NAMES.join(', ')}, got ${String(name)}`);
  }
}

/** A fresh kernel instance, compiled synchronously (Node, workers). */
export function createKernel(name: KernelName): MiningKernel {
  checkName(name);
  return name === 'js' ? makeJsKernel() : fromWasm(name, loadWasmSync(flavorOf(name)));
}

/** A fresh kernel instance, compiled asynchronously (any thread, including a browser's main one). */
export async function loadKernel(name: KernelName): Promise<MiningKernel> {
  checkName(name);
  return name === 'js' ? loadJsKernel() : fromWasm(name, await loadWasm(flavorOf(name)));
}

const rangeKernels = new Map<KernelName, MiningKernel>();

/**
 * One thread, synchronous: the first nonce in start .. start + count - 1 for which
 * SHA-512(body with that nonce in its last 8 bytes) has at least `difficulty` leading
 * zero bits, or null. Kernel instances are reused between calls.
 */
export function mineRange(body: Uint8Array, start: bigint, count: number, difficulty: number, kernel: KernelName = availableKernels()[0]): bigint | null {
  checkName(kernel);
  let instance = rangeKernels.get(kernel);
  if (!instance) {
    instance = createKernel(kernel);
    rangeKernels.set(kernel, instance);
  }
  instance.init(body);
  const offset = instance.search(start, count, difficulty);
  return offset < 0 ? null : start + BigInt(offset);
}
