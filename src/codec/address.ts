// Wallet addresses: 8 bytes, a big-endian u64 whose top bits say public (100) or private (101).
//
//   public   100 GGGGGGGGGGGGGGGG BBBBBBBBBBBBBBBBBBBBB AAAAAAAAAAAAAAAAAAAAAAAA
//            group 16 bits, block 21 bits, wallet 24 bits
//   private  101 BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB AAAAAAAAAAAAAAAAAAAAAAAA
//            block 37 bits, wallet 24 bits
//
// Text, public (20 chars): two letters and two digits for the group (letters = group/100 in
// base 26, digits = group%100), the low 45 bits as 14 decimal digits, crc32(bytes) % 100 as 2
// digits. Private (18 chars): the low 61 bits as 16 hex digits, crc32(bytes) % 256 as 2 hex.

import { bytesToHex, hexToBytes } from '../bytes.js';
import { ArgumentError, DecodeError, ValidationError, describeValue } from '../errors.js';
import { crc32 } from './crc32.js';

export type AddressParts = { kind: 'public'; group: number; block: number; wallet: number } | { kind: 'private'; block: number; wallet: number };

export const ADDRESS_LENGTH = 8;

const PUBLIC_TAG = 4n; // top bits 100
const PRIVATE_TAG = 5n; // top bits 101
const LOW_45 = (1n << 45n) - 1n;
const LOW_61 = (1n << 61n) - 1n;
const MAX_GROUP = 0xffff;
const MAX_PUBLIC_BLOCK = 0x1fffff;
const MAX_PRIVATE_BLOCK = 2 ** 37 - 1;
const MAX_WALLET = 0xffffff;
const UINT64_MAX = (1n << 64n) - 1n;

function invalid(rule: string, input?: string): ValidationError {
  return new ValidationError('ADDRESS_INVALID', 'Invalid address', {
    details: input === undefined ? rule : `${rule}: "${input}"`,
  });
}

function malformed(rule: string, input: string): DecodeError {
  return new DecodeError('ADDRESS_INVALID', 'Invalid address', { details: `${rule}: "${input}"` });
}

function toBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = 0; i < bytes.length; i++) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

function fromBigInt(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

/** Validates bytes or a u64 as an address (8 bytes, top bits 100 or 101) and returns its u64. */
/** Validates address bytes (8 long, top bits 100 or 101) without BigInt work: body builders call this per field. */
function checkBytes(address: Uint8Array, label: string): void {
  if (address.length !== ADDRESS_LENGTH) {
    throw invalid(`"${label}" expected ${ADDRESS_LENGTH} bytes, got ${address.length}`);
  }
  const tag = address[0] >> 5;
  if (tag !== 4 && tag !== 5) {
    throw invalid(`top bits are ${tag.toString(2).padStart(3, '0')}, an address starts with 100 (public) or 101 (private)`);
  }
}

function checkedValue(address: Uint8Array | bigint, label = 'address'): bigint {
  let n: bigint;
  if (address instanceof Uint8Array) {
    checkBytes(address, label);
    return toBigInt(address);
  } else if (typeof address === 'bigint') {
    if (address < 0n || address > UINT64_MAX) throw invalid(`"${label}" is not a 64-bit value`);
    n = address;
  } else {
    throw new ArgumentError(`"${label}" expected 8 bytes or a bigint, got ${describeValue(address)}`);
  }
  const tag = n >> 61n;
  if (tag !== PUBLIC_TAG && tag !== PRIVATE_TAG) {
    throw invalid(`top bits are ${tag.toString(2).padStart(3, '0')}, an address starts with 100 (public) or 101 (private)`);
  }
  return n;
}

function checksumOf(n: bigint): number {
  return crc32(fromBigInt(n));
}

function groupText(group: number): string {
  const letters = Math.floor(group / 100);
  return String.fromCharCode(65 + Math.floor(letters / 26)) + String.fromCharCode(65 + (letters % 26)) + String(group % 100).padStart(2, '0');
}

/** The address as text: 20 chars for public addresses (`AA100000001677722412`), 18 for private. */
export function addressToText(address: Uint8Array | bigint): string {
  const n = checkedValue(address);
  const crc = checksumOf(n);
  if (n >> 61n === PRIVATE_TAG) {
    return (n & LOW_61).toString(16).toUpperCase().padStart(16, '0') + (crc % 256).toString(16).toUpperCase().padStart(2, '0');
  }
  const group = Number((n >> 45n) & 0xffffn);
  return groupText(group) + (n & LOW_45).toString().padStart(14, '0') + String(crc % 100).padStart(2, '0');
}

/** `0x` + 16 uppercase hex digits, as the reference node prints the `address` field. */
export function addressToHex(address: Uint8Array | bigint): string {
  return '0x' + bytesToHex(fromBigInt(checkedValue(address)), true);
}

/** The address as a u64. */
export function addressToBigInt(address: Uint8Array | bigint): bigint {
  return checkedValue(address);
}

/** Validated address bytes from a u64. */
export function addressFromBigInt(value: bigint): Uint8Array {
  return fromBigInt(checkedValue(value));
}

const LETTER = /^[A-Za-z]$/;
const DIGITS = /^[0-9]+$/;
const HEX = /^[0-9A-Fa-f]+$/;

/**
 * Parses address text: public text (letters in any case), private text, or `0x` + 16 hex
 * digits. Whitespace anywhere is ignored (addresses are often printed in groups of four).
 * Throws ADDRESS_INVALID naming the broken rule, or ADDRESS_CHECKSUM.
 */
/** Longest address text read: 0x + 16 hex digits or 20 characters, with room for spaces. */
const MAX_ADDRESS_TEXT = 64;

export function addressFromText(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ArgumentError(`"address" expected a string, got ${describeValue(text)}`);
  if (text.length > MAX_ADDRESS_TEXT) {
    throw new DecodeError('ADDRESS_INVALID', 'Invalid address', { details: `expected at most ${MAX_ADDRESS_TEXT} characters, got ${text.length}` });
  }
  const clean = text.replace(/\s+/g, '');
  if (clean.startsWith('0x') || clean.startsWith('0X')) {
    const digits = clean.slice(2);
    if (digits.length !== 16 || !HEX.test(digits)) throw malformed('expected 0x and 16 hex digits', text);
    const bytes = hexToBytes(digits);
    checkedValue(bytes);
    return bytes;
  }
  if (clean.length === 20) return publicFromText(clean, text);
  if (clean.length === 18) return privateFromText(clean, text);
  throw malformed(`expected 20 characters (public), 18 (private) or 0x + 16 hex digits, got ${clean.length}`, text);
}

function publicFromText(clean: string, text: string): Uint8Array {
  if (!LETTER.test(clean[0]) || !LETTER.test(clean[1])) throw malformed('a public address starts with two letters', text);
  if (!DIGITS.test(clean.slice(2))) throw malformed('a public address has 18 decimal digits after its two letters', text);
  const letters = (clean.charCodeAt(0) | 0x20) - 97;
  const letters2 = (clean.charCodeAt(1) | 0x20) - 97;
  const group = letters * 2600 + letters2 * 100 + Number(clean.slice(2, 4));
  if (group > MAX_GROUP) throw invalid(`group ${group} is above ${MAX_GROUP}`, text);
  const low = BigInt(clean.slice(4, 18));
  if (low > LOW_45) throw invalid(`the 14-digit part ${clean.slice(4, 18)} is above 2^45-1`, text);
  const n = (PUBLIC_TAG << 61n) | (BigInt(group) << 45n) | low;
  const expected = checksumOf(n) % 100;
  if (Number(clean.slice(18)) !== expected) {
    throw new ValidationError('ADDRESS_CHECKSUM', 'Address checksum does not match', {
      details: `"${text}" ends in ${clean.slice(18)}, the checksum is ${String(expected).padStart(2, '0')}`,
    });
  }
  return fromBigInt(n);
}

function privateFromText(clean: string, text: string): Uint8Array {
  if (!HEX.test(clean)) throw malformed('a private address is 18 hex digits', text);
  const low = BigInt('0x' + clean.slice(0, 16));
  if (low > LOW_61) throw invalid('the 16-hex-digit part of a private address is above 2^61-1', text);
  const n = (PRIVATE_TAG << 61n) | low;
  const expected = checksumOf(n) % 256;
  if (parseInt(clean.slice(16), 16) !== expected) {
    throw new ValidationError('ADDRESS_CHECKSUM', 'Address checksum does not match', {
      details: `"${text}" ends in ${clean.slice(16).toUpperCase()}, the checksum is ${expected.toString(16).toUpperCase().padStart(2, '0')}`,
    });
  }
  return fromBigInt(n);
}

/**
 * Any address input -> validated 8 bytes (a fresh copy): text as addressFromText reads it,
 * or raw bytes, which must be 8 long with top bits 100 or 101.
 */
export function parseAddress(input: string | Uint8Array, label = 'address'): Uint8Array {
  if (typeof input === 'string') return addressFromText(input);
  if (input instanceof Uint8Array) {
    checkBytes(input, label);
    return input.slice();
  }
  throw new ArgumentError(`"${label}" expected address text or 8 bytes, got ${describeValue(input)}`);
}

/** True when parseAddress would accept the input. */
export function isAddress(input: unknown): boolean {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return false;
  try {
    parseAddress(input);
    return true;
  } catch {
    return false;
  }
}

/** Splits an address into its fields. */
export function addressParts(address: Uint8Array | bigint): AddressParts {
  const n = checkedValue(address);
  const wallet = Number(n & 0xffffffn);
  if (n >> 61n === PRIVATE_TAG) return { kind: 'private', block: Number((n >> 24n) & 0x1fffffffffn), wallet };
  return { kind: 'public', group: Number((n >> 45n) & 0xffffn), block: Number((n >> 24n) & 0x1fffffn), wallet };
}

function field(value: unknown, name: string, max: number): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new ArgumentError(`"${name}" expected an integer 0 to ${max}, got ${typeof value === 'number' ? value : describeValue(value)}`);
  }
  return BigInt(value);
}

/**
 * Builds address bytes from fields: `{ group, block, wallet }` (public; `kind: 'public'` may be
 * given) or `{ kind: 'private', block, wallet }`. Out-of-range fields are an ArgumentError.
 */
export function makeAddress(parts: { kind?: 'public'; group: number; block: number; wallet: number } | { kind: 'private'; block: number; wallet: number }): Uint8Array {
  if (parts === null || typeof parts !== 'object') throw new ArgumentError(`"parts" expected an object, got ${describeValue(parts)}`);
  const wallet = field(parts.wallet, 'wallet', MAX_WALLET);
  if (parts.kind === 'private') {
    return fromBigInt((PRIVATE_TAG << 61n) | (field(parts.block, 'block', MAX_PRIVATE_BLOCK) << 24n) | wallet);
  }
  if (parts.kind !== undefined && parts.kind !== 'public') {
    throw new ArgumentError(`"kind" expected "public" or "private", got ${String(parts.kind)}`);
  }
  const group = field(parts.group, 'group', MAX_GROUP);
  const block = field(parts.block, 'block', MAX_PUBLIC_BLOCK);
  return fromBigInt((PUBLIC_TAG << 61n) | (group << 45n) | (block << 24n) | wallet);
}

/** 12 zero bytes and an address: how EVM code and the official SDK write a ThePower address in 20 bytes. */
export const EVM_ADDRESS_LENGTH = 20;

/**
 * The 8-byte address inside its 20-byte form (12 zero bytes, then an address whose top bits
 * are 10), as the reference node's tx:parse_address narrows it; undefined for any other 20 bytes.
 */
export function addressFromEvmForm(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length !== EVM_ADDRESS_LENGTH) return undefined;
  for (let i = 0; i < EVM_ADDRESS_LENGTH - ADDRESS_LENGTH; i++) if (bytes[i] !== 0) return undefined;
  if (bytes[12] >> 6 !== 0b10) return undefined;
  return bytes.slice(EVM_ADDRESS_LENGTH - ADDRESS_LENGTH);
}
