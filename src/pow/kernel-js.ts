// The pure-JS mining kernel, for engines without WebAssembly: same contract as the WASM
// ones (kernel.ts). It hashes the whole body per nonce with @noble/hashes, so it is
// about a tenth of their speed; its value is that it is obviously right. Node's pool
// (pool.node.ts, and its threads) hands it node:crypto's SHA-512 instead (useNativeSha512):
// native code that --jitless does not slow, about 17 times @noble/hashes there, which is
// where a JS kernel runs in Node (WebAssembly is absent under --jitless).

import { sha512 } from '@noble/hashes/sha2.js';
import { ArgumentError } from '../errors.js';
import { leadingZeroBits } from './bits.js';
import type { MiningKernel } from './kernel-types.js';

const U64_MAX = (1n << 64n) - 1n;

let nativeSha512: ((data: Uint8Array) => Uint8Array) | undefined;

/** A native SHA-512 for the kernels made from now on in this thread (Node's node:crypto). */
export function useNativeSha512(hash: (data: Uint8Array) => Uint8Array): void {
  nativeSha512 = hash;
}

export function createJsKernel(): MiningKernel {
  let body: Uint8Array | undefined;
  let view: DataView | undefined;
  const hash = nativeSha512 ?? sha512;
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
      const at = body.length - 8;
      // The high half changes once per 2^32 nonces; the low half is a plain uint32.
      let high = Number(start >> 32n);
      let low = Number(start & 0xffffffffn);
      view.setUint32(at, high);
      for (let i = 0; i < count; i++) {
        view.setUint32(at + 4, low);
        if (leadingZeroBits(hash(body)) >= difficulty) return i;
        if (++low === 0x100000000) {
          low = 0;
          view.setUint32(at, ++high);
        }
      }
      return -1;
    },
  };
}
