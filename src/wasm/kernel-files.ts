// The lean browser entry's kernels: .wasm files fetched from URLs the entry computes beside
// itself, compiled while they download (WebAssembly.compileStreaming) where the server
// labels them application/wasm. A failure names the file, the URL tried, what answered, and
// the fix (asset-failure.ts).

import { fetchAsset } from './asset-failure.js';
import type { KernelSource } from './binary.web.js';
import type { WasmFlavor } from './flavor.js';

/** Where each flavor's file is; called only when the kernel is first needed. */
export type KernelUrls = Record<WasmFlavor, () => URL>;

/** A kernel source that fetches and compiles the files at `urls`. */
export function kernelFiles(urls: KernelUrls): KernelSource {
  return async (flavor) => {
    const asset = flavor === 'simd' ? 'tpkit-simd.wasm' : 'tpkit-scalar.wasm';
    // A blob: worker's script has no folder: new URL() throws, and kernel.ts reports it as WASM_UNAVAILABLE.
    const url = urls[flavor]().href;
    const response = await fetchAsset(asset, url);
    const streaming = typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type')?.startsWith('application/wasm');
    return streaming ? WebAssembly.compileStreaming(response) : WebAssembly.compile(await response.arrayBuffer());
  };
}
