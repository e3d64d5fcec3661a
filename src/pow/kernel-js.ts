// The pure-JS mining kernel, for engines without WebAssembly (or a page whose CSP refuses
// it): same contract as the WASM ones (kernel.ts). It hashes with sha512-nonce.ts, which
// keeps the body's padded blocks and precomputed rounds between nonces and allocates
// nothing per nonce (bench/js-kernel.ts compares it with hashing the whole body per nonce
// with @noble/hashes, as this kernel did before). Node's pool (pool.node.ts, and its
// threads) hands it node:crypto's SHA-512 instead (useNativeSha512): native code that
// --jitless does not slow, which is where a JS kernel runs in Node (WebAssembly is absent
// under --jitless).

import { ArgumentError } from '../errors.js';
import { leadingZeroBits } from './bits.js';
import type { MiningKernel } from './kernel-types.js';
import { NonceHasher } from './sha512-nonce.js';

const U64_MAX = (1n << 64n) - 1n;

let nativeSha512: ((data: Uint8Array) => Uint8Array) | undefined;

/** A native SHA-512 for the kernels made from now on in this thread (Node's node:crypto). */
export function useNativeSha512(hash: (data: Uint8Array) => Uint8Array): void {
  nativeSha512 = hash;
}

export function createJsKernel(): MiningKernel {
  let body: Uint8Array | undefined;
  let view: DataView | undefined;
  let hasher: NonceHasher | undefined;
  const hash = nativeSha512;
  return {
    name: 'js',
    lanes: 1,
    init(data: Uint8Array): void {
      if (!(data instanceof Uint8Array) || data.length < 8) {
        const got = data instanceof Uint8Array ? `${data.length} bytes` : typeof data;
        throw new ArgumentError(`"body" expected at least 8 bytes, got ${got}`);
      }
      body = data.slice();
      view = new DataView(body.buffer);
      hasher = hash ? undefined : new NonceHasher(body);
    },
    search(start: bigint, count: number, difficulty: number): number {
      if (!body || !view) throw new ArgumentError('search called before init');
      if (!Number.isInteger(count) || count < 0 || count > 0x7fffffff) {
        throw new ArgumentError(`"count" expected an integer 0..2147483647, got ${count}`);
      }
      if (typeof start !== 'bigint' || start < 0n || start + BigInt(count) > U64_MAX) {
        throw new ArgumentError(`"start" expected a uint64 with start + count < 2^64, got ${String(start)}`);
      }
      if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 512) {
        throw new ArgumentError(`"difficulty" expected an integer 0..512, got ${difficulty}`);
      }
      // The high half changes once per 2^32 nonces; the low half is a plain uint32.
      let high = Number(start >> 32n);
      let low = Number(start & 0xffffffffn);
      if (hasher) {
        for (let i = 0; i < count; i++) {
          if (hasher.zeroBits(high, low, difficulty) >= difficulty) return i;
          if (++low === 0x100000000) {
            low = 0;
            high++;
          }
        }
        return -1;
      }
      const at = body.length - 8;
      view.setUint32(at, high);
      for (let i = 0; i < count; i++) {
        view.setUint32(at + 4, low);
        if (leadingZeroBits(hash!(body)) >= difficulty) return i;
        if (++low === 0x100000000) {
          low = 0;
          view.setUint32(at, ++high);
        }
      }
      return -1;
    },
  };
}
