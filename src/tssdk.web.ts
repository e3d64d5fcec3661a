// tpkit/tssdk in browsers (bundled to dist/src/tssdk-browser.js, the export's "browser"
// condition): the same drop-in, mining in Web Workers. Self-contained like tpkit/browser: the
// worker starts from a blob: URL of its bundled text and the kernels compile from base64, so a
// wallet's bundler (Vite, webpack) needs no asset rule. The page's Content-Security-Policy, if
// any, needs worker-src blob: and script-src 'wasm-unsafe-eval'.

import { TpkitError } from './errors.js';
import { setDefaultMinerPool } from './pow/default-pool.js';
import { setMinerWorkerUrl, sharedWebMinerPool } from './pow/pool.web.js';
import { setKernelSource } from './wasm/binary.web.js';
import { embeddedKernels } from './wasm/kernel-embedded.js';

export * from './tssdk.js';
export { createWebMinerPool, sharedWebMinerPool } from './pow/pool.web.js';

/** The miner worker's bundled script, put here by scripts/build-tssdk.mjs. */
declare const TPKIT_MINER_WORKER_SOURCE: string;

let workerUrl: string | undefined;

function inlineWorkerUrl(): string {
  if (typeof TPKIT_MINER_WORKER_SOURCE !== 'string') {
    throw new TpkitError('WASM_UNAVAILABLE', 'Miner worker failed', { details: 'the miner worker script is only inside the browser build (dist/src/tssdk-browser.js)' });
  }
  workerUrl ??= URL.createObjectURL(new Blob([TPKIT_MINER_WORKER_SOURCE], { type: 'text/javascript' }));
  return workerUrl;
}

setMinerWorkerUrl(inlineWorkerUrl);
setKernelSource(embeddedKernels);
setDefaultMinerPool(sharedWebMinerPool);
