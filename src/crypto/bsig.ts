// Signing and verifying one BSig (R6): digest = SHA-256(signed TLVs ‖ raw data), ECDSA
// secp256k1, DER. Verification follows the reference node (Erlang crypto -> OpenSSL): strict
// DER only, r and s in 1..n-1, high S accepted.

import { concatBytes, expectBytes } from '../bytes.js';
import { ArgumentError, TpkitError, describeValue } from '../errors.js';
import { BSIG_TAG, type DecodedBsig, decodeBsig, encodeBsig, encodeTlv, u64Bytes } from './bsig-tlv.js';
import { parseDerSignature } from './der.js';
import { compactSignature, type DigestVerifier, isSignatureInRange, nobleVerifyDigest, type Signer, toSigner } from './ecdsa.js';
import { sha256 } from '../hash.js';
import type { SecretKeyInput } from './keys.js';
import { normalizePublicKey } from './keys.js';

/** An extra signed field: raw bytes, a u64 (8 bytes BE) or text (UTF-8). */
export interface BsigFieldInput {
  tag: number;
  value: Uint8Array | bigint | number | string;
}

export interface SignBsigOptions {
  /** Signature time in ms since the epoch; defaults to Date.now(). */
  timestamp?: number | bigint;
  /** Signed fields placed after the pubkey and timestamp, in order (not tags 1, 2, 255). */
  extraFields?: readonly BsigFieldInput[];
}

const utf8 = new TextEncoder();

function extraFieldBytes(field: BsigFieldInput, index: number): Uint8Array {
  const label = `extraFields[${index}]`;
  if (typeof field !== 'object' || field === null) throw new ArgumentError(`"${label}" expected { tag, value }, got ${describeValue(field)}`);
  const { tag, value } = field;
  if (tag === BSIG_TAG.timestamp || tag === BSIG_TAG.pubkey || tag === BSIG_TAG.signature) {
    throw new ArgumentError(`"${label}.tag" ${tag} is written by signBsig itself`);
  }
  let bytes: Uint8Array;
  if (value instanceof Uint8Array) bytes = value;
  else if (typeof value === 'string') bytes = utf8.encode(value);
  else bytes = u64Bytes(value, `${label}.value`);
  return encodeTlv(tag, bytes);
}

/** The signed TLVs R6 lays out: pubkey, timestamp, then any extra fields. */
export function signedFieldsFor(publicKey: Uint8Array, options: SignBsigOptions = {}): Uint8Array {
  if (typeof options !== 'object' || options === null) {
    throw new ArgumentError(`"options" expected an object, got ${describeValue(options)}`);
  }
  const parts = [encodeTlv(BSIG_TAG.pubkey, publicKey), encodeTlv(BSIG_TAG.timestamp, u64Bytes(options.timestamp ?? Date.now(), 'timestamp'))];
  const extra = options.extraFields ?? [];
  if (!Array.isArray(extra)) throw new ArgumentError(`"extraFields" expected an array, got ${describeValue(extra)}`);
  extra.forEach((field, i) => parts.push(extraFieldBytes(field, i)));
  return concatBytes(...parts);
}

/** SHA-256(signed TLVs ‖ data): what the signature of a BSig covers. */
export function bsigDigest(decoded: Pick<DecodedBsig, 'signedFields'>, data: Uint8Array): Uint8Array {
  expectBytes(data, 'data');
  return sha256(concatBytes(decoded.signedFields, data));
}

/**
 * Signs data into a BSig: signature, pubkey, timestamp (ms), extra fields. RFC 6979 and low S,
 * so the same key, data and timestamp always give the same bytes.
 */
export function signBsig(data: Uint8Array, secretKey: SecretKeyInput | Signer, options: SignBsigOptions = {}): Uint8Array {
  expectBytes(data, 'data');
  const signer = toSigner(secretKey);
  const signedFields = signedFieldsFor(signer.publicKey, options);
  const signature = signer.signDigest(sha256(concatBytes(signedFields, data)));
  return encodeBsig(signature, signedFields);
}

/** Why a signature is not valid: the error code a caller would report. */
export type BsigInvalidReason = 'BSIG_BAD_DER' | 'KEY_INVALID' | 'SIG_INVALID';

export interface BsigVerification {
  valid: boolean;
  /** The public key as carried in the BSig (33 or 65 bytes when usable). */
  publicKey: Uint8Array;
  /** ms since the UNIX epoch, as DecodedBsig gives it. */
  timestamp?: number;
  reason?: BsigInvalidReason;
  /** What exactly failed, for logs. */
  details?: string;
}

export interface VerifyOptions {
  /** Replaces noble for the curve arithmetic (e.g. a native library in the local node). */
  verifier?: DigestVerifier;
}

function verifierOf(options: VerifyOptions | undefined): DigestVerifier {
  const verifier = options?.verifier ?? nobleVerifyDigest;
  if (typeof verifier !== 'function') {
    throw new ArgumentError(`"options.verifier" expected a function, got ${describeValue(verifier)}`);
  }
  return verifier;
}

/** ECDSA check of decoded signature bytes; undefined when valid, else why not. */
function checkSignature(decoded: DecodedBsig, data: Uint8Array, verifier: DigestVerifier): [BsigInvalidReason, string] | undefined {
  let r: bigint;
  let s: bigint;
  try {
    ({ r, s } = parseDerSignature(decoded.signature));
  } catch (error) {
    return ['BSIG_BAD_DER', error instanceof TpkitError ? error.message : String(error)];
  }
  if (!isSignatureInRange(r, s)) return ['SIG_INVALID', 'r or s is outside 1..n-1'];
  const signature = compactSignature(r, s);
  const digest = bsigDigest(decoded, data);
  let ok = false;
  try {
    ok = verifier(signature, digest, decoded.publicKey) === true;
  } catch {
    // a verifier that throws on a bad key or signature means "not valid"
  }
  return ok ? undefined : ['SIG_INVALID', 'signature does not match the data and public key'];
}

/** Verifies an already decoded BSig against data. */
export function verifyDecodedBsig(decoded: DecodedBsig, data: Uint8Array, options: VerifyOptions = {}): BsigVerification {
  expectBytes(data, 'data');
  const result: BsigVerification = { valid: false, publicKey: decoded.publicKey };
  if (decoded.timestamp !== undefined) result.timestamp = decoded.timestamp;
  const failure = checkSignature(decoded, data, verifierOf(options));
  if (failure === undefined) {
    result.valid = true;
    return result;
  }
  [result.reason, result.details] = failure;
  // An unusable key outranks any other reason (the reference node fails the whole transaction
  // on it). Checked only on failure: decoding the point up front would cost every valid signature.
  try {
    normalizePublicKey(decoded.publicKey);
  } catch (error) {
    result.reason = 'KEY_INVALID';
    result.details = error instanceof TpkitError ? error.message : String(error);
  }
  return result;
}

/**
 * Verifies a BSig over data as the reference node does. An invalid signature (not strict DER,
 * unusable key, wrong signature) gives `valid: false` and a reason; a BSig that cannot be
 * decoded at all throws DecodeError (BSIG_MALFORMED, BSIG_MISSING_FIELD).
 */
export function verifyBsig(bsig: Uint8Array, data: Uint8Array, options: VerifyOptions = {}): BsigVerification {
  return verifyDecodedBsig(decodeBsig(bsig), data, options);
}
