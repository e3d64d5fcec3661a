// The self-contained browser entry's kernels: the binaries carried as base64 (the same
// *.generated.ts text the Node entry embeds), decoded by the browser's atob and compiled
// asynchronously on first use. Nothing is fetched, so no bundler has a file to copy.

import type { KernelSource } from './kernel-files.js';
import { SCALAR_WASM_BASE64 } from './scalar.generated.js';
import { SIMD_WASM_BASE64 } from './simd.generated.js';

function decode(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const embeddedKernels: KernelSource = (flavor) => WebAssembly.compile(decode(flavor === 'simd' ? SIMD_WASM_BASE64 : SCALAR_WASM_BASE64));
