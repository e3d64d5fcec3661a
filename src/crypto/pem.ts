// Public key <-> PEM (spec 4.5): a SubjectPublicKeyInfo with algorithm id-ecPublicKey
// (1.2.840.10045.2.1) and curve secp256k1 (1.3.132.0.10), base64 in 64-char lines.

import { base64ToBytes, bytesToBase64, concatBytes, equalBytes, hexToBytes } from '../bytes.js';
import { ArgumentError, CryptoError, describeValue } from '../errors.js';
import { normalizePublicKey, PUBLIC_KEY_LENGTH, UNCOMPRESSED_PUBLIC_KEY_LENGTH } from './keys.js';

// SEQUENCE { SEQUENCE { OID ecPublicKey, OID secp256k1 }, BIT STRING (34 bytes, 0 unused bits) }
const SPKI_COMPRESSED_HEADER = hexToBytes('3036301006072a8648ce3d020106052b8104000a032200');
// The same with a 66-byte BIT STRING holding the 65-byte uncompressed point.
const SPKI_UNCOMPRESSED_HEADER = hexToBytes('3056301006072a8648ce3d020106052b8104000a034200');

const BEGIN = '-----BEGIN PUBLIC KEY-----';
const END = '-----END PUBLIC KEY-----';
const LINE = 64;
/** Longest PEM text read: an uncompressed key's PEM is 182 characters; the rest is room for CRLF and spaces. */
const MAX_PEM_TEXT = 4096;

/** The DER SubjectPublicKeyInfo of a public key (always the 33-byte compressed form). */
export function publicKeyToSpki(publicKey: Uint8Array): Uint8Array {
  return concatBytes(SPKI_COMPRESSED_HEADER, normalizePublicKey(publicKey));
}

/** PEM text for a 33- or 65-byte public key: 64-char lines, '\n' newlines, no trailing newline. */
export function publicKeyToPem(publicKey: Uint8Array): string {
  const body = bytesToBase64(publicKeyToSpki(publicKey));
  const lines: string[] = [BEGIN];
  for (let i = 0; i < body.length; i += LINE) lines.push(body.slice(i, i + LINE));
  lines.push(END);
  return lines.join('\n');
}

function pemError(details: string, cause?: unknown): CryptoError {
  return new CryptoError('PEM_INVALID', 'Invalid PEM public key', { details, cause });
}

/**
 * The 33-byte compressed public key in PEM text. Accepts the body on one line or many, LF or
 * CRLF, and a compressed or uncompressed secp256k1 key. Anything else is PEM_INVALID.
 */
export function pemToPublicKey(pem: string): Uint8Array {
  if (typeof pem !== 'string') throw new ArgumentError(`"pem" expected a string, got ${describeValue(pem)}`);
  // Checked before any scan: the PEM of a public key is under 200 characters.
  if (pem.length > MAX_PEM_TEXT) throw pemError(`expected at most ${MAX_PEM_TEXT} characters, got ${pem.length}`);
  const text = pem.trim();
  if (!text.startsWith(BEGIN)) throw pemError(`expected text to start with "${BEGIN}"`);
  if (!text.endsWith(END)) throw pemError(`expected text to end with "${END}"`);
  const body = text.slice(BEGIN.length, text.length - END.length);
  // Headers (Proc-Type, DEK-Info) would mean an encrypted key; only plain base64 is a public key.
  if (!/^[A-Za-z0-9+/=\s]*$/.test(body)) throw pemError('body holds characters outside base64');
  let der: Uint8Array;
  try {
    der = base64ToBytes(body);
  } catch (cause) {
    throw pemError('body is not valid base64', cause);
  }
  return spkiToPublicKey(der);
}

/** The 33-byte compressed public key in a DER SubjectPublicKeyInfo of a secp256k1 key. */
export function spkiToPublicKey(der: Uint8Array): Uint8Array {
  let key: Uint8Array;
  if (der.length === SPKI_COMPRESSED_HEADER.length + PUBLIC_KEY_LENGTH && equalBytes(der.subarray(0, SPKI_COMPRESSED_HEADER.length), SPKI_COMPRESSED_HEADER)) {
    key = der.slice(SPKI_COMPRESSED_HEADER.length);
  } else if (der.length === SPKI_UNCOMPRESSED_HEADER.length + UNCOMPRESSED_PUBLIC_KEY_LENGTH && equalBytes(der.subarray(0, SPKI_UNCOMPRESSED_HEADER.length), SPKI_UNCOMPRESSED_HEADER)) {
    key = der.slice(SPKI_UNCOMPRESSED_HEADER.length);
  } else {
    throw pemError(`expected a secp256k1 SubjectPublicKeyInfo of 56 or 88 bytes, got ${der.length} bytes`);
  }
  try {
    return normalizePublicKey(key);
  } catch (cause) {
    throw pemError('the key is not a point on secp256k1', cause);
  }
}
