// Byte helpers shared by every layer: hex, base64, concatenation and input sniffing.
// No Node built-ins, so the same code runs in browsers and workers.

import { ArgumentError, DecodeError, describeValue } from './errors.js';

const HEX = '0123456789abcdef';
const HEX_UPPER = '0123456789ABCDEF';

/** Character codes of the digits, for the long-input path. */
const HEX_CODES = Uint8Array.from(HEX, (c) => c.charCodeAt(0));
const HEX_UPPER_CODES = Uint8Array.from(HEX_UPPER, (c) => c.charCodeAt(0));
/** Inputs longer than this are written through one byte array and one decode. */
const SHORT_HEX = 64;
const latin1 = new TextDecoder('latin1');

export function bytesToHex(bytes: Uint8Array, uppercase = false): string {
  if (bytes.length > SHORT_HEX) return longHex(bytes, uppercase ? HEX_UPPER_CODES : HEX_CODES);
  const digits = uppercase ? HEX_UPPER : HEX;
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += digits[bytes[i] >> 4] + digits[bytes[i] & 15];
  return out;
}

/**
 * Appending two characters per byte leaves one string object per byte for the collector:
 * about 1.7 MB of garbage for a 30 KB transaction body, which the live stream's block
 * messages turned into hundreds of MB of heap under a flood. Here: one array, one string.
 */
function longHex(bytes: Uint8Array, codes: Uint8Array): string {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = codes[bytes[i] >> 4];
    out[2 * i + 1] = codes[bytes[i] & 15];
  }
  return latin1.decode(out);
}

function hexNibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 65 && code <= 70) return code - 55; // A-F
  if (code >= 97 && code <= 102) return code - 87; // a-f
  return -1;
}

/** Strict hex: even length, hex digits only; an optional `0x` prefix is allowed. */
export function hexToBytes(hex: string): Uint8Array {
  if (typeof hex !== 'string') throw new ArgumentError(`"hex" expected a string, got ${describeValue(hex)}`);
  const text = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (text.length % 2 !== 0) throw new DecodeError('BAD_HEX', 'Invalid hex', { details: `odd length ${text.length}` });
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(text.charCodeAt(2 * i));
    const lo = hexNibble(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new DecodeError('BAD_HEX', 'Invalid hex', { details: `bad character at ${2 * i}` });
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Loops, not regexes: inputs of many megabytes must not exhaust the regex engine's stack or time. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0xfeff || code === 0x2028 || code === 0x2029;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;
B64_INDEX['-'.charCodeAt(0)] = 62; // base64url alphabet is accepted too
B64_INDEX['_'.charCodeAt(0)] = 63;

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64[n >> 18] + B64[(n >> 12) & 63] + '==';
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + '=';
  }
  return out;
}

/**
 * Strict base64 (standard or url alphabet). Padding is optional but, when present, must be
 * right; whitespace is ignored; any other character, or a length no encoder produces, is an error.
 */
export function base64ToBytes(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ArgumentError(`"base64" expected a string, got ${describeValue(text)}`);
  const fail = (details: string) => new DecodeError('BAD_BASE64', 'Invalid base64', { details });
  // First pass, building nothing: every character checked, the significant ones and the
  // padding counted, so text that is not base64 is refused at its first wrong character.
  let count = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    count++;
    if (code === 61 /* = */) padding++;
    else if (padding > 0 || code >= 128 || B64_INDEX[code] < 0) throw fail(`bad character at ${i}`);
  }
  const unpaddedLength = count - padding;
  if (padding > 2 || (padding > 0 && count % 4 !== 0)) throw fail('wrong padding');
  if (unpaddedLength % 4 === 1) throw fail(`impossible length ${unpaddedLength}`);
  const out = new Uint8Array(Math.floor((unpaddedLength * 3) / 4));
  let acc = 0;
  let bits = 0;
  let pos = 0;
  for (let i = 0; i < text.length && pos < out.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    const value = B64_INDEX[code];
    acc = (acc << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[pos++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) throw fail('non-zero trailing bits');
  return out;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Bytewise ascending order, as R1 sorts public keys. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Even-length hex digits, optionally after `0x`. */
function looksLikeHex(text: string): boolean {
  const start = text.startsWith('0x') || text.startsWith('0X') ? 2 : 0;
  if (text.length === start || (text.length - start) % 2 !== 0) return false;
  for (let i = start; i < text.length; i++) if (hexNibble(text.charCodeAt(i)) < 0) return false;
  return true;
}

/**
 * Accepts raw bytes, hex (optionally `0x`-prefixed) or base64 and returns the bytes.
 * Text that is valid hex is read as hex; otherwise as base64.
 */
export function bytesFromInput(input: string | Uint8Array, label = 'input'): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (typeof input !== 'string') {
    throw new ArgumentError(`"${label}" expected bytes, hex or base64, got ${describeValue(input)}`);
  }
  const text = input.trim();
  if (text.length === 0) throw new DecodeError('BAD_INPUT_ENCODING', `Empty ${label}`);
  if (looksLikeHex(text)) return hexToBytes(text);
  try {
    return base64ToBytes(text);
  } catch (cause) {
    throw new DecodeError('BAD_INPUT_ENCODING', `${label} is neither hex nor base64`, { cause });
  }
}

/** Checks a byte-array argument's type and length, with noble's style of message. */
export function expectBytes(value: unknown, label: string, length?: number): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new ArgumentError(`"${label}" expected Uint8Array, got ${describeValue(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new ArgumentError(`"${label}" expected ${length} bytes, got ${value.length}`);
  }
  return value;
}
