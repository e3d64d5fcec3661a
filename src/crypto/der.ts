// Strict DER for ECDSA signatures, SEQUENCE { INTEGER r, INTEGER s }, through @noble/curves'
// DER codec (the one secp256k1 signing already uses); this file keeps our errors and limits.
//
// The reference node verifies through Erlang crypto -> OpenSSL ECDSA_verify, which accepts an
// encoding only if re-encoding (r, s) gives back the very same bytes. noble's DER.toSig refuses
// the same set: long-form lengths below 128, leading zero length bytes, empty, negative or
// zero-padded INTEGERs, indefinite lengths, bytes after s or after the SEQUENCE (test/der.test.ts
// checks this against OpenSSL over thousands of mutated encodings). Values are not range-checked
// here: OpenSSL decodes r = 0 or r >= n and fails them in the verification proper, and so does
// verifyBsig. High S is valid DER and verifies.

import { DER } from '@noble/curves/abstract/der.js';
import { bytesToHex, expectBytes, hexToBytes } from '../bytes.js';
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
  try {
    return DER.toSig(der);
  } catch (err) {
    throw badDer((err as Error).message);
  }
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
  for (const [name, value] of [['r', r], ['s', s]] as const) {
    if (typeof value !== 'bigint' || value < 0n) {
      throw new ArgumentError(`"${name}" expected a non-negative bigint, got ${typeof value === 'bigint' ? value : typeof value}`);
    }
  }
  const der = hexToBytes(DER.hexFromSig({ r, s }));
  if (der.length > MAX_DER_BYTES) throw new ArgumentError('"r" and "s" are too large for a DER signature');
  return der;
}
