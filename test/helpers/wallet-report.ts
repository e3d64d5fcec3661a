// Checks what a wallet page built from the packed package reports (examples/wallet.js),
// without trusting tpkit's own checks: the register body and the containers are read with
// @msgpack/msgpack, the proof of work and the keys hash are recomputed with node:crypto, and
// each signature is verified by OpenSSL through node:crypto. Only the BSig's TLV split uses
// tpkit's decoder (it checks nothing).
import { createHash, createPublicKey, verify } from 'node:crypto';
import { decode } from '@msgpack/msgpack';
import { decodeBsig } from '../../src/crypto/bsig-tlv.js';

export interface WalletReport {
  ok: boolean;
  code?: string;
  message?: string;
  details?: string;
  publicKey: string;
  body: string;
  kernel: string;
  hashes: number;
  callingThreadHashes: number;
  register: string;
  transfer: string;
  workerRate: number;
  userAgent: string;
}

/** SPKI DER of a compressed secp256k1 public key, the form node:crypto takes. */
const SPKI_PREFIX = Buffer.from('3036301006072a8648ce3d020106052b8104000a032200', 'hex');

function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** A signed container's body, after every signature in it verified with OpenSSL against `publicKey`. */
function verifiedBody(containerHex: string, publicKey: Buffer, label: string): Uint8Array {
  const container = decode(Buffer.from(containerHex, 'hex')) as { body: Uint8Array; sig: Uint8Array[]; ver: number };
  if (container.ver !== 2 || !(container.body instanceof Uint8Array) || !Array.isArray(container.sig) || container.sig.length !== 1) {
    throw new Error(`${label}: not a version-2 container with one signature`);
  }
  const bsig = decodeBsig(container.sig[0]);
  if (!Buffer.from(bsig.publicKey).equals(publicKey)) throw new Error(`${label}: signed by another key`);
  const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
  const signed = Buffer.concat([bsig.signedFields, container.body]);
  if (!verify('sha256', signed, { key, dsaEncoding: 'der' }, bsig.signature)) throw new Error(`${label}: OpenSSL does not verify the signature`);
  return container.body;
}

/** Throws unless the report holds a register body mined to `difficulty` and two transactions signed by its key. */
export function checkWalletReport(report: WalletReport, difficulty = 16): void {
  if (!report.ok) throw new Error(`the page failed: ${report.code ?? ''} ${report.message ?? ''}`);
  const publicKey = Buffer.from(report.publicKey, 'hex');
  const body = Buffer.from(report.body, 'hex');
  const bits = leadingZeroBits(createHash('sha512').update(body).digest());
  if (bits < difficulty) throw new Error(`the mined body has ${bits} leading zero bits, below ${difficulty}`);
  const fields = decode(body) as Record<string, unknown>;
  const keysHash = createHash('sha256').update(publicKey).digest();
  if (!(fields.h instanceof Uint8Array) || !Buffer.from(fields.h).equals(keysHash)) throw new Error('the body\'s "h" is not SHA-256 of the public key');
  if (!Buffer.from(verifiedBody(report.register, publicKey, 'register')).equals(body)) throw new Error('the register transaction carries another body');
  const transfer = decode(verifiedBody(report.transfer, publicKey, 'transfer')) as Record<string, unknown>;
  if (!Array.isArray(transfer.p) || transfer.p.length !== 2) throw new Error('the transfer body lacks its two payload items');
}
