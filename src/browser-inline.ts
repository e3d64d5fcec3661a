// tpkit for browsers, the self-contained entry (package export "./browser", bundled to
// dist/browser/tpkit-inline.js): the lean entry (tpkit.js, imported as it is, so a page
// that also loads tpkit/browser/keys shares its classes) with the miner worker and both
// kernels inside. The worker starts from a blob: URL of the script text the build put in
// TPKIT_MINER_WORKER_SOURCE, the kernels compile from base64: nothing is fetched, so any
// bundler builds it with no plugin, no asset rule and no copied file. The page's
// Content-Security-Policy, if any, needs worker-src blob: and script-src 'wasm-unsafe-eval'.

import { setKernelSource, setMinerWorkerUrl, TpkitError } from './browser.js';
import { embeddedKernels } from './wasm/kernel-embedded.js';

export * from './browser.js';

/** The miner worker's bundled script, put here by scripts/build-browser.mjs. */
declare const TPKIT_MINER_WORKER_SOURCE: string;

let workerUrl: string | undefined;

/** One blob: URL for the page's workers, made when the first pool starts. */
function inlineWorkerUrl(): string {
  if (typeof TPKIT_MINER_WORKER_SOURCE !== 'string') {
    throw new TpkitError('WASM_UNAVAILABLE', 'Miner worker failed', { details: 'the miner worker script is only inside the browser build (dist/browser/tpkit-inline.js)' });
  }
  workerUrl ??= URL.createObjectURL(new Blob([TPKIT_MINER_WORKER_SOURCE], { type: 'text/javascript' }));
  return workerUrl;
}

setMinerWorkerUrl(inlineWorkerUrl);
setKernelSource(embeddedKernels);
