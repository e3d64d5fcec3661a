// tpkit for browsers, the lean entry (package export "./browser/lean", bundled to
// dist/browser/tpkit.js): the same codec, crypto, miner and client as the Node entry, with
// the miner's default pool made of Web Workers, one per logical core. The worker script and
// the kernels are files beside this one (pool.web.ts, binary.web.ts); the self-contained
// entry (browser-inline.ts) imports this one and replaces both. No Node built-ins reach this
// bundle.

import { setDefaultMinerPool } from './pow/default-pool.js';
import { sharedWebMinerPool } from './pow/pool.web.js';

export * from './core.js';
export { createWebMinerPool, setMinerWorkerUrl, sharedWebMinerPool, type WarmUp, type WebMinerPool, type WebMinerPoolOptions } from './pow/pool.web.js';
export { adoptWasmModules, simdSupported } from './wasm/kernel.js';
export { setKernelSource } from './wasm/binary.web.js';
export type { KernelSource } from './wasm/kernel-files.js';

setDefaultMinerPool(sharedWebMinerPool);
