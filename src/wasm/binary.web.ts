// Where the kernels' WASM binaries come from in the browser build: each entry says so when
// it loads. tpkit.js (export "./browser/lean") fetches the .wasm files beside itself;
// tpkit-inline.js (export "./browser") compiles the copies it carries as base64; the miner
// worker fetches beside its own script only when the page handed it no compiled module.
// scripts/build-browser.mjs puts this file in place of binary.ts, so this shared code holds
// no binary and no import.meta.url: a bundler has nothing here to copy or rewrite.

import { TpkitError } from '../errors.js';
import type { WasmFlavor } from './flavor.js';

export const WASM_DELIVERY: 'embedded' | 'fetched' = 'fetched';

/** How an entry gets a compiled binary. */
export type KernelSource = (flavor: WasmFlavor) => Promise<WebAssembly.Module>;

let source: KernelSource | undefined;

/** Sets where the kernels come from (each browser entry calls it once as it loads; a page may call it again). */
export function setKernelSource(next: KernelSource): void {
  source = next;
}

export function compileBinary(flavor: WasmFlavor): Promise<WebAssembly.Module> {
  if (!source) {
    return Promise.reject(new TpkitError('WASM_UNAVAILABLE', 'WebAssembly could not be instantiated', { details: `${flavor}: no kernel source (setKernelSource)` }));
  }
  return source(flavor);
}

export function compileBinarySync(flavor: WasmFlavor): WebAssembly.Module {
  throw new TpkitError('WASM_UNAVAILABLE', 'WebAssembly could not be instantiated', {
    details: `${flavor}: the browser build compiles asynchronously (loadKernel, loadWasm)`,
  });
}
