// Builder for register (17) bodies: keys k, t, h, e (when given), nonce LAST. `t` and `nonce`
// are always `cf` + 8 bytes, so the nonce occupies exactly the body's last 8 bytes
// (body.length - 8 .. body.length) and a miner patches it in place without re-encoding.

import { ArgumentError, describeValue } from '../errors.js';
import { expectBytes } from '../bytes.js';
import { keysHash } from './keys-hash.js';
import { KIND } from './constants.js';
import { encodeMsgpack } from './msgpack-write.js';
import { Uint64, type MsgValue } from './msgpack-types.js';
import type { RegisterBodyInput } from './body-types.js';
import { objectArg, plainObjectArg, safeUintArg, u64Arg } from './body-args.js';

/** Bytes the nonce value takes at the end of a register body built here. */
export const REGISTER_NONCE_WIDTH = 8;

// fixstr "nonce" then the uint 64 marker: the 7 bytes before the nonce value.
const NONCE_TAIL = [0xa5, 0x6e, 0x6f, 0x6e, 0x63, 0x65, 0xcf];

export function registerBody(input: RegisterBodyInput): Uint8Array {
  objectArg(input, 'body');
  const hasKeys = input.publicKeys !== undefined;
  const hasHash = input.keysHash !== undefined;
  if (hasKeys === hasHash) {
    throw new ArgumentError('register body expected exactly one of "publicKeys" and "keysHash"', { field: 'h' });
  }
  const h = hasKeys ? keysHash(input.publicKeys as readonly Uint8Array[]) : expectBytes(input.keysHash, 'keysHash', 32);
  const fields = new Map<string, MsgValue>([
    ['k', KIND.register],
    ['t', new Uint64(safeUintArg(input.timestamp, 't'))],
    ['h', h],
  ]);
  if (input.extra !== undefined) fields.set('e', plainObjectArg(input.extra, 'e'));
  fields.set('nonce', new Uint64(u64Arg(input.nonce ?? 0n, 'nonce')));
  return encodeMsgpack(fields, { label: 'body' });
}

/** True when `body` ends like registerBody output: key "nonce" and a `cf` + 8-byte value. */
export function hasRegisterNonceTail(body: Uint8Array): boolean {
  if (!(body instanceof Uint8Array) || body.length < REGISTER_NONCE_WIDTH + NONCE_TAIL.length) return false;
  const start = body.length - REGISTER_NONCE_WIDTH - NONCE_TAIL.length;
  return NONCE_TAIL.every((b, i) => body[start + i] === b);
}

/** Writes `nonce` into the last 8 bytes of a register body built by registerBody, in place. */
export function setRegisterNonce(body: Uint8Array, nonce: bigint): void {
  if (!hasRegisterNonceTail(body)) {
    throw new ArgumentError(`"body" expected a register body ending in a fixed-width nonce, got ${describeValue(body)}`);
  }
  const value = u64Arg(nonce, 'nonce');
  new DataView(body.buffer, body.byteOffset, body.byteLength).setBigUint64(body.length - REGISTER_NONCE_WIDTH, BigInt(value));
}
