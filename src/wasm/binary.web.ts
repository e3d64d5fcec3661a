// Where the kernels' WASM binaries come from in the browser bundle: the .wasm files beside
// it (dist/browser/tpkit-scalar.wasm, tpkit-simd.wasm), compiled while they download
// (WebAssembly.compileStreaming) where the server labels them application/wasm. The bundle
// and the miner worker carry no WASM; scripts/build-browser.mjs puts this file in place of
// binary.ts.

import { TpkitError } from '../errors.js';
import type { WasmFlavor } from './flavor.js';

export const WASM_DELIVERY: 'embedded' | 'fetched' = 'fetched';

/** The binary's URL: beside this bundle (or worker script), whichever folder serves it. */
export const binaryUrl = (flavor: WasmFlavor): URL => new URL(`./tpkit-${flavor}.wasm`, import.meta.url);

export async function compileBinary(flavor: WasmFlavor): Promise<WebAssembly.Module> {
  const url = binaryUrl(flavor);
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  const streaming = typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type')?.split(';')[0].trim() === 'application/wasm';
  return streaming ? WebAssembly.compileStreaming(response) : WebAssembly.compile(await response.arrayBuffer());
}

export function compileBinarySync(flavor: WasmFlavor): WebAssembly.Module {
  throw new TpkitError('WASM_UNAVAILABLE', 'WebAssembly could not be instantiated', {
    details: `the browser build fetches the ${flavor} binary: load it asynchronously first (loadKernel, loadWasm)`,
  });
}
