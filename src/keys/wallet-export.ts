// The official wallets' export file ("getExportData" / "parseExportData" in the SDK):
//   {"version":2,"hint":"…"}                      JSON first line (absent in older files)
//   -----BEGIN EC PRIVATE KEY----- …               the key, legacy-encrypted PEM
//   -----BEGIN EXTRA DATA----- …                   the address, legacy-encrypted PEM
// The oldest files hold the 8 address bytes and the WIF in the clear, unencrypted.
// Both blocks are encrypted under the same passphrase, so when neither opens the
// passphrase is wrong, and when one opens and the other does not, the file is damaged.
// The format has no integrity check: an altered byte in the key's third AES block gives
// another valid key, which only the node's record of the address can reveal.

import { addressToText, parseAddress, ADDRESS_LENGTH } from '../codec/address.js';
import { toSecretKeyBytes, type SecretKeyInput } from '../crypto/keys.js';
import { ArgumentError, CryptoError, DecodeError, describeValue } from '../errors.js';
import { decryptPemBlock, encryptPemBlock, parsePemBlocks, PemFormatError, type PemBlock } from './legacy-pem.js';
import { DerShapeError, OtherCurveError, readAddressDer, readKeyDer, writeAddressDer, writeKeyDer } from './wallet-der.js';
import { wifToSecretKey } from './wif.js';

export const WALLET_EXPORT_VERSION = 2;
const KEY_LABEL = 'EC PRIVATE KEY';
const ADDRESS_LABEL = 'EXTRA DATA';
/** An export is about 700 bytes; a hint of a few hundred more is generous. */
const MAX_EXPORT_LENGTH = 64 * 1024;
const MAX_HINT_LENGTH = 1024;

/** What an export file holds. `layout` says which of the three forms it was in. */
export interface WalletExport {
  secretKey: Uint8Array;
  /** The wallet's address, as text. */
  address: string;
  /** The passphrase hint the file carries in the clear ('' when none). */
  hint: string;
  /** 'v2': JSON line and encrypted blocks; 'pem': the blocks alone; 'plain': address and WIF unencrypted. */
  layout: 'v2' | 'pem' | 'plain';
}

export interface WriteWalletExportOptions {
  secretKey: SecretKeyInput;
  address: string | Uint8Array;
  passphrase: string;
  /** Stored in the clear beside the encrypted blocks; never the passphrase itself. */
  hint?: string;
}

const unknown = (details: string) => new DecodeError('WALLET_FILE_UNKNOWN', 'Not a wallet export file of the official ThePower wallets', { details });
const corrupt = (details: string, cause?: unknown) => new DecodeError('WALLET_FILE_CORRUPT', 'The wallet export file is damaged', { details, cause });

/** The file's text: UTF-8 when it is valid UTF-8, else one character per byte, as the SDK reads the plain layout. */
function asText(input: string | Uint8Array): string {
  if (typeof input === 'string') return input;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return Array.from(input, (b) => String.fromCharCode(b)).join('');
  }
}

/** The oldest layout: [one byte?] 8 address bytes, then the WIF, unencrypted (as parseExportData reads it). */
function readPlain(text: string): WalletExport {
  const first = text.charCodeAt(0);
  const offset = first >= 0x80 && first <= 0xbf ? 0 : 1;
  const bytes = Array.from(text.slice(offset, offset + ADDRESS_LENGTH), (c) => c.charCodeAt(0));
  if (bytes.length !== ADDRESS_LENGTH || bytes.some((b) => b > 0xff) || bytes[0] < 0x80 || bytes[0] > 0xbf) {
    throw unknown('neither the JSON first line, the encrypted PEM blocks, nor the address and WIF of the oldest wallets');
  }
  let secretKey: Uint8Array;
  try {
    secretKey = wifToSecretKey(text.slice(offset + ADDRESS_LENGTH));
  } catch (cause) {
    throw unknown(`after 8 address bytes comes no WIF (${(cause as Error).message})`);
  }
  const address = addressToText(Uint8Array.from(bytes));
  return { secretKey, address, hint: '', layout: 'plain' };
}

/** The JSON first line, or undefined when the file starts with its PEM blocks. */
function readHeader(text: string): { hint: string } | undefined {
  const firstLine = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')).trim();
  if (!firstLine.startsWith('{')) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(firstLine);
  } catch {
    // A JSON document of several lines (a tpkit key file, say) is no export at all.
    if (!text.includes('-----BEGIN ')) throw unknown('a JSON file, but not a wallet export (its first line is not {"version":2,…})');
    throw corrupt('the first line starts as JSON but is not valid JSON');
  }
  const { version, hint } = (header ?? {}) as { version?: unknown; hint?: unknown };
  if (version !== WALLET_EXPORT_VERSION) throw unknown(`the first line names version ${JSON.stringify(version)}; version 2 is the one known`);
  if (hint !== undefined && typeof hint !== 'string') throw corrupt('"hint" is not text');
  return { hint: hint ?? '' };
}

function blockPair(text: string): { key: PemBlock; address: PemBlock } {
  let blocks: PemBlock[];
  try {
    blocks = parsePemBlocks(text);
  } catch (cause) {
    throw corrupt((cause as Error).message, cause);
  }
  const key = blocks.filter((b) => b.label === KEY_LABEL);
  const address = blocks.filter((b) => b.label === ADDRESS_LABEL);
  if (key.length !== 1) throw corrupt(key.length ? `${key.length} ${KEY_LABEL} blocks` : `no ${KEY_LABEL} block`);
  if (address.length !== 1) throw corrupt(address.length ? `${address.length} ${ADDRESS_LABEL} blocks` : `no ${ADDRESS_LABEL} block (the address)`);
  if (blocks.length !== 2) throw corrupt(`a block labelled ${blocks.find((b) => b.label !== KEY_LABEL && b.label !== ADDRESS_LABEL)?.label}`);
  return { key: key[0], address: address[0] };
}

type Opened<T> = { ok: T } | { failed: string };

function open<T>(block: PemBlock, passphrase: string, read: (der: Uint8Array) => T): Opened<T> {
  let plain: Uint8Array | undefined;
  try {
    plain = decryptPemBlock(block, passphrase);
  } catch (cause) {
    if (cause instanceof PemFormatError) throw corrupt(cause.message, cause);
    throw cause;
  }
  if (!plain) return { failed: 'its padding is wrong after decryption' };
  try {
    return { ok: read(plain) };
  } catch (cause) {
    if (cause instanceof DerShapeError) return { failed: cause.message };
    throw cause;
  }
}

/**
 * Opens an official wallet export (all three layouts) with its passphrase. Throws
 * DecodeError WALLET_FILE_UNKNOWN (not an export), WALLET_FILE_CORRUPT (a block missing,
 * malformed, or not opening while the other does), CryptoError WALLET_PASSPHRASE
 * (neither block opens) or KEY_CURVE (a key on another curve).
 */
export function readWalletExport(file: string | Uint8Array, passphrase: string): WalletExport {
  if (typeof file !== 'string' && !(file instanceof Uint8Array)) throw new ArgumentError(`"file" expected a string or Uint8Array, got ${describeValue(file)}`);
  if (typeof passphrase !== 'string') throw new ArgumentError(`"passphrase" expected a string, got ${describeValue(passphrase)}`);
  if (file.length > MAX_EXPORT_LENGTH) throw unknown(`${file.length} ${typeof file === 'string' ? 'characters' : 'bytes'}; an export is under 1 KiB`);
  const text = asText(file).replace(/^\uFEFF/, '');
  const header = readHeader(text);
  if (!header && !/^\s*-----BEGIN /.test(text)) return readPlain(text);
  const blocks = blockPair(text);
  const key = open(blocks.key, passphrase, (der) => {
    try {
      return readKeyDer(der);
    } catch (cause) {
      // A well-formed key on another curve: the passphrase was right.
      if (cause instanceof OtherCurveError) throw new CryptoError('KEY_CURVE', `The wallet export holds a key on ${cause.curve}`, { details: 'ThePower keys are secp256k1', cause });
      throw cause;
    }
  });
  const address = open(blocks.address, passphrase, readAddressDer);
  if ('failed' in key && 'failed' in address) throw new CryptoError('WALLET_PASSPHRASE', 'The passphrase does not open the wallet export file', { details: 'neither block decrypts' });
  if ('failed' in key) throw corrupt(`the ${KEY_LABEL} block does not open while the address block does: ${key.failed}`);
  if ('failed' in address) throw corrupt(`the ${ADDRESS_LABEL} block (the address) does not open while the key block does: ${address.failed}`);
  let secretKey: Uint8Array;
  try {
    secretKey = toSecretKeyBytes(key.ok);
  } catch (cause) {
    throw corrupt('the key block holds no valid secp256k1 secret key', cause);
  }
  let addressText: string;
  try {
    addressText = addressToText(address.ok);
  } catch (cause) {
    throw corrupt('the address block holds no valid address', cause);
  }
  return { secretKey, address: addressText, hint: header?.hint ?? '', layout: header ? 'v2' : 'pem' };
}

/**
 * An export file the official wallets open (version 2: JSON line, key block, address block).
 * Its encryption is weak (one MD5 per guess): keep the file private and the passphrase long.
 */
export function writeWalletExport(options: WriteWalletExportOptions): string {
  if (options === null || typeof options !== 'object') throw new ArgumentError(`"options" expected an object, got ${describeValue(options)}`);
  const { passphrase, hint = '' } = options;
  const secretKey = toSecretKeyBytes(options.secretKey);
  const address = parseAddress(options.address, 'address');
  if (typeof passphrase !== 'string' || passphrase === '') throw new ArgumentError('"passphrase" expected a non-empty string');
  if (typeof hint !== 'string' || hint.length > MAX_HINT_LENGTH) throw new ArgumentError(`"hint" expected a string of at most ${MAX_HINT_LENGTH} characters`);
  if (hint === passphrase) throw new ArgumentError('"hint" is the passphrase; the hint is stored in the clear');
  const header = JSON.stringify({ version: WALLET_EXPORT_VERSION, hint });
  const keyBlock = encryptPemBlock(KEY_LABEL, writeKeyDer(secretKey), passphrase);
  const addressBlock = encryptPemBlock(ADDRESS_LABEL, writeAddressDer(address), passphrase);
  return `${header}\n${keyBlock}\n${addressBlock}\n`;
}
