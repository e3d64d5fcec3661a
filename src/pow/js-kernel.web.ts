// The browser bundle's twin of js-kernel.ts (scripts/build-browser.mjs swaps it in): the JS
// kernel (kernel-js.ts and sha512-nonce.ts, which import no code, so they stay a chunk of
// their own) is loaded on first need, since a page whose WebAssembly runs never needs it.
// loadKernel('js') loads it; the sync createKernel('js') works once it is loaded.

import { ArgumentError, TpkitError } from '../errors.js';
import type { MiningKernel } from './kernel-types.js';

let make: (() => MiningKernel) | undefined;

/** A fresh JS kernel, synchronously: only after loadJsKernel() (loadKernel('js')) has run once. */
export function makeJsKernel(): MiningKernel {
  if (!make) throw new TpkitError('WASM_UNAVAILABLE', 'The JS kernel is not loaded yet', { details: "await loadKernel('js') first" });
  return make();
}

/** A fresh JS kernel, fetching its chunk the first time. */
export async function loadJsKernel(): Promise<MiningKernel> {
  if (!make) {
    const [{ createJsKernel }, { NonceHasher }] = await Promise.all([import('./kernel-js.js'), import('./sha512-nonce.js')]);
    make = () => createJsKernel((body) => new NonceHasher(body), ArgumentError);
  }
  return make();
}
