// The WASM instance that src/hash.ts uses for SHA-256 once a caller has loaded
// it. Loading is explicit (enableWasmHashes) so that importing the library never
// compiles anything; until then, and wherever WebAssembly is missing, the hashes stay
// on @noble/hashes. Measured on the dev machine (Node 20): WASM SHA-256 is 3.0x
// @noble/hashes at 33 bytes, 2.5x at 120-250 bytes (a BSig digest), 1.4x at 10 kB.

import { loadWasm, loadWasmSync, wasmUsable, type WasmModule } from './kernel.js';

let loaded: WasmModule | undefined;

/** The loaded instance, or undefined while hashing stays in JS. */
export function wasmHashes(): WasmModule | undefined {
  return loaded;
}

/** Loads the scalar binary (it has the same SHA-256 as the SIMD one) for hash.ts. Returns false where WebAssembly is missing or refused. */
export async function enableWasmHashes(): Promise<boolean> {
  if (!wasmUsable()) return false;
  loaded ??= await loadWasm('scalar');
  return true;
}

/** Synchronous enableWasmHashes, for Node and workers. */
export function enableWasmHashesSync(): boolean {
  if (!wasmUsable()) return false;
  loaded ??= loadWasmSync('scalar');
  return true;
}

/** Back to @noble/hashes. */
export function disableWasmHashes(): void {
  loaded = undefined;
}
