// The browser build's default kernels: .wasm files at URLs the entry computes beside itself,
// fetched and compiled by asset-load.ts (loaded on first use), whose errors name the file,
// the URL tried, what answered and the fix.

import { TpkitError } from '../errors.js';
import type { WasmFlavor } from './flavor.js';

/** How the browser build gets a compiled binary (setKernelSource). */
export type KernelSource = (flavor: WasmFlavor) => Promise<WebAssembly.Module>;

/** Where each flavor's file is; called only when the kernel is first needed. */
export type KernelUrls = Record<WasmFlavor, () => URL>;

/** A kernel source that fetches and compiles the files at `urls`. */
export function kernelFiles(urls: KernelUrls): KernelSource {
  // A blob: worker's script has no folder: new URL() throws, and kernel.ts reports it as WASM_UNAVAILABLE;
  // on a file:// page (a classic-script bundle, no import.meta.url) asset-load.ts names the page's origin instead.
  return async (flavor) => {
    const { compileFile, assetError } = await import('./asset-load.js');
    const asset = `tpkit-${flavor}.wasm` as const;
    let url: string;
    try {
      url = urls[flavor]().href;
    } catch (err) {
      if (globalThis.location?.protocol === 'file:') throw assetError(TpkitError, asset, '(no URL)', String(err), err);
      throw err;
    }
    return compileFile(TpkitError, asset, url);
  };
}
