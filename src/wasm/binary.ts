// Where the kernels' WASM binaries come from in Node and in bundlers: embedded as base64 in
// *.generated.ts (scripts/build-wasm.mjs), so `tpkit` is one file set that needs no fs,
// fetch or asset configuration. The browser bundle (scripts/build-browser.mjs) swaps this
// file for binary.web.ts, which fetches the .wasm files that sit beside the bundle.

import { base64ToBytes } from '../bytes.js';
import { SCALAR_WASM_BASE64 } from './scalar.generated.js';
import { SIMD_WASM_BASE64 } from './simd.generated.js';
import type { WasmFlavor } from './flavor.js';

/** How this build delivers the binaries: 'embedded' (base64 inside the JS) or 'fetched' (.wasm files). */
export const WASM_DELIVERY: 'embedded' | 'fetched' = 'embedded';

const bytesCache: Partial<Record<WasmFlavor, Uint8Array<ArrayBuffer>>> = {};

/**
 * Node's native base64 decoder where there is one: the first proof waits on this decode, and
 * our checked decoder, still in V8's interpreter then, takes 5 ms over the 170 KB of text.
 * The text is our own build output, so nothing is lost by not checking it again.
 */
const nativeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: 'base64'): Uint8Array<ArrayBuffer> } }).Buffer;
const decode = (text: string): Uint8Array<ArrayBuffer> => (nativeBuffer ? nativeBuffer.from(text, 'base64') : (base64ToBytes(text) as Uint8Array<ArrayBuffer>));

function wasmBytes(flavor: WasmFlavor): Uint8Array<ArrayBuffer> {
  let bytes = bytesCache[flavor];
  if (!bytes) {
    bytes = decode(flavor === 'simd' ? SIMD_WASM_BASE64 : SCALAR_WASM_BASE64);
    bytesCache[flavor] = bytes;
  }
  return bytes;
}

/** Compiles a flavor's binary off the calling thread where the engine can. */
export function compileBinary(flavor: WasmFlavor): Promise<WebAssembly.Module> {
  return WebAssembly.compile(wasmBytes(flavor));
}

/** Compiles a flavor's binary on the calling thread. */
export function compileBinarySync(flavor: WasmFlavor): WebAssembly.Module {
  return new WebAssembly.Module(wasmBytes(flavor));
}
