// ECDSA over secp256k1 on a digest the protocol computed itself (R6): the only file that
// calls noble's sign and verify. noble v2 hashes messages and emits compact signatures by
// default; every option is spelled out here so a change of defaults cannot change our bytes.

import { CURVE_ORDER, secp256k1 } from './secp256k1.js';
import { expectBytes } from '../bytes.js';
import { encodeDerSignatureBytes } from './der.js';
import { type SecretKeyInput, toSecretKeyBytes } from './keys.js';

const SIGN_OPTIONS = {
  prehash: false, // the digest is SHA-256(signed TLVs ‖ body), computed by the caller
  lowS: true, // s <= n/2, as the SDKs produce; the reference node accepts either
  extraEntropy: false, // RFC 6979 deterministic k: same key and digest, same signature
  format: 'compact',
} as const;

const VERIFY_OPTIONS = {
  prehash: false,
  lowS: false, // the reference node (OpenSSL) accepts high-S signatures, so do we
  format: 'compact',
} as const;

/** Signs a 32-byte digest; returns (r, s) as 64 bytes r ‖ s, s low. Never fails for a valid key. */
export function signDigestCompact(digest: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return secp256k1.sign(digest, secretKey, SIGN_OPTIONS);
}

/**
 * Checks ECDSA (r ‖ s, 64 bytes, both already in 1..n-1, any s) over a digest against a 33- or
 * 65-byte public key. A verifier with this shape can replace noble (e.g. a native library;
 * one that demands low S must normalize s first, since high S is valid here).
 */
export type DigestVerifier = (signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array) => boolean;

export const nobleVerifyDigest: DigestVerifier = (signature, digest, publicKey) => secp256k1.verify(signature, digest, publicKey, VERIFY_OPTIONS);

/** True when r and s are both in 1..n-1, the range OpenSSL verifies; anything else is invalid. */
export function isSignatureInRange(r: bigint, s: bigint): boolean {
  return r > 0n && r < CURVE_ORDER && s > 0n && s < CURVE_ORDER;
}

/** r ‖ s as 64 bytes; r and s must be in range (see isSignatureInRange). */
export function compactSignature(r: bigint, s: bigint): Uint8Array {
  const out = new Uint8Array(64);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) {
    view.setBigUint64(24 - 8 * i, (r >> BigInt(64 * i)) & 0xffffffffffffffffn);
    view.setBigUint64(56 - 8 * i, (s >> BigInt(64 * i)) & 0xffffffffffffffffn);
  }
  return out;
}

function compactToDer(compact: Uint8Array): Uint8Array {
  return encodeDerSignatureBytes(compact.subarray(0, 32), compact.subarray(32, 64));
}

/** Signs a 32-byte digest: DER, low S, RFC 6979. */
export function signDigest(digest: Uint8Array, secretKey: SecretKeyInput): Uint8Array {
  expectBytes(digest, 'digest', 32);
  return compactToDer(signDigestCompact(digest, toSecretKeyBytes(secretKey)));
}

/**
 * A signing key: the public key is derived once, the secret key stays inside the closure.
 * Build one per wallet key when signing many transactions.
 */
export interface Signer {
  /** 33-byte compressed public key. */
  readonly publicKey: Uint8Array;
  /** DER signature (low S, RFC 6979) over a 32-byte digest. */
  signDigest(digest: Uint8Array): Uint8Array;
}

export function createSigner(secretKey: SecretKeyInput, label = 'secretKey'): Signer {
  return signerOver(toSecretKeyBytes(secretKey, label).slice());
}

/** A signer closing over `key`, a checked private copy of a secret key. */
function signerOver(key: Uint8Array): Signer {
  const publicKey = secp256k1.getPublicKey(key, true);
  return Object.freeze({
    publicKey,
    signDigest(digest: Uint8Array): Uint8Array {
      expectBytes(digest, 'digest', 32);
      return compactToDer(signDigestCompact(digest, key));
    },
  });
}

export function isSigner(value: unknown): value is Signer {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && typeof (value as Signer).signDigest === 'function' && (value as Signer).publicKey instanceof Uint8Array;
}

// Deriving the public key costs about as much as a signature, so signing with the same
// Uint8Array key again reuses its signer. Weak keys: the entry lives only as long as the
// caller's array; the content check catches an array whose key was overwritten.
const signerCache = new WeakMap<Uint8Array, { key: Uint8Array; signer: Signer }>();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** The signer for a secret key (cached for Uint8Array keys) or the signer itself. */
export function toSigner(input: SecretKeyInput | Signer, label = 'secretKey'): Signer {
  if (isSigner(input)) return input;
  if (!(input instanceof Uint8Array)) return createSigner(input, label);
  const hit = signerCache.get(input);
  if (hit && sameBytes(hit.key, input)) return hit.signer;
  const key = toSecretKeyBytes(input, label).slice();
  const signer = signerOver(key);
  signerCache.set(input, { key, signer });
  return signer;
}
