// Transaction signatures: one BSig per key over the exact body bytes, wrapped in the container
// (spec 2.3, R6). Signing is composition: body bytes -> BSigs -> container.

import { bytesFromInput, equalBytes, expectBytes } from '../bytes.js';
import { decodeTx, encodeTx } from '../codec/container.js';
import { ArgumentError, describeValue } from '../errors.js';
import { type BsigVerification, signBsig, type SignBsigOptions, verifyBsig, type VerifyOptions } from './bsig.js';
import { decodeBsig } from './bsig-tlv.js';
import { type Signer, toSigner } from './ecdsa.js';
import { normalizePublicKey, type SecretKeyInput } from './keys.js';

/** A secret key (32 bytes or hex) or a Signer built once with createSigner. */
export type SigningKey = SecretKeyInput | Signer;

export type SignTxOptions = SignBsigOptions;

function signingKeys(keys: SigningKey | readonly SigningKey[]): readonly SigningKey[] {
  const list = Array.isArray(keys) ? keys : [keys as SigningKey];
  if (list.length === 0) throw new ArgumentError('"secretKeys" expected at least one key, got an empty array');
  return list;
}

/**
 * Signs body bytes with one or more keys and returns the container bytes: one BSig per key, in
 * the order given, all with the same timestamp (ms, default now).
 */
export function signTx(body: Uint8Array, secretKeys: SigningKey | readonly SigningKey[], options: SignTxOptions = {}): Uint8Array {
  expectBytes(body, 'body');
  if (typeof options !== 'object' || options === null) {
    throw new ArgumentError(`"options" expected an object, got ${describeValue(options)}`);
  }
  const list = signingKeys(secretKeys);
  const shared = { ...options, timestamp: options.timestamp ?? Date.now() };
  const sigs = list.map((key, i) => signBsig(body, toSigner(key, `secretKeys[${i}]`), shared));
  return encodeTx({ body, sigs });
}

export interface TxVerification {
  /** The body bytes exactly as carried: what every signature covers. */
  body: Uint8Array;
  /**
   * True when at least one signature verifies and every signature carries a usable public key.
   * The reference node checks each signature on its own and rejects a transaction with none
   * valid; a BSig whose key is not a curve point makes it fail the whole transaction.
   */
  valid: boolean;
  /** One entry per BSig, in container order. */
  signatures: BsigVerification[];
}

/**
 * Decodes a container (bytes, hex or base64) and verifies each signature over its body.
 * An undecodable container or BSig throws DecodeError, as the reference node rejects it.
 */
export function verifyTx(tx: Uint8Array | string, options: VerifyOptions = {}): TxVerification {
  const { body, sigs } = decodeTx(tx);
  const signatures = sigs.map((sig) => verifyBsig(sig, body, options));
  const valid = signatures.some((s) => s.valid) && !signatures.some((s) => s.reason === 'KEY_INVALID');
  return { body, valid, signatures };
}

/**
 * Adds one key's signature to a signed container (multisig wallets sign in turns). A key that
 * has already signed is not signed again: the container comes back unchanged.
 */
export function addSignature(tx: Uint8Array | string, secretKey: SigningKey, options: SignTxOptions = {}): Uint8Array {
  const bytes = bytesFromInput(tx, 'tx');
  const decoded = decodeTx(bytes);
  const signer = toSigner(secretKey);
  for (const sig of decoded.sigs) {
    let key: Uint8Array;
    try {
      key = normalizePublicKey(decodeBsig(sig).publicKey);
    } catch {
      continue; // not ours to judge here; verifyTx reports it
    }
    if (equalBytes(key, signer.publicKey)) return bytes;
  }
  const sig = signBsig(decoded.body, signer, options);
  return encodeTx({ ...decoded, sigs: [...decoded.sigs, sig] });
}
