// tpkit for browsers, the lean entry (package export "./browser/lean", bundled to
// dist/browser/tpkit.js): the same codec, crypto, miner and client as the Node entry, with
// the miner's default pool made of Web Workers, one per logical core. The worker script and
// the kernels are files beside this one, found from its own URL with literal
// new URL('./…', import.meta.url), the form webpack 5, Vite's build and Parcel copy as
// assets. The self-contained entry (browser-inline.ts) imports this one and replaces both.
// No Node built-ins reach this bundle.

import { setDefaultMinerPool } from './pow/default-pool.js';
import { setMinerWorkerUrl, sharedWebMinerPool } from './pow/pool.web.js';
import { setKernelSource } from './wasm/binary.web.js';
import { kernelFiles } from './wasm/kernel-files.js';

export * from './core.js';
export {
  createWebMinerPool, setMinerWorkerUrl, sharedWebMinerPool, type WarmUp, type WebMinerPool, type WebMinerPoolOptions,
} from './pow/pool.web.js';
export { adoptWasmModules, simdSupported } from './wasm/kernel.js';
export { setKernelSource, type KernelSource } from './wasm/binary.web.js';
export { kernelFiles, type KernelUrls } from './wasm/kernel-files.js';

setDefaultMinerPool(sharedWebMinerPool);
setMinerWorkerUrl(() => new URL('./miner-worker.js', import.meta.url));
setKernelSource(
  kernelFiles({
    scalar: () => new URL('./tpkit-scalar.wasm', import.meta.url),
    simd: () => new URL('./tpkit-simd.wasm', import.meta.url),
  }),
);
