// BSig layout (spec 2.7, reference bsig.erl): optional unsigned "local data" TLVs (tag 254),
// the signature TLV (tag 255, DER), then the signed TLVs. A TLV is tag (1 byte), length,
// value. The length is one byte below 128; a first length byte with the high bit set starts
// a 15-bit length over two bytes. The reference reads the signature and local-data lengths
// as one plain byte (no two-byte form), and so do we.

import { concatBytes, expectBytes } from '../bytes.js';
import { ArgumentError, DecodeError } from '../errors.js';

/** Tags the reference node knows, by the names it decodes them to. */
export const BSIG_TAG = {
  timestamp: 1, // u64 BE, ms
  pubkey: 2,
  createduration: 3, // u64 BE; the reference decodes tag 4 the same way
  poa: 5, // a nested BSig (proof of authority)
  expire: 6, // u64 BE, ms
  baldep: 7, // 8-byte address ‖ u64 seq
  other: 240, // key length (1 byte) ‖ key ‖ value
  purpose: 254, // text; before the signature the same tag holds unsigned local data
  signature: 255,
} as const;

export type BsigFieldName = keyof typeof BSIG_TAG | 'unknown';

const TAG_NAMES = new Map<number, BsigFieldName>((Object.entries(BSIG_TAG) as [BsigFieldName, number][]).map(([name, tag]) => [tag, name]));
TAG_NAMES.set(4, 'createduration');

export function bsigTagName(tag: number): BsigFieldName {
  return TAG_NAMES.get(tag) ?? 'unknown';
}

export interface BsigField {
  tag: number;
  name: BsigFieldName;
  value: Uint8Array;
}

export interface DecodedBsig {
  /** DER signature, as carried (not checked here). */
  signature: Uint8Array;
  /** The first pubkey TLV's value, as carried (not checked here). */
  publicKey: Uint8Array;
  /**
   * First 8-byte timestamp TLV: ms since the UNIX epoch, a number as every timestamp tpkit
   * decodes (body `t` too). A value above 2^53 (no clock's) is rounded; its exact bytes are
   * in `fields`. The reference ignores a timestamp of another length.
   */
  timestamp?: number;
  createDuration?: bigint;
  expire?: bigint;
  purpose?: string;
  other?: Uint8Array;
  /** Unsigned tag-254 data placed before the signature (the last one, as the reference keeps). */
  localData?: Uint8Array;
  /** The signed TLVs, in order. */
  fields: BsigField[];
  /** The bytes after the signature TLV: the signed TLVs exactly as received. */
  signedFields: Uint8Array;
}

export const MAX_TLV_LENGTH = 0x7fff;

function malformed(details: string): DecodeError {
  return new DecodeError('BSIG_MALFORMED', 'Malformed BSig', { details });
}

/** Decodes a run of TLVs (one- or two-byte lengths) that must end exactly at the end. */
export function decodeTlvs(bytes: Uint8Array): BsigField[] {
  const fields: BsigField[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const tag = bytes[pos];
    if (pos + 1 >= bytes.length) throw malformed(`tag ${tag} at ${pos} has no length`);
    let length = bytes[pos + 1];
    let header = 2;
    if (length & 0x80) {
      if (pos + 2 >= bytes.length) throw malformed(`tag ${tag} at ${pos}: two-byte length truncated`);
      length = ((length & 0x7f) << 8) | bytes[pos + 2];
      header = 3;
    }
    const start = pos + header;
    if (start + length > bytes.length) {
      throw malformed(`tag ${tag} at ${pos} declares ${length} bytes, ${bytes.length - start} remain`);
    }
    fields.push({ tag, name: bsigTagName(tag), value: bytes.slice(start, start + length) });
    pos = start + length;
  }
  return fields;
}

function u64(value: Uint8Array): bigint | undefined {
  if (value.length !== 8) return undefined;
  return new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0);
}

const utf8 = new TextDecoder();

/**
 * Splits a BSig into its signature and signed fields. Truncated data or a length past the end
 * is BSIG_MALFORMED; no signature TLV (after any local data) or no pubkey is BSIG_MISSING_FIELD.
 */
export function decodeBsig(bsig: Uint8Array): DecodedBsig {
  expectBytes(bsig, 'bsig');
  let pos = 0;
  let localData: Uint8Array | undefined;
  while (pos < bsig.length && bsig[pos] === BSIG_TAG.purpose) {
    if (pos + 1 >= bsig.length) throw malformed('local data TLV has no length');
    const end = pos + 2 + bsig[pos + 1];
    if (end > bsig.length) throw malformed(`local data declares ${bsig[pos + 1]} bytes, ${bsig.length - pos - 2} remain`);
    localData = bsig.slice(pos + 2, end);
    pos = end;
  }
  if (pos >= bsig.length || bsig[pos] !== BSIG_TAG.signature) {
    throw new DecodeError('BSIG_MISSING_FIELD', 'BSig has no signature', {
      details: pos >= bsig.length ? 'empty' : `expected tag 255 at ${pos}, got ${bsig[pos]}`,
      field: 'signature',
    });
  }
  if (pos + 1 >= bsig.length) throw malformed('signature TLV has no length');
  const sigEnd = pos + 2 + bsig[pos + 1];
  if (sigEnd > bsig.length) throw malformed(`signature declares ${bsig[pos + 1]} bytes, ${bsig.length - pos - 2} remain`);
  const signature = bsig.slice(pos + 2, sigEnd);
  const signedFields = bsig.slice(sigEnd);
  const fields = decodeTlvs(signedFields);

  const first = (tag: number) => fields.find((f) => f.tag === tag)?.value;
  const firstU64 = (...tags: number[]) => {
    for (const f of fields) if (tags.includes(f.tag) && f.value.length === 8) return u64(f.value);
    return undefined;
  };
  const publicKey = first(BSIG_TAG.pubkey);
  if (publicKey === undefined) {
    throw new DecodeError('BSIG_MISSING_FIELD', 'BSig has no public key', { details: 'no TLV with tag 2', field: 'pubkey' });
  }
  const decoded: DecodedBsig = { signature, publicKey, fields, signedFields };
  const timestamp = firstU64(BSIG_TAG.timestamp);
  if (timestamp !== undefined) decoded.timestamp = Number(timestamp);
  const createDuration = firstU64(BSIG_TAG.createduration, 4);
  if (createDuration !== undefined) decoded.createDuration = createDuration;
  const expire = firstU64(BSIG_TAG.expire);
  if (expire !== undefined) decoded.expire = expire;
  const purpose = first(BSIG_TAG.purpose);
  if (purpose !== undefined) decoded.purpose = utf8.decode(purpose);
  const other = first(BSIG_TAG.other);
  if (other !== undefined) decoded.other = other;
  if (localData !== undefined) decoded.localData = localData;
  return decoded;
}

/** One TLV; lengths from 128 to 32767 take the two-byte form. */
export function encodeTlv(tag: number, value: Uint8Array): Uint8Array {
  if (!Number.isInteger(tag) || tag < 0 || tag > 255) throw new ArgumentError(`"tag" expected an integer 0..255, got ${tag}`);
  expectBytes(value, `value of tag ${tag}`);
  if (value.length > MAX_TLV_LENGTH) {
    throw new ArgumentError(`value of tag ${tag} expected at most ${MAX_TLV_LENGTH} bytes, got ${value.length}`);
  }
  const header = value.length < 0x80 ? 2 : 3;
  const out = new Uint8Array(header + value.length);
  out[0] = tag;
  if (header === 2) out[1] = value.length;
  else {
    out[1] = 0x80 | (value.length >> 8);
    out[2] = value.length & 0xff;
  }
  out.set(value, header);
  return out;
}

/** The 8-byte big-endian form of a u64 field (timestamp, createduration, expire). */
export function u64Bytes(value: number | bigint, label: string): Uint8Array {
  const big = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof big !== 'bigint' || big < 0n || big > 0xffffffffffffffffn) {
    throw new ArgumentError(`"${label}" expected an integer 0..2^64-1, got ${typeof value === 'number' || typeof value === 'bigint' ? String(value) : typeof value}`);
  }
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, big);
  return out;
}

/** Lays out a BSig: optional local data, the signature TLV, then the signed TLVs given as bytes. */
export function encodeBsig(signature: Uint8Array, signedFields: Uint8Array, localData?: Uint8Array): Uint8Array {
  expectBytes(signature, 'signature');
  expectBytes(signedFields, 'signedFields');
  if (signature.length > 0xff) throw new ArgumentError(`"signature" expected at most 255 bytes, got ${signature.length}`);
  const parts: Uint8Array[] = [];
  if (localData !== undefined) {
    expectBytes(localData, 'localData');
    if (localData.length > 0xff) throw new ArgumentError(`"localData" expected at most 255 bytes, got ${localData.length}`);
    parts.push(Uint8Array.of(BSIG_TAG.purpose, localData.length), localData);
  }
  parts.push(Uint8Array.of(BSIG_TAG.signature, signature.length), signature, signedFields);
  return concatBytes(...parts);
}

/** The TLV bytes of a list of fields, in order. */
export function encodeTlvs(fields: readonly { tag: number; value: Uint8Array }[]): Uint8Array {
  return concatBytes(...fields.map((f) => encodeTlv(f.tag, f.value)));
}
