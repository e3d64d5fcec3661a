// secp256k1 keys: secret keys are 32 raw bytes (or their hex), public keys travel as the
// 33-byte compressed point (R4). Uncompressed 65-byte points are accepted and compressed.

import { secp256k1 } from './secp256k1.js';
import { hexToBytes } from '../bytes.js';
import { ArgumentError, CryptoError, describeValue } from '../errors.js';

/** A secret key as 32 raw bytes or 64 hex digits (an optional `0x` prefix is allowed). */
export type SecretKeyInput = Uint8Array | string;

/** A public key as 33 (compressed) or 65 (uncompressed) raw bytes, or their hex. */
export type PublicKeyInput = Uint8Array | string;

export const SECRET_KEY_LENGTH = 32;
export const PUBLIC_KEY_LENGTH = 33;
export const UNCOMPRESSED_PUBLIC_KEY_LENGTH = 65;

/** A new random secret key from the platform CSPRNG (uniform in 1..n-1). */
export function generateSecretKey(): Uint8Array {
  return secp256k1.utils.randomSecretKey();
}

/** Longest key text read: 0x + 130 hex digits (an uncompressed public key), with room for spaces. */
const MAX_KEY_TEXT = 256;

function keyBytes(key: unknown, label: string): Uint8Array {
  if (key instanceof Uint8Array) return key;
  if (typeof key === 'string') {
    if (key.length > MAX_KEY_TEXT) throw new CryptoError('KEY_INVALID', `"${label}" expected hex of a key, at most ${MAX_KEY_TEXT} characters, got ${key.length}`);
    return hexToBytes(key.trim());
  }
  throw new ArgumentError(`"${label}" expected Uint8Array or hex string, got ${describeValue(key)}`);
}

/**
 * The secret key as bytes, checked: 32 bytes and 1 <= key < n. Throws ArgumentError for a
 * wrong type, DecodeError BAD_HEX for bad hex and CryptoError KEY_INVALID for anything else.
 */
export function toSecretKeyBytes(secretKey: SecretKeyInput, label = 'secretKey'): Uint8Array {
  const bytes = keyBytes(secretKey, label);
  if (bytes.length !== SECRET_KEY_LENGTH) {
    throw new CryptoError('KEY_INVALID', `"${label}" expected ${SECRET_KEY_LENGTH} bytes, got ${bytes.length}`);
  }
  if (!secp256k1.utils.isValidSecretKey(bytes)) {
    throw new CryptoError('KEY_INVALID', `"${label}" is not a secp256k1 secret key`, {
      details: 'expected 1 <= key < curve order',
    });
  }
  return bytes;
}

/** True for 32 bytes (or 64 hex digits) in 1..n-1; never throws. */
export function isValidSecretKey(secretKey: unknown): boolean {
  try {
    toSecretKeyBytes(secretKey as SecretKeyInput);
    return true;
  } catch {
    return false;
  }
}

/** The 33-byte compressed public key of a secret key. */
export function publicKeyOf(secretKey: SecretKeyInput): Uint8Array {
  return secp256k1.getPublicKey(toSecretKeyBytes(secretKey), true);
}

/**
 * Checks a 33-byte compressed or 65-byte uncompressed public key and returns it compressed.
 * A point that is not on the curve, or any other length or prefix, is KEY_INVALID.
 */
export function normalizePublicKey(publicKey: PublicKeyInput, label = 'publicKey'): Uint8Array {
  const bytes = keyBytes(publicKey, label);
  if (bytes.length !== PUBLIC_KEY_LENGTH && bytes.length !== UNCOMPRESSED_PUBLIC_KEY_LENGTH) {
    throw new CryptoError('KEY_INVALID', `"${label}" expected ${PUBLIC_KEY_LENGTH} or ${UNCOMPRESSED_PUBLIC_KEY_LENGTH} bytes, got ${bytes.length}`);
  }
  const prefix = bytes[0];
  const prefixOk = bytes.length === PUBLIC_KEY_LENGTH ? prefix === 2 || prefix === 3 : prefix === 4;
  if (!prefixOk) {
    throw new CryptoError('KEY_INVALID', `"${label}" has prefix 0x${prefix.toString(16).padStart(2, '0')}`, {
      details: bytes.length === PUBLIC_KEY_LENGTH ? 'expected 0x02 or 0x03' : 'expected 0x04',
    });
  }
  let point;
  try {
    point = secp256k1.Point.fromBytes(bytes);
  } catch (cause) {
    throw new CryptoError('KEY_INVALID', `"${label}" is not a point on secp256k1`, { cause });
  }
  return bytes.length === PUBLIC_KEY_LENGTH ? bytes : point.toBytes(true);
}

/** True for a 33- or 65-byte secp256k1 point (raw or hex); never throws. */
export function isValidPublicKey(publicKey: unknown): boolean {
  try {
    normalizePublicKey(publicKey as PublicKeyInput);
    return true;
  } catch {
    return false;
  }
}
