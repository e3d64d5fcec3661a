// Where the kernels' WASM binaries come from in the browser build: by default the .wasm files
// beside the script this is bundled into (tpkit.js, export "./browser/lean"; the miner worker,
// which fetches only when the page handed it no compiled module), found with literal
// new URL('./…', import.meta.url), the form webpack 5, Vite's build and Parcel copy as
// assets. tpkit-inline.js (export "./browser") sets the copies it carries as base64 instead.
// scripts/build-browser.mjs puts this file in place of binary.ts.

import { TpkitError } from '../errors.js';
import type { WasmFlavor } from './flavor.js';
import { kernelFiles, type KernelSource } from './kernel-files.js';

export const WASM_DELIVERY: 'embedded' | 'fetched' = 'fetched';

let source: KernelSource = kernelFiles({
  scalar: () => new URL('./tpkit-scalar.wasm', import.meta.url),
  simd: () => new URL('./tpkit-simd.wasm', import.meta.url),
});

/** Sets where the kernels come from (the self-contained entry as it loads; a page may call it too). */
export function setKernelSource(next: KernelSource): void {
  source = next;
}

export function compileBinary(flavor: WasmFlavor): Promise<WebAssembly.Module> {
  return source(flavor);
}

export function compileBinarySync(flavor: WasmFlavor): WebAssembly.Module {
  throw new TpkitError('WASM_UNAVAILABLE', `${flavor}: use loadKernel`);
}
