// Strict DER for ECDSA signatures: SEQUENCE { INTEGER r, INTEGER s }.
//
// The reference node verifies through Erlang crypto -> OpenSSL ECDSA_verify, which decodes the
// DER and then rejects it unless re-encoding (r, s) gives back the very same bytes. The set of
// accepted encodings is therefore exactly the canonical one, and parseDerSignature accepts that
// set and nothing else:
// - lengths in their shortest form (short form below 128, else 0x81 / 0x82 + minimal bytes);
// - INTEGER contents non-empty, positive (first byte < 0x80) and minimal (a leading 0x00 only
//   before a byte >= 0x80);
// - no bytes after s inside the SEQUENCE, and none after the SEQUENCE.
// Values are not range-checked here: OpenSSL decodes r = 0 or r >= n and fails them in the
// verification proper, and so does verifyBsig. High S is valid DER and verifies.

import { bytesToHex, expectBytes } from '../bytes.js';
import { ArgumentError, DecodeError } from '../errors.js';

export interface DerSignature {
  r: bigint;
  s: bigint;
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;

function badDer(details: string): DecodeError {
  return new DecodeError('BSIG_BAD_DER', 'Signature is not strict DER', { details, field: 'signature' });
}

/** Reads a minimal DER length at `pos`; returns [length, position after it]. */
function readLength(der: Uint8Array, pos: number, what: string): [number, number] {
  if (pos >= der.length) throw badDer(`${what} length missing`);
  const first = der[pos];
  if (first < 0x80) return [first, pos + 1];
  if (first === 0x81) {
    if (pos + 1 >= der.length) throw badDer(`${what} length truncated`);
    const length = der[pos + 1];
    if (length < 0x80) throw badDer(`${what} length ${length} in long form`);
    return [length, pos + 2];
  }
  if (first === 0x82) {
    if (pos + 2 >= der.length) throw badDer(`${what} length truncated`);
    const length = (der[pos + 1] << 8) | der[pos + 2];
    if (length < 0x100) throw badDer(`${what} length ${length} in a longer form than needed`);
    return [length, pos + 3];
  }
  throw badDer(`${what} length byte 0x${first.toString(16)} is not DER`);
}

/** Reads INTEGER at `pos` (which must end by `end`); returns [value, position after it]. */
function readInteger(der: Uint8Array, pos: number, end: number, name: string): [bigint, number] {
  if (pos >= end) throw badDer(`INTEGER ${name} missing`);
  if (der[pos] !== INTEGER) throw badDer(`expected INTEGER tag 0x02 for ${name}, got 0x${der[pos].toString(16)}`);
  const [length, start] = readLength(der, pos + 1, `INTEGER ${name}`);
  const stop = start + length;
  if (stop > end) throw badDer(`INTEGER ${name} runs past the SEQUENCE`);
  if (length === 0) throw badDer(`INTEGER ${name} is empty`);
  if (der[start] & 0x80) throw badDer(`INTEGER ${name} is negative`);
  if (der[start] === 0 && length > 1 && !(der[start + 1] & 0x80)) {
    throw badDer(`INTEGER ${name} has a superfluous leading zero`);
  }
  return [BigInt('0x' + bytesToHex(der.subarray(start, stop))), stop];
}

/** Parses a strict-DER ECDSA signature; any other encoding throws DecodeError BSIG_BAD_DER. */
export function parseDerSignature(der: Uint8Array): DerSignature {
  expectBytes(der, 'signature');
  if (der.length === 0) throw badDer('empty');
  if (der[0] !== SEQUENCE) throw badDer(`expected SEQUENCE tag 0x30, got 0x${der[0].toString(16)}`);
  const [length, start] = readLength(der, 1, 'SEQUENCE');
  const end = start + length;
  if (end > der.length) throw badDer(`SEQUENCE declares ${length} bytes, ${der.length - start} present`);
  if (end < der.length) throw badDer(`${der.length - end} bytes after the SEQUENCE`);
  const [r, afterR] = readInteger(der, start, end, 'r');
  const [s, afterS] = readInteger(der, afterR, end, 's');
  if (afterS !== end) throw badDer(`${end - afterS} bytes after s inside the SEQUENCE`);
  return { r, s };
}

/** DER INTEGER content of an unsigned big-endian number: leading zeros dropped, 0x00 put back before a top bit. */
function integerContent(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const pad = magnitude.length === 0 || magnitude[start] & 0x80 ? 1 : 0;
  const out = new Uint8Array(pad + magnitude.length - start);
  out.set(magnitude.subarray(start), pad);
  return out;
}

function bigintBytes(value: bigint): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function lengthBytes(length: number): number[] {
  if (length < 0x80) return [length];
  if (length < 0x100) return [0x81, length];
  return [0x82, length >> 8, length & 0xff];
}

/**
 * The strict-DER encoding of r and s given as unsigned big-endian bytes (e.g. the two halves of
 * a 64-byte compact signature): the one encoding parseDerSignature and OpenSSL accept.
 */
export function encodeDerSignatureBytes(r: Uint8Array, s: Uint8Array): Uint8Array {
  expectBytes(r, 'r');
  expectBytes(s, 's');
  const rc = integerContent(r);
  const sc = integerContent(s);
  const rl = lengthBytes(rc.length);
  const sl = lengthBytes(sc.length);
  const contentLength = 2 + rl.length + rc.length + sl.length + sc.length;
  if (contentLength > 0xffff) throw new ArgumentError('"r" and "s" are too large for a DER signature');
  const sequenceLength = lengthBytes(contentLength);
  const out = new Uint8Array(1 + sequenceLength.length + contentLength);
  let pos = 0;
  out[pos++] = SEQUENCE;
  for (const b of sequenceLength) out[pos++] = b;
  out[pos++] = INTEGER;
  for (const b of rl) out[pos++] = b;
  out.set(rc, pos);
  pos += rc.length;
  out[pos++] = INTEGER;
  for (const b of sl) out[pos++] = b;
  out.set(sc, pos);
  return out;
}

/** The strict-DER encoding of (r, s). */
export function encodeDerSignature(r: bigint, s: bigint): Uint8Array {
  for (const [name, value] of [['r', r], ['s', s]] as const) {
    if (typeof value !== 'bigint' || value < 0n) {
      throw new ArgumentError(`"${name}" expected a non-negative bigint, got ${typeof value === 'bigint' ? value : typeof value}`);
    }
  }
  return encodeDerSignatureBytes(bigintBytes(r), bigintBytes(s));
}
