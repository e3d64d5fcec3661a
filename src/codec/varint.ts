// The reference node's variable-length unsigned integer, used inside transaction ids:
//   < 2^7   0xxxxxxx                       1 byte
//   < 2^14  10xxxxxx + 1 byte              2 bytes
//   < 2^29  110xxxxx + 3 bytes             4 bytes
//   < 2^60  1110xxxx + 7 bytes             8 bytes
//   else    1111nnnn + n big-endian bytes  (n = 1..14)
// The reference encoder's 4th bound is off by one (2^60 itself would wrap to 0 in 60 bits);
// this one moves 2^60 to the long form, which the reference decoder reads correctly.

import { expectBytes } from '../bytes.js';
import { ArgumentError, DecodeError, describeValue } from '../errors.js';

const MAX_VARINT = (1n << 112n) - 1n; // 14 bytes

export function encodeVarint(value: number | bigint): Uint8Array {
  let n: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new ArgumentError(`"varint" expected a non-negative integer, got ${value}`);
    n = BigInt(value);
  } else if (typeof value === 'bigint') {
    n = value;
  } else {
    throw new ArgumentError(`"varint" expected a number or bigint, got ${describeValue(value)}`);
  }
  if (n < 0n || n > MAX_VARINT) throw new ArgumentError(`"varint" expected 0 to 2^112-1, got ${n}`);
  const fixed = (length: number, prefix: bigint, bits: bigint): Uint8Array => {
    let v = (prefix << bits) | n;
    const out = new Uint8Array(length);
    for (let i = length - 1; i >= 0; i--) {
      out[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    return out;
  };
  if (n < 1n << 7n) return Uint8Array.of(Number(n));
  if (n < 1n << 14n) return fixed(2, 0b10n, 14n);
  if (n < 1n << 29n) return fixed(4, 0b110n, 29n);
  if (n < 1n << 60n) return fixed(8, 0b1110n, 60n);
  const bytes: number[] = [];
  for (let v = n; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return Uint8Array.of(0xf0 | bytes.length, ...bytes);
}

/**
 * Reads one varint at `offset`. Non-minimal forms are accepted, as the reference decoder
 * accepts them. Throws DecodeError TXID_INVALID when the bytes end early.
 */
export function decodeVarint(bytes: Uint8Array, offset = 0): { value: bigint; end: number } {
  expectBytes(bytes, 'bytes');
  if (!Number.isSafeInteger(offset) || offset < 0) throw new ArgumentError(`"offset" expected a non-negative integer, got ${String(offset)}`);
  if (offset >= bytes.length) throw truncated(offset);
  const first = bytes[offset];
  let length: number;
  let value: bigint;
  if (first < 0x80) return { value: BigInt(first), end: offset + 1 };
  if (first < 0xc0) [length, value] = [2, BigInt(first & 0x3f)];
  else if (first < 0xe0) [length, value] = [4, BigInt(first & 0x1f)];
  else if (first < 0xf0) [length, value] = [8, BigInt(first & 0x0f)];
  else [length, value] = [1 + (first & 0x0f), 0n];
  if (offset + length > bytes.length) throw truncated(offset);
  for (let i = 1; i < length; i++) value = (value << 8n) | BigInt(bytes[offset + i]);
  return { value, end: offset + length };
}

function truncated(offset: number): DecodeError {
  return new DecodeError('TXID_INVALID', 'Invalid transaction id', { details: `varint at byte ${offset} is truncated` });
}
