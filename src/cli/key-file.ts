// The CLI's key file: the secret key encrypted under a passphrase. scrypt derives the key
// and AES-256-GCM seals the secret, both from node:crypto (OpenSSL). The clear fields
// (format, public key, KDF and cipher parameters) are authenticated as additional data,
// so editing any of them makes the file fail to open instead of weakening it. The address
// is filled in after registration and is not secret.

import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { bytesToHex, equalBytes, hexToBytes } from '../bytes.js';
import { publicKeyOf, toSecretKeyBytes } from '../crypto/keys.js';
import { TpkitError } from '../errors.js';

export const KEY_FILE_FORMAT = 'tpkit-key/1';

/** scrypt cost: 2^17 x 8 x 128 bytes = 128 MiB and about half a second, OWASP's floor. */
export const DEFAULT_SCRYPT = { N: 1 << 17, r: 8, p: 1 };
/** Bounds a file may ask for, so a crafted file cannot exhaust memory or time. */
const MAX_N = 1 << 20;
const MAX_R = 32;
const MAX_P = 16;
const MAX_MEMORY = 1024 * 1024 * 1024;

export interface KeyFile {
  format: typeof KEY_FILE_FORMAT;
  publicKey: string;
  address?: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: { name: 'aes-256-gcm'; iv: string };
  ciphertext: string;
  tag: string;
}

/** A key file's public part, read without the passphrase. */
export interface KeyFileInfo {
  path: string;
  publicKey: Uint8Array;
  address?: string;
  /** True for the old format: the secret key as plain hex. */
  plain: boolean;
}

const invalid = (path: string, details: string) => new TpkitError('KEYFILE_INVALID', `Key file ${path} cannot be used`, { details });

function scrypt(passphrase: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(passphrase.normalize('NFKC'), salt, 32, { N, r, p, maxmem: Math.min(MAX_MEMORY, 256 * N * r) }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function additionalData(file: Pick<KeyFile, 'format' | 'publicKey' | 'kdf' | 'cipher'>): Buffer {
  return Buffer.from(JSON.stringify([file.format, file.publicKey.toLowerCase(), file.kdf, file.cipher]));
}

export async function encryptKey(secretKey: Uint8Array, passphrase: string, cost = DEFAULT_SCRYPT): Promise<KeyFile> {
  const secret = toSecretKeyBytes(secretKey);
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const head = {
    format: KEY_FILE_FORMAT as typeof KEY_FILE_FORMAT,
    publicKey: bytesToHex(publicKeyOf(secret)),
    kdf: { name: 'scrypt' as const, N: cost.N, r: cost.r, p: cost.p, salt: salt.toString('base64') },
    cipher: { name: 'aes-256-gcm' as const, iv: iv.toString('base64') },
  };
  const key = await scrypt(passphrase, salt, cost.N, cost.r, cost.p);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(head));
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return { ...head, ciphertext: ciphertext.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

function parseKeyFile(text: string, path: string): KeyFile | { plainSecret: Uint8Array } {
  const trimmed = text.trim();
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(trimmed)) return { plainSecret: toSecretKeyBytes(trimmed.replace(/^0x/i, '')) };
  let file: KeyFile;
  try {
    file = JSON.parse(trimmed);
  } catch {
    throw invalid(path, 'neither a tpkit key file (JSON) nor a 64-digit hex secret key');
  }
  if (typeof file !== 'object' || file === null || file.format !== KEY_FILE_FORMAT) throw invalid(path, `"format" expected "${KEY_FILE_FORMAT}"`);
  const { kdf, cipher } = file;
  if (kdf?.name !== 'scrypt' || cipher?.name !== 'aes-256-gcm') throw invalid(path, 'expected scrypt and aes-256-gcm');
  const pow2 = Number.isInteger(kdf.N) && kdf.N >= 2 && (kdf.N & (kdf.N - 1)) === 0;
  if (!pow2 || kdf.N > MAX_N || !Number.isInteger(kdf.r) || kdf.r < 1 || kdf.r > MAX_R || !Number.isInteger(kdf.p) || kdf.p < 1 || kdf.p > MAX_P) {
    throw invalid(path, `scrypt parameters out of bounds (N a power of two <= 2^20, r <= ${MAX_R}, p <= ${MAX_P})`);
  }
  for (const [label, value] of [['publicKey', file.publicKey], ['kdf.salt', kdf.salt], ['cipher.iv', cipher.iv], ['ciphertext', file.ciphertext], ['tag', file.tag]]) {
    if (typeof value !== 'string' || value === '') throw invalid(path, `"${label}" missing`);
  }
  if (file.address !== undefined && typeof file.address !== 'string') throw invalid(path, '"address" expected a string');
  return file;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new TpkitError('KEYFILE_INVALID', `Key file ${path} cannot be read`, { details: (cause as Error).message, cause });
  }
}

export function readKeyFileInfo(path: string): KeyFileInfo {
  const parsed = parseKeyFile(readText(path), path);
  if ('plainSecret' in parsed) return { path, publicKey: publicKeyOf(parsed.plainSecret), plain: true };
  let publicKey: Uint8Array;
  try {
    publicKey = hexToBytes(parsed.publicKey);
  } catch {
    throw invalid(path, '"publicKey" is not hex');
  }
  return { path, publicKey, address: parsed.address, plain: false };
}

/** The secret key in `path`; the passphrase is asked for only when the file is encrypted. */
export async function openKeyFile(path: string, passphrase: () => Promise<string>): Promise<{ secretKey: Uint8Array; info: KeyFileInfo }> {
  const parsed = parseKeyFile(readText(path), path);
  if ('plainSecret' in parsed) return { secretKey: parsed.plainSecret, info: { path, publicKey: publicKeyOf(parsed.plainSecret), plain: true } };
  const salt = Buffer.from(parsed.kdf.salt, 'base64');
  const key = await scrypt(await passphrase(), salt, parsed.kdf.N, parsed.kdf.r, parsed.kdf.p);
  let secret: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parsed.cipher.iv, 'base64'));
    decipher.setAAD(additionalData(parsed));
    decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
    secret = Buffer.concat([decipher.update(Buffer.from(parsed.ciphertext, 'base64')), decipher.final()]);
  } catch {
    // GCM cannot tell a wrong passphrase from an edited file; both fail here.
    throw new TpkitError('KEYFILE_PASSPHRASE', `Wrong passphrase for ${path}`, { details: 'or the file was altered' });
  }
  const secretKey = new Uint8Array(secret);
  const info = readKeyFileInfo(path);
  if (!equalBytes(publicKeyOf(secretKey), info.publicKey)) throw invalid(path, 'the secret key does not match "publicKey"');
  return { secretKey, info };
}

/** Writes a new key file, mode 0600; an existing file is never overwritten. */
export function writeKeyFile(path: string, file: KeyFile | string): void {
  const text = typeof file === 'string' ? file : `${JSON.stringify(file, null, 2)}\n`;
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
}

/** Records the wallet address in an encrypted key file, atomically; the secret is untouched. */
export function setKeyFileAddress(path: string, address: string): void {
  const parsed = parseKeyFile(readText(path), path);
  if ('plainSecret' in parsed) return;
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...parsed, address }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temp, path);
}
