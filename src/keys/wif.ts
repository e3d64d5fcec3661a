// WIF, the text form of a secret key the official SDK passes between its functions:
// base58check of 0x80 ‖ 32-byte key ‖ 0x01 (the 0x01 says the public key is compressed).

import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { toSecretKeyBytes, type SecretKeyInput } from '../crypto/keys.js';
import { ArgumentError, DecodeError, describeValue } from '../errors.js';

const base58check = createBase58check(sha256);
const WIF_VERSION = 0x80;
const COMPRESSED = 0x01;
/** A compressed WIF is 52 characters; anything much longer is refused before decoding. */
const MAX_WIF_LENGTH = 60;

/** The compressed, version-0x80 WIF of a secret key (32 bytes or hex). */
export function secretKeyToWif(secretKey: SecretKeyInput): string {
  const key = toSecretKeyBytes(secretKey);
  const payload = new Uint8Array(34);
  payload[0] = WIF_VERSION;
  payload.set(key, 1);
  payload[33] = COMPRESSED;
  return base58check.encode(payload);
}

/** The 32-byte secret key of a compressed version-0x80 WIF; anything else is DecodeError WIF_INVALID. */
export function wifToSecretKey(wif: string): Uint8Array {
  if (typeof wif !== 'string') throw new ArgumentError(`"wif" expected a string, got ${describeValue(wif)}`);
  const text = wif.trim();
  if (text.length > MAX_WIF_LENGTH) throw new DecodeError('WIF_INVALID', 'The WIF is too long', { details: `${text.length} characters, a compressed WIF has 52` });
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text);
  } catch (cause) {
    throw new DecodeError('WIF_INVALID', 'The WIF is not valid base58check', { details: 'a character is mistyped or missing', cause });
  }
  if (payload[0] !== WIF_VERSION) {
    throw new DecodeError('WIF_INVALID', `The WIF has version 0x${payload[0].toString(16).padStart(2, '0')}`, { details: 'expected 0x80' });
  }
  if (payload.length === 33) throw new DecodeError('WIF_INVALID', 'The WIF is for an uncompressed public key', { details: 'ThePower keys use the compressed form' });
  if (payload.length !== 34 || payload[33] !== COMPRESSED) {
    throw new DecodeError('WIF_INVALID', `The WIF holds ${payload.length - 1} bytes`, { details: 'expected a 32-byte key and the 0x01 compression flag' });
  }
  try {
    return toSecretKeyBytes(payload.subarray(1, 33).slice(), 'wif');
  } catch (cause) {
    throw new DecodeError('WIF_INVALID', 'The WIF holds no valid secp256k1 secret key', { details: 'expected 1 <= key < curve order', cause });
  }
}
