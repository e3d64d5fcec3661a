// Strict DER for ECDSA signatures, SEQUENCE { INTEGER r, INTEGER s }: our own code, since the
// protocol demands these exact bytes and the rule is short (it was @noble/curves' DER codec,
// which brought 2 KB min+gzip of @noble/curves into the browser build for this alone).
//
// The reference node verifies through Erlang crypto -> OpenSSL ECDSA_verify, which accepts an
// encoding only if re-encoding (r, s) gives back the very same bytes, and that is the rule
// here: read the two INTEGERs, re-encode, compare. It refuses long-form lengths below 128,
// leading zero length bytes, empty, negative or zero-padded INTEGERs, indefinite lengths, bytes
// after s or after the SEQUENCE (test/der.test.ts checks this against OpenSSL over thousands of
// mutated encodings). Values are not range-checked
// here: OpenSSL decodes r = 0 or r >= n and fails them in the verification proper, and so does
// verifyBsig. High S is valid DER and verifies.

import { bytesToHex, concatBytes, equalBytes, expectBytes, hexToBytes } from '../bytes.js';
import { ArgumentError, DecodeError } from '../errors.js';

export interface DerSignature {
  r: bigint;
  s: bigint;
}

/**
 * The longest input read: a SEQUENCE whose length fits two bytes (tag, 0x82, 2 bytes, content).
 * Checked first, so a huge input costs nothing; real signatures are 8 to 72 bytes.
 */
const MAX_DER_BYTES = 4 + 0xffff;

function badDer(details: string): DecodeError {
  return new DecodeError('BSIG_BAD_DER', 'Signature is not strict DER', { details, field: 'signature' });
}

/** Parses a strict-DER ECDSA signature; any other encoding throws DecodeError BSIG_BAD_DER. */
export function parseDerSignature(der: Uint8Array): DerSignature {
  expectBytes(der, 'signature');
  if (der.length === 0) throw badDer('empty');
  if (der.length > MAX_DER_BYTES) throw badDer(`${der.length} bytes, more than a DER length of two bytes describes (${MAX_DER_BYTES})`);
  let at = 0;
  /** Reads one tag-length-value; DER lengths take at most two bytes here (MAX_DER_BYTES). */
  const read = (tag: number, what: string): Uint8Array => {
    if (der[at] !== tag) throw badDer(`${what}: expected tag 0x${tag.toString(16).padStart(2, '0')} at byte ${at}`);
    let length = der[at + 1];
    at += 2;
    if (length === undefined) throw badDer(`${what}: no length`);
    if (length & 0x80) {
      const count = length & 0x7f;
      if (count === 0 || count > 2) throw badDer(`${what}: ${count === 0 ? 'indefinite' : `${count}-byte`} length`);
      length = 0;
      for (let i = 0; i < count; i++, at++) {
        if (at >= der.length) throw badDer(`${what}: length runs past the end`);
        length = length * 256 + der[at];
      }
    }
    if (at + length > der.length) throw badDer(`${what}: ${length} bytes declared, ${der.length - at} left`);
    return der.subarray(at, (at += length));
  };
  const sequence = read(0x30, 'SEQUENCE');
  const end = at;
  at -= sequence.length;
  const r = bigintOf(read(0x02, 'INTEGER r'));
  const s = bigintOf(read(0x02, 'INTEGER s'));
  if (at !== end) throw badDer(`${end - at} bytes after s inside the SEQUENCE`);
  // Strictness: only the one encoding of (r, s) is DER (no padding, no sign byte missing, no
  // long form where the short one fits, nothing after the SEQUENCE).
  if (!equalBytes(encodeDerSignature(r, s), der)) throw badDer('not the canonical encoding of its r and s');
  return { r, s };
}

function bigintOf(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt('0x' + bytesToHex(bytes));
}

/**
 * The strict-DER encoding of r and s given as unsigned big-endian bytes (e.g. the two halves of
 * a 64-byte compact signature): the one encoding parseDerSignature and OpenSSL accept.
 */
export function encodeDerSignatureBytes(r: Uint8Array, s: Uint8Array): Uint8Array {
  expectBytes(r, 'r');
  expectBytes(s, 's');
  return encodeDerSignature(bigintOf(r), bigintOf(s));
}

/** The strict-DER encoding of (r, s). */
export function encodeDerSignature(r: bigint, s: bigint): Uint8Array {
  for (const [name, value] of [
    ['r', r],
    ['s', s],
  ] as const) {
    if (typeof value !== 'bigint' || value < 0n) {
      throw new ArgumentError(`"${name}" expected a non-negative bigint, got ${typeof value === 'bigint' ? value : typeof value}`);
    }
  }
  const der = tlv(0x30, concatBytes(tlv(0x02, derInteger(r)), tlv(0x02, derInteger(s))));
  if (der.length > MAX_DER_BYTES) throw new ArgumentError('"r" and "s" are too large for a DER signature');
  return der;
}

/** A non-negative INTEGER's content: minimal big-endian bytes, 0x00 first when the top bit is set. */
function derInteger(value: bigint): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = '0' + hex;
  if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = '00' + hex;
  return hexToBytes(hex);
}

/** Tag, DER length (short form below 128, else 0x81 or 0x82 and the bytes), content. */
function tlv(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return concatBytes(Uint8Array.of(tag, ...length), content);
}
