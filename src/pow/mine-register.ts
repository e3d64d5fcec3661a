// mineRegister: builds a register body (kind 17) with the nonce last and mines it (R2).
// The body is encoded once; its nonce is the fixed-width uint64 in its last 8 bytes,
// which the kernels patch in place.

import { ArgumentError } from '../errors.js';
import { hasRegisterNonceTail, registerBody } from '../codec/body-register.js';
import type { RegisterBodyInput } from '../codec/body-types.js';
import { mineBody, type MineOptions, type MineResult } from './mine-body.js';

export interface MineRegisterOptions extends MineOptions {
  /** The wallet's public keys (33-byte compressed); `h` is their keys hash (R1). */
  publicKeys: readonly Uint8Array[];
  /** Body time `t` in milliseconds (default Date.now()). */
  timestamp?: number | bigint;
  /** User data for the body's `e` map. */
  extra?: RegisterBodyInput['extra'];
}

export async function mineRegister(options: MineRegisterOptions): Promise<MineResult> {
  if (typeof options !== 'object' || options === null) {
    throw new ArgumentError(`"options" expected an object, got ${options === null ? 'null' : typeof options}`);
  }
  const body = registerBody({
    publicKeys: options.publicKeys,
    timestamp: options.timestamp ?? Date.now(),
    extra: options.extra,
    nonce: 0n,
  });
  if (!hasRegisterNonceTail(body)) {
    throw new ArgumentError('register body does not end in a fixed-width nonce');
  }
  return mineBody(body, options);
}
