// The pure-JS mining kernel, for engines without WebAssembly (or a page whose CSP refuses
// it): same contract as the WASM ones (kernel.ts), the search loop and its checks. What
// hashes is handed over (js-kernel.ts): sha512-nonce.ts, which keeps the body's padded
// blocks and precomputed rounds between nonces and allocates nothing per nonce
// (bench/js-kernel.ts compares it with the @noble/hashes per nonce this kernel used before),
// or in Node's pool and its threads node:crypto (native-sha512.ts), native code that
// --jitless does not slow, which is where a JS kernel runs in Node. It imports no code, so
// the browser build can load it with its hasher as a chunk.

import type { ArgumentError } from '../errors.js';
import type { MiningKernel } from './kernel-types.js';

/** Leading zero bits of SHA-512 of one body under nonce high:low, counted up to `need`. */
export interface NonceHashing {
  zeroBits(high: number, low: number, need: number): number;
}

const U64_MAX = (1n << 64n) - 1n;

/** A JS kernel hashing with what `hashing` makes for each body; `Err` is tpkit's ArgumentError. */
export function createJsKernel(hashing: (body: Uint8Array) => NonceHashing, Err: typeof ArgumentError): MiningKernel {
  let hasher: NonceHashing | undefined;
  return {
    name: 'js',
    lanes: 1,
    init(data: Uint8Array): void {
      if (!(data instanceof Uint8Array) || data.length < 8) {
        const got = data instanceof Uint8Array ? `${data.length} bytes` : typeof data;
        throw new Err(`"body" expected at least 8 bytes, got ${got}`);
      }
      hasher = hashing(data.slice());
    },
    search(start: bigint, count: number, difficulty: number): number {
      if (!hasher) throw new Err('search called before init');
      if (!Number.isInteger(count) || count < 0 || count > 0x7fffffff) {
        throw new Err(`"count" expected an integer 0..2147483647, got ${count}`);
      }
      if (typeof start !== 'bigint' || start < 0n || start + BigInt(count) > U64_MAX) {
        throw new Err(`"start" expected a uint64 with start + count < 2^64, got ${String(start)}`);
      }
      if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 512) {
        throw new Err(`"difficulty" expected an integer 0..512, got ${difficulty}`);
      }
      // The high half changes once per 2^32 nonces; the low half is a plain uint32.
      let high = Number(start >> 32n);
      let low = Number(start & 0xffffffffn);
      for (let i = 0; i < count; i++) {
        if (hasher.zeroBits(high, low, difficulty) >= difficulty) return i;
        if (++low === 0x100000000) {
          low = 0;
          high++;
        }
      }
      return -1;
    },
  };
}
