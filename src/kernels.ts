// tpkit/kernels: the WASM kernels inside JavaScript (base64, as the Node entry holds them),
// for a page or bundler that cannot serve the .wasm files that tpkit/browser fetches from
// beside itself. Compile them here and hand the modules to the browser build once:
//
//   import { adoptWasmModules } from 'tpkit/browser';
//   import { compileEmbeddedKernels } from 'tpkit/kernels';
//   adoptWasmModules(await compileEmbeddedKernels());  // the page and its workers fetch no .wasm
//
// The price is the binaries in your bundle: about 31 KB gzip of base64 against 20 KB for the
// two .wasm files.

import { compileBinary } from './wasm/binary.js';
import type { WasmFlavor } from './wasm/flavor.js';
import { probeSimd } from './wasm/simd-probe.js';

/** The kernels this engine runs, compiled from the embedded binaries: scalar always, SIMD where the engine has it. */
export async function compileEmbeddedKernels(): Promise<Partial<Record<WasmFlavor, WebAssembly.Module>>> {
  const [scalar, simd] = await Promise.all([compileBinary('scalar'), probeSimd() ? compileBinary('simd') : undefined]);
  return simd ? { scalar, simd } : { scalar };
}
