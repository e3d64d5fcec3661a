// R1: `h` of a register body is SHA-256 over the wallet's public keys, raw, sorted bytewise.

import { compareBytes, concatBytes, expectBytes } from '../bytes.js';
import { ArgumentError } from '../errors.js';
import { sha256 } from '../hash.js';

export function keysHash(publicKeys: readonly Uint8Array[]): Uint8Array {
  if (!Array.isArray(publicKeys) || publicKeys.length === 0) {
    throw new ArgumentError('"publicKeys" expected a non-empty array of 33-byte public keys');
  }
  const keys = publicKeys.map((key, i) => expectBytes(key, `publicKeys[${i}]`, 33));
  return sha256(concatBytes(...[...keys].sort(compareBytes)));
}
