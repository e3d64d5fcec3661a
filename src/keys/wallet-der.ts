// The two DER payloads inside the official wallets' export file.
// - The key: PKCS#8 PrivateKeyInfo (under the PEM label "EC PRIVATE KEY", as the SDK
//   writes it) holding a SEC1 ECPrivateKey; OpenSSL writes bare SEC1 under that label, and
//   both are read. We write the SDK's exact bytes.
// - The address: SEQUENCE { UTF8String "PWR_ADDR", OCTET STRING (8 bytes) }.
// The reader walks the few tags these structures have, with minimal lengths only.

import { bytesToHex, concatBytes, equalBytes } from '../bytes.js';
import { ADDRESS_LENGTH } from '../codec/address.js';

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OCTET_STRING = 0x04;
const OID = 0x06;
const UTF8_STRING = 0x0c;
const CONTEXT_0 = 0xa0;
const CONTEXT_1 = 0xa1;

const EC_PUBLIC_KEY = Uint8Array.of(0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01); // 1.2.840.10045.2.1
const SECP256K1 = Uint8Array.of(0x2b, 0x81, 0x04, 0x00, 0x0a); // 1.3.132.0.10
const ADDRESS_TAG = new TextEncoder().encode('PWR_ADDR');

/**
 * Curves and key types a private key file commonly holds instead, by OID hex. Only these
 * are "another curve": any other OID is taken for damage (one flipped bit in the iv's
 * second half lands in the algorithm OID).
 */
const OTHER_CURVES: Record<string, string> = {
  '2a8648ce3d030107': 'P-256 (prime256v1)',
  '2b81040021': 'P-224',
  '2b81040022': 'P-384',
  '2b81040023': 'P-521',
  '2b2403030208010107': 'brainpoolP256r1',
};
const OTHER_KEY_TYPES: Record<string, string> = {
  '2b6570': 'Ed25519',
  '2b6571': 'Ed448',
  '2b656e': 'X25519',
  '2a864886f70d010101': 'RSA',
};

/** The DER holds a structure we do not read: the caller's "damaged" error. */
export class DerShapeError extends Error {}

/** The DER names another curve, or a key that is not an elliptic-curve key. */
export class OtherCurveError extends Error {
  constructor(readonly curve: string) {
    super(`the key is on ${curve}`);
  }
}

interface Tlv {
  tag: number;
  value: Uint8Array;
  end: number;
}

function readTlv(der: Uint8Array, pos: number, expected?: number): Tlv {
  const tag = der[pos];
  if (tag === undefined) throw new DerShapeError('DER ends early');
  if (expected !== undefined && tag !== expected) throw new DerShapeError(`tag 0x${tag.toString(16)} where 0x${expected.toString(16)} belongs`);
  let length = der[pos + 1];
  let start = pos + 2;
  if (length === undefined) throw new DerShapeError('DER ends early');
  if (length === 0x81) {
    length = der[pos + 2];
    start = pos + 3;
    if (!(length >= 0x80)) throw new DerShapeError('DER length not minimal');
  } else if (length > 0x81) {
    throw new DerShapeError('DER length too long for a key file');
  }
  const end = start + length;
  if (end > der.length) throw new DerShapeError('DER value runs past its end');
  return { tag, value: der.subarray(start, end), end };
}

/** All the TLVs of a constructed value's content, which must be used up exactly. */
function children(content: Uint8Array): Tlv[] {
  const out: Tlv[] = [];
  for (let pos = 0; pos < content.length; pos = out[out.length - 1].end) out.push(readTlv(content, pos));
  return out;
}

function only(der: Uint8Array, tag: number): Uint8Array {
  const tlv = readTlv(der, 0, tag);
  if (tlv.end !== der.length) throw new DerShapeError('bytes after the DER value');
  return tlv.value;
}

function checkCurve(oid: Tlv | undefined): void {
  if (oid === undefined) return;
  if (oid.tag !== OID) throw new DerShapeError('the curve parameter is not an OID');
  if (equalBytes(oid.value, SECP256K1)) return;
  const curve = OTHER_CURVES[bytesToHex(oid.value)];
  if (curve) throw new OtherCurveError(curve);
  throw new DerShapeError(`unknown curve OID ${bytesToHex(oid.value)}`);
}

/** SEC1 ECPrivateKey: { INTEGER 1, OCTET STRING key, [0] curve OID?, [1] public key? }. */
function readSec1(der: Uint8Array): Uint8Array {
  const [version, key, ...rest] = children(only(der, SEQUENCE));
  if (version?.tag !== INTEGER || !equalBytes(version.value, Uint8Array.of(1))) throw new DerShapeError('ECPrivateKey version is not 1');
  if (key?.tag !== OCTET_STRING) throw new DerShapeError('ECPrivateKey has no key');
  for (const item of rest) {
    if (item.tag === CONTEXT_0) checkCurve(readTlv(item.value, 0));
    else if (item.tag !== CONTEXT_1) throw new DerShapeError(`ECPrivateKey holds tag 0x${item.tag.toString(16)}`);
  }
  if (key.value.length !== 32) throw new DerShapeError(`the key is ${key.value.length} bytes, not 32`);
  return key.value.slice();
}

/**
 * The 32-byte secret key of a PKCS#8 or SEC1 secp256k1 private key DER. Throws
 * OtherCurveError for another curve or key type and DerShapeError for anything else.
 */
export function readKeyDer(der: Uint8Array): Uint8Array {
  const top = children(only(der, SEQUENCE));
  if (top[0]?.tag === INTEGER && equalBytes(top[0].value, Uint8Array.of(1))) return readSec1(der);
  const [version, algorithm, key] = top;
  if (version?.tag !== INTEGER || !equalBytes(version.value, Uint8Array.of(0))) throw new DerShapeError('neither PKCS#8 (version 0) nor SEC1 (version 1)');
  if (algorithm?.tag !== SEQUENCE || key?.tag !== OCTET_STRING) throw new DerShapeError('PKCS#8 lacks its algorithm or key');
  const [type, curve] = children(algorithm.value);
  if (type?.tag !== OID) throw new DerShapeError('PKCS#8 algorithm is not an OID');
  if (!equalBytes(type.value, EC_PUBLIC_KEY)) {
    const keyType = OTHER_KEY_TYPES[bytesToHex(type.value)];
    if (keyType) throw new OtherCurveError(`${keyType}, not an ECDSA curve`);
    throw new DerShapeError(`unknown key algorithm OID ${bytesToHex(type.value)}`);
  }
  checkCurve(curve);
  return readSec1(key.value);
}

/** The SDK's key DER: PKCS#8 with the secp256k1 OID around a SEC1 key without its public key. */
export function writeKeyDer(secretKey: Uint8Array): Uint8Array {
  const sec1 = concatBytes(Uint8Array.of(SEQUENCE, 0x25, INTEGER, 1, 1, OCTET_STRING, 0x20), secretKey);
  const algorithm = concatBytes(Uint8Array.of(SEQUENCE, 0x10, OID, 7), EC_PUBLIC_KEY, Uint8Array.of(OID, 5), SECP256K1);
  const body = concatBytes(Uint8Array.of(INTEGER, 1, 0), algorithm, Uint8Array.of(OCTET_STRING, sec1.length), sec1);
  return concatBytes(Uint8Array.of(SEQUENCE, body.length), body);
}

/** The 8 address bytes of the address DER; DerShapeError for anything else. */
export function readAddressDer(der: Uint8Array): Uint8Array {
  const [tag, address, ...rest] = children(only(der, SEQUENCE));
  if (tag?.tag !== UTF8_STRING || !equalBytes(tag.value, ADDRESS_TAG)) throw new DerShapeError('the address block is not tagged PWR_ADDR');
  if (address?.tag !== OCTET_STRING || address.value.length !== ADDRESS_LENGTH || rest.length) throw new DerShapeError('the address block holds no 8-byte address');
  return address.value.slice();
}

export function writeAddressDer(address: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(SEQUENCE, 0x14, UTF8_STRING, 8), ADDRESS_TAG, Uint8Array.of(OCTET_STRING, 8), address);
}
