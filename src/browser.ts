// tpkit for browsers (package export "./browser", bundled to dist/browser/tpkit.js): the
// same codec, crypto, miner and client as the Node entry, with the miner's default pool
// made of Web Workers, one per logical core. No Node built-ins reach this bundle.

import { setDefaultMinerPool } from './pow/default-pool.js';
import { sharedWebMinerPool } from './pow/pool.web.js';

export * from './core.js';
export { createWebMinerPool, sharedWebMinerPool, type WarmUp, type WebMinerPool, type WebMinerPoolOptions } from './pow/pool.web.js';
export { adoptWasmModules, simdSupported } from './wasm/kernel.js';

setDefaultMinerPool(sharedWebMinerPool);
