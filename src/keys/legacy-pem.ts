// OpenSSL's legacy encrypted PEM ("Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,<iv>"),
// the form of each block of the official wallets' export file. The AES key is
// MD5(passphrase ‖ iv[0..8]): EVP_BytesToKey with one round and no iteration count, so a
// passphrase costs an attacker one MD5 to try. Kept for interchange only; tpkit's own key
// file uses scrypt and AES-256-GCM.

import { cbc } from '@noble/ciphers/aes.js';
import { md5 } from '@noble/hashes/legacy.js';
import { randomBytes } from '@noble/hashes/utils.js';
import { base64ToBytes, bytesToBase64, bytesToHex, concatBytes, hexToBytes } from '../bytes.js';

export const LEGACY_CIPHER = 'AES-128-CBC';
const IV_BYTES = 16;

/** One PEM block as written: its label, its headers and its (still encrypted) bytes. */
export interface PemBlock {
  label: string;
  headers: Map<string, string>;
  data: Uint8Array;
}

/** Why a text is not a well-formed block, for the caller to turn into its own error. */
export class PemFormatError extends Error {}

/** The AES-128 key for a passphrase and an iv: MD5(UTF-8 passphrase ‖ first 8 bytes of the iv). */
export function legacyKey(passphrase: string, iv: Uint8Array): Uint8Array {
  return md5(concatBytes(new TextEncoder().encode(passphrase), iv.subarray(0, 8)));
}

/** Encrypts `plain` (PKCS#7 padding) under a fresh random iv, as an encrypted PEM block. */
export function encryptPemBlock(label: string, plain: Uint8Array, passphrase: string): string {
  const iv = randomBytes(IV_BYTES);
  const sealed = cbc(legacyKey(passphrase, iv), iv).encrypt(plain);
  const lines = bytesToBase64(sealed).match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${label}-----`, 'Proc-Type: 4,ENCRYPTED', `DEK-Info: ${LEGACY_CIPHER},${bytesToHex(iv, true)}`, '', ...lines, `-----END ${label}-----`].join('\n');
}

/**
 * Decrypts a block; undefined when the padding is wrong, which is what a wrong passphrase
 * (or altered bytes in the last two AES blocks) gives 255 times in 256.
 */
export function decryptPemBlock(block: PemBlock, passphrase: string): Uint8Array | undefined {
  const info = block.headers.get('dek-info') ?? '';
  const [cipher, ivHex] = info.split(',').map((s) => s.trim());
  const iv = hexToBytes(ivHex);
  if (cipher.toUpperCase() !== LEGACY_CIPHER || iv.length !== IV_BYTES) throw new PemFormatError(`unsupported DEK-Info "${info}"`);
  try {
    return cbc(legacyKey(passphrase, iv), iv).decrypt(block.data);
  } catch {
    return undefined;
  }
}

const BEGIN = /^-----BEGIN ([A-Z0-9 ]+)-----$/;

/**
 * Every PEM block in `text`, in order. Lines are trimmed (the SDK writes spaces after one
 * DEK-Info); a block must be encrypted with AES-128-CBC and hold base64 whose length fits
 * whole AES blocks. Anything else throws PemFormatError.
 */
export function parsePemBlocks(text: string): PemBlock[] {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const blocks: PemBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const begin = BEGIN.exec(lines[i]);
    if (!begin) {
      if (lines[i].startsWith('-----')) throw new PemFormatError(`line ${i + 1} is not a PEM boundary`);
      continue;
    }
    const label = begin[1];
    const headers = new Map<string, string>();
    let j = i + 1;
    for (; j < lines.length && lines[j] !== '' && lines[j].includes(':'); j++) {
      const colon = lines[j].indexOf(':');
      headers.set(lines[j].slice(0, colon).trim().toLowerCase(), lines[j].slice(colon + 1).trim());
    }
    if (lines[j] === '') j++;
    const body: string[] = [];
    for (; j < lines.length && !lines[j].startsWith('-----'); j++) body.push(lines[j]);
    if (lines[j] !== `-----END ${label}-----`) throw new PemFormatError(`the ${label} block has no END line`);
    if (headers.get('proc-type') !== '4,ENCRYPTED') throw new PemFormatError(`the ${label} block is not encrypted (no "Proc-Type: 4,ENCRYPTED")`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body.join(''))) throw new PemFormatError(`the ${label} block holds a character that is not base64`);
    let data: Uint8Array;
    try {
      data = base64ToBytes(body.join(''));
    } catch {
      throw new PemFormatError(`the ${label} block is not valid base64`);
    }
    if (data.length === 0 || data.length % 16 !== 0) throw new PemFormatError(`the ${label} block holds ${data.length} bytes, not whole AES blocks`);
    if (!/^AES-128-CBC,[0-9A-Fa-f]{32}$/.test(headers.get('dek-info') ?? '')) {
      throw new PemFormatError(`the ${label} block's DEK-Info is "${headers.get('dek-info') ?? ''}", expected AES-128-CBC and a 16-byte iv`);
    }
    blocks.push({ label, headers, data });
    i = j;
  }
  return blocks;
}
