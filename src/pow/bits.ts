// Proof-of-work strength of a register body (R2, R3): leading zero bits of SHA-512(body).

import { expectBytes } from '../bytes.js';
import { sha512 } from '../hash.js';

/**
 * The highest difficulty worth mining for: the nonce has 64 bits, so above this a search
 * would most likely exhaust every nonce without a proof, after longer than anyone would wait.
 */
export const MAX_MINE_DIFFICULTY = 64;

/** Leading zero bits of a hash: 0x38… gives 2, 0x00 0x14… gives 11, all zeros gives 8·length. */
export function leadingZeroBits(hash: Uint8Array): number {
  let bits = 0;
  for (let i = 0; i < hash.length; i++) {
    if (hash[i] === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(hash[i]) - 24;
  }
  return bits;
}

/** Leading zero bits of SHA-512 over the exact body bytes; the node compares it with `register.diff`. */
export function powBits(body: Uint8Array): number {
  return leadingZeroBits(sha512(expectBytes(body, 'body')));
}
