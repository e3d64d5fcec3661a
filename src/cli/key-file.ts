// The CLI's key file: the secret key encrypted under a passphrase. scrypt derives the key
// and AES-256-GCM seals the secret, both from node:crypto (OpenSSL). The clear fields
// (format, public key, KDF and cipher parameters) are authenticated as additional data,
// so editing any of them makes the file fail to open instead of weakening it. The address
// is filled in after registration and is not secret.

import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { bytesToHex, equalBytes, hexToBytes } from '../bytes.js';
import { publicKeyOf, toSecretKeyBytes } from '../crypto/keys.js';
import { ArgumentError, TpkitError } from '../errors.js';

export const KEY_FILE_FORMAT = 'tpkit-key/1';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** scrypt cost: 2^17 x 8 x 128 bytes = 128 MiB and about half a second, OWASP's floor. */
export const DEFAULT_SCRYPT: ScryptCost = { N: 1 << 17, r: 8, p: 1 };

// Bounds a file may ask for, checked before any work, so a crafted file can neither
// exhaust memory nor keep the CLI busy for minutes: at most 1 GiB (8x the default) and
// 16x the default's work (about 8 s).
const MAX_MEMORY = 1 << 30;
const MAX_WORK = 16 * DEFAULT_SCRYPT.N * DEFAULT_SCRYPT.r * DEFAULT_SCRYPT.p;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface KeyFile {
  format: typeof KEY_FILE_FORMAT;
  publicKey: string;
  address?: string;
  /** Where the wallet was registered: its chain and the node asked (not secret, not authenticated). */
  chain?: number;
  node?: string;
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
  chain?: number;
  node?: string;
  /** True for the old format: the secret key as plain hex. */
  plain: boolean;
}

export interface OpenKeyFileOptions {
  /** Told when the file is plain hex (default: a warning on stderr). */
  onPlain?: (path: string) => void;
}

/**
 * Where a passphrase comes from. `retry` is set by a source that can ask again (a prompt on
 * a terminal): openKeyFile then gives PASSPHRASE_TRIES tries, as sudo and ssh do.
 */
export type PassphraseSource = (() => Promise<string>) & { retry?: (left: number) => void };

/** Tries at a passphrase typed at a prompt before the command gives up. */
export const PASSPHRASE_TRIES = 3;

const invalid = (path: string, details: string) => new TpkitError('KEYFILE_INVALID', `Key file ${path} cannot be used`, { details });

/** scrypt's working memory in bytes: 128 * N * r for the large array, 128 * r * p for the blocks. */
const scryptMemory = ({ N, r, p }: ScryptCost) => 128 * N * r + 128 * r * p;

/** Why these scrypt parameters are refused, or undefined when they are within bounds. */
function costProblem(cost: ScryptCost): string | undefined {
  const { N, r, p } = cost;
  if (!(Number.isInteger(N) && N >= 2 && N <= 2 ** 30 && (N & (N - 1)) === 0)) return `"kdf.N" expected a power of two >= 2, got ${String(N)}`;
  if (!(Number.isInteger(r) && r >= 1 && r <= 1024)) return `"kdf.r" expected an integer 1..1024, got ${String(r)}`;
  if (!(Number.isInteger(p) && p >= 1 && p <= 1024)) return `"kdf.p" expected an integer 1..1024, got ${String(p)}`;
  if (128 * N * r > MAX_MEMORY) return `scrypt N=${N}, r=${r} needs ${Math.round((128 * N * r) / 2 ** 20)} MiB, more than the 1024 MiB allowed`;
  if (N * r * p > MAX_WORK) return `scrypt N=${N}, r=${r}, p=${p} is more than 16 times the default work`;
  return undefined;
}

async function deriveKey(passphrase: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // maxmem a little above the need: OpenSSL refuses to run when the need exceeds it.
  const maxmem = scryptMemory(cost) + (1 << 20);
  return new Promise((resolve, reject) =>
    scryptCallback(passphrase.normalize('NFKC'), salt, 32, { N: cost.N, r: cost.r, p: cost.p, maxmem }, (err, key) =>
      err ? reject(new TpkitError('KEYFILE_INVALID', 'scrypt failed', { details: err.message, cause: err })) : resolve(key),
    ),
  );
}

function additionalData(file: Pick<KeyFile, 'format' | 'publicKey' | 'kdf' | 'cipher'>): Buffer {
  return Buffer.from(JSON.stringify([file.format, file.publicKey.toLowerCase(), file.kdf, file.cipher]));
}

/** Seals a secret key under a passphrase; `cost` is for tests and for stronger files. */
export async function encryptKey(secretKey: Uint8Array, passphrase: string, cost: ScryptCost = DEFAULT_SCRYPT): Promise<KeyFile> {
  const secret = toSecretKeyBytes(secretKey);
  if (typeof passphrase !== 'string') throw new ArgumentError(`"passphrase" expected a string, got ${typeof passphrase}`);
  const problem = costProblem(cost);
  if (problem) throw new ArgumentError(`"cost" out of bounds: ${problem}`);
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const head = {
    format: KEY_FILE_FORMAT as typeof KEY_FILE_FORMAT,
    publicKey: bytesToHex(publicKeyOf(secret)),
    kdf: { name: 'scrypt' as const, N: cost.N, r: cost.r, p: cost.p, salt: salt.toString('base64') },
    cipher: { name: 'aes-256-gcm' as const, iv: iv.toString('base64') },
  };
  const key = await deriveKey(passphrase, salt, cost);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(head));
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return { ...head, ciphertext: ciphertext.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

/** Strict base64 of an exact length (Buffer.from skips junk silently). */
function base64Field(path: string, label: string, value: unknown, bytes: number, atLeast = false): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw invalid(path, `"${label}" expected base64 text`);
  const decoded = Buffer.from(value, 'base64');
  if (atLeast ? decoded.length < bytes : decoded.length !== bytes) {
    throw invalid(path, `"${label}" expected ${atLeast ? 'at least ' : ''}${bytes} bytes, got ${decoded.length}`);
  }
  return decoded;
}

interface ParsedKeyFile {
  file: KeyFile;
  publicKey: Uint8Array;
  salt: Buffer;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function parseKeyFile(text: string, path: string): ParsedKeyFile | { plainSecret: Uint8Array } {
  const trimmed = text.trim();
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(trimmed)) {
    try {
      return { plainSecret: toSecretKeyBytes(trimmed.replace(/^0x/i, '')) };
    } catch (cause) {
      throw new TpkitError('KEYFILE_INVALID', `Key file ${path} cannot be used`, { details: 'the hex secret key is not a valid secp256k1 key', cause });
    }
  }
  let file: KeyFile;
  try {
    file = JSON.parse(trimmed);
  } catch {
    throw invalid(path, 'neither a tpkit key file (JSON) nor a 64-digit hex secret key');
  }
  if (typeof file !== 'object' || file === null || Array.isArray(file)) throw invalid(path, 'expected a JSON object');
  if (file.format !== KEY_FILE_FORMAT) throw invalid(path, `"format" expected "${KEY_FILE_FORMAT}", got ${JSON.stringify(file.format)}`);
  const { kdf, cipher } = file;
  if (kdf?.name !== 'scrypt') throw invalid(path, `"kdf.name" expected "scrypt", got ${JSON.stringify(kdf?.name)}`);
  if (cipher?.name !== 'aes-256-gcm') throw invalid(path, `"cipher.name" expected "aes-256-gcm", got ${JSON.stringify(cipher?.name)}`);
  const problem = costProblem(kdf);
  if (problem) throw invalid(path, problem);
  if (typeof file.publicKey !== 'string' || !/^(0[23][0-9a-fA-F]{64})$/.test(file.publicKey)) throw invalid(path, '"publicKey" expected 33 bytes of compressed key as hex');
  if (file.address !== undefined && typeof file.address !== 'string') throw invalid(path, '"address" expected a string');
  if (file.chain !== undefined && !Number.isSafeInteger(file.chain)) throw invalid(path, '"chain" expected an integer');
  if (file.node !== undefined && typeof file.node !== 'string') throw invalid(path, '"node" expected a string');
  return {
    file,
    publicKey: hexToBytes(file.publicKey),
    salt: base64Field(path, 'kdf.salt', kdf.salt, SALT_BYTES, true),
    iv: base64Field(path, 'cipher.iv', cipher.iv, IV_BYTES),
    ciphertext: base64Field(path, 'ciphertext', file.ciphertext, 32),
    tag: base64Field(path, 'tag', file.tag, TAG_BYTES),
  };
}

/** 64 hex digits (0x or not), or 32 bytes as base64: a secret key, not a file name. */
const LOOKS_LIKE_KEY = /^\s*((0x)?[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)\s*$/;

function readText(path: string): string {
  // Pasted where a file belongs, a key would be echoed in every message naming the path.
  if (LOOKS_LIKE_KEY.test(path)) {
    throw new ArgumentError('--key takes a key file, and this value looks like a secret key (it is not repeated here)', {
      details:
        'store the key encrypted with `tpkit keygen --import --out FILE` (it reads the key from a prompt or stdin) and pass --key FILE; a key typed on a command line also lands in the shell history',
    });
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    // A path that is not there is a typo on the command line (exit 2, as for `tpkit decode`).
    if ((cause as { code?: string }).code === 'ENOENT') {
      throw new ArgumentError(`no such key file: '${path}'`, { details: 'check the path, or make one with `tpkit keygen --out FILE`', cause });
    }
    throw new TpkitError('KEYFILE_INVALID', `Key file ${path} cannot be read`, { details: (cause as Error).message, cause });
  }
}

/** The public part of a key file, without the passphrase. */
export function readKeyFileInfo(path: string): KeyFileInfo {
  const parsed = parseKeyFile(readText(path), path);
  if ('plainSecret' in parsed) return { path, publicKey: publicKeyOf(parsed.plainSecret), plain: true };
  return { path, publicKey: parsed.publicKey, ...walletFields(parsed.file), plain: false };
}

const walletFields = (file: KeyFile) => ({ address: file.address, chain: file.chain, node: file.node });

function warnPlain(path: string): void {
  process.stderr.write(`warning: ${path} holds the secret key as plain hex; encrypt it with\n  tpkit keygen --import --out NEW_FILE < ${path}   (then delete ${path})\n`);
}

/** The secret key in `path`; the passphrase is asked for only when the file is encrypted. */
export async function openKeyFile(path: string, passphrase: PassphraseSource, options: OpenKeyFileOptions = {}): Promise<{ secretKey: Uint8Array; info: KeyFileInfo }> {
  const parsed = parseKeyFile(readText(path), path);
  if ('plainSecret' in parsed) {
    (options.onPlain ?? warnPlain)(path);
    return { secretKey: parsed.plainSecret, info: { path, publicKey: publicKeyOf(parsed.plainSecret), plain: true } };
  }
  const { file } = parsed;
  let secret: Buffer | undefined;
  for (let tried = 1; secret === undefined; tried++) {
    const key = await deriveKey(await passphrase(), parsed.salt, file.kdf);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, parsed.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(file));
      decipher.setAuthTag(parsed.tag);
      secret = Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]);
    } catch {
      // GCM cannot tell a wrong passphrase from an edited file; both fail here.
      if (passphrase.retry && tried < PASSPHRASE_TRIES) {
        passphrase.retry(PASSPHRASE_TRIES - tried);
        continue;
      }
      throw new TpkitError('KEYFILE_PASSPHRASE', `Wrong passphrase for ${path}`, { details: 'or the file was altered' });
    }
  }
  const secretKey = new Uint8Array(secret);
  if (!equalBytes(publicKeyOf(secretKey), parsed.publicKey)) throw invalid(path, 'the secret key does not match "publicKey"');
  return { secretKey, info: { path, publicKey: parsed.publicKey, ...walletFields(file), plain: false } };
}

/** Writes `text` to a new file, mode 0600, flushed to disk; 'wx' fails when it exists. */
function writeNew(path: string, text: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const fileError = (path: string, cause: unknown) => {
  const code = (cause as NodeJS.ErrnoException).code;
  const why = code === 'EEXIST' ? 'it already exists (an existing key file is never overwritten)' : (cause as Error).message;
  return new ArgumentError(`Key file ${path} cannot be written: ${why}`, { cause });
};

/** Writes a new key file, mode 0600; an existing file is never overwritten. */
export function writeKeyFile(path: string, file: KeyFile | string): void {
  const text = typeof file === 'string' ? file : `${JSON.stringify(file, null, 2)}\n`;
  try {
    writeNew(path, text);
  } catch (cause) {
    throw fileError(path, cause);
  }
}

/** Records the wallet (address, chain, node) in an encrypted key file, atomically; the secret is untouched. */
export function setKeyFileWallet(path: string, wallet: { address: string; chain?: number; node?: string }): void {
  const parsed = parseKeyFile(readText(path), path);
  if ('plainSecret' in parsed) return;
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeNew(temp, `${JSON.stringify({ ...parsed.file, ...wallet }, null, 2)}\n`);
    renameSync(temp, path);
  } catch (cause) {
    rmSync(temp, { force: true });
    throw fileError(path, cause);
  }
}
