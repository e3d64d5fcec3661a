// What every mining kernel is, apart from any one of them: the WASM kernels (kernel.ts)
// and the pure-JS one (kernel-js.ts) both implement it.

/**
 * 'hybrid': SIMD binary, scalar rounds with the message schedule in i64x2 lanes (the
 * fastest in V8 and SpiderMonkey); 'simd': SIMD binary, two nonces per compression in
 * i64x2 lanes; 'scalar': the binary for engines without SIMD; 'memsched': scalar binary, the
 * scalar rounds with the message schedule in memory (the fastest in Bun's JavaScriptCore,
 * on a par with 'scalar' and 'hybrid' in WebKitGTK's);
 * 'js': no WebAssembly.
 */
export type KernelName = 'hybrid' | 'simd' | 'scalar' | 'memsched' | 'js';
export const KERNEL_NAMES: readonly KernelName[] = ['hybrid', 'simd', 'scalar', 'memsched', 'js'];

export interface MiningKernel {
  readonly name: KernelName;
  /** Nonces hashed per compression (2 for SIMD): range sizes should be multiples. */
  readonly lanes: number;
  /** Stores the body; its last 8 bytes are the big-endian nonce that search patches. */
  init(body: Uint8Array): void;
  /** Offset in [0, count) of the first nonce start + offset that qualifies, or -1. */
  search(start: bigint, count: number, difficulty: number): number;
}
