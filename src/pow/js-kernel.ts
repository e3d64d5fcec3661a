// How kernel.ts gets the JS kernel (kernel-js.ts with sha512-nonce.ts): here (Node,
// bundlers) by static imports, so the sync createKernel('js') works at once, and with
// node:crypto instead where a Node-only module asked for it (useNativeHashing). The browser
// bundle swaps in js-kernel.web.ts, which loads both as a chunk on first need: the JS
// kernel runs only where WebAssembly is refused or missing, and most pages never need it.

import { ArgumentError } from '../errors.js';
import { createJsKernel, type NonceHashing } from './kernel-js.js';
import type { MiningKernel } from './kernel-types.js';
import { NonceHasher } from './sha512-nonce.js';

let native: ((body: Uint8Array) => NonceHashing) | undefined;

/** Native hashing for the JS kernels made from now on in this thread (Node's node:crypto, native-sha512.ts). */
export function useNativeHashing(make: (body: Uint8Array) => NonceHashing): void {
  native = make;
}

const portable = (body: Uint8Array): NonceHashing => new NonceHasher(body);

/** A fresh JS kernel, synchronously. */
export const makeJsKernel = (): MiningKernel => createJsKernel(native ?? portable, ArgumentError);

/** A fresh JS kernel, loading its code first where it is not loaded yet. */
export const loadJsKernel = async (): Promise<MiningKernel> => makeJsKernel();
