// Base58 with the Bitcoin alphabet; each leading zero byte is one leading '1'.

import { ArgumentError, DecodeError, describeValue } from '../errors.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function base58Encode(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw new ArgumentError(`"bytes" expected Uint8Array, got ${describeValue(bytes)}`);
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Base-58 digits, least significant first; schoolbook division is fine for txid-sized input.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i];
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j] << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]];
  return out;
}

/**
 * Longest text base58Decode reads. Decoding is quadratic in the length (schoolbook base
 * conversion): 1 MB of input took minutes, while a txid's base58 part is under 40 characters.
 */
export const MAX_BASE58_LENGTH = 256;

/** Throws DecodeError (with the given code, BAD_INPUT_ENCODING by default) on a character outside the alphabet or text over MAX_BASE58_LENGTH. */
export function base58Decode(text: string, code: 'BAD_INPUT_ENCODING' | 'TXID_INVALID' = 'BAD_INPUT_ENCODING'): Uint8Array {
  if (typeof text !== 'string') throw new ArgumentError(`"base58" expected a string, got ${describeValue(text)}`);
  if (text.length > MAX_BASE58_LENGTH) {
    throw new DecodeError(code, 'Invalid base58', { details: `${text.length} characters, at most ${MAX_BASE58_LENGTH} are read` });
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const bytes: number[] = []; // least significant first
  for (let i = zeros; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? INDEX[c] : -1;
    if (v < 0) {
      throw new DecodeError(code, 'Invalid base58', { details: `character ${JSON.stringify(text[i])} at ${i} is not in the base58 alphabet` });
    }
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j] * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i];
  return out;
}
