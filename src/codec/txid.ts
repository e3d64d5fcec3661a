// Transaction ids: base58(varint(chain) ‖ varint(height) ‖ varint(time ns)) + "-" + node name.

import { ArgumentError, DecodeError, describeValue } from '../errors.js';
import { concatBytes } from '../bytes.js';
import { base58Decode, base58Encode } from './base58.js';
import { decodeVarint, encodeVarint } from './varint.js';

export interface TxidParts {
  chain: number;
  height: number;
  /** Time the node accepted the transaction, nanoseconds since the UNIX epoch. */
  timeNs: bigint;
  node: string;
}

// Characters a URL path segment carries unescaped (RFC 3986 pchar without '%'): txids go in
// /api/tx/status/{txid}.
const NODE_NAME = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Longest txid read: three varints in base58 (at most 44 characters), '-', a node name. */
const MAX_TXID_TEXT = 256;

function invalid(details: string): DecodeError {
  return new DecodeError('TXID_INVALID', 'Invalid transaction id', { details });
}

function nonNegative(value: unknown, label: string, max?: bigint): number | bigint {
  const ok = typeof value === 'bigint' ? value >= 0n && (max === undefined || value <= max) : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  if (ok) {
    return value as number | bigint;
  }
  throw new ArgumentError(`"${label}" expected a non-negative integer, got ${typeof value === 'number' || typeof value === 'bigint' ? String(value) : describeValue(value)}`);
}

export function encodeTxid(parts: { chain: number | bigint; height: number | bigint; timeNs: bigint | number; node: string }): string {
  if (parts === null || typeof parts !== 'object') throw new ArgumentError(`"txid" expected an object, got ${describeValue(parts)}`);
  if (typeof parts.node !== 'string' || !NODE_NAME.test(parts.node)) {
    throw new ArgumentError(`"node" expected a non-empty name of URL-safe characters, got ${typeof parts.node === 'string' ? JSON.stringify(parts.node) : describeValue(parts.node)}`);
  }
  const bytes = concatBytes(encodeVarint(nonNegative(parts.chain, 'chain', SAFE)), encodeVarint(nonNegative(parts.height, 'height', SAFE)), encodeVarint(nonNegative(parts.timeNs, 'timeNs')));
  return `${base58Encode(bytes)}-${parts.node}`;
}

/**
 * Splits a txid into its parts. The node name is everything after the first '-'. Throws
 * DecodeError TXID_INVALID for a missing '-', a bad base58 character, a truncated varint,
 * bytes after the third varint, an empty or non-URL-safe node name, or a chain/height above 2^53.
 */
export function decodeTxid(txid: string): TxidParts {
  if (typeof txid !== 'string') throw new ArgumentError(`"txid" expected a string, got ${describeValue(txid)}`);
  if (txid.length > MAX_TXID_TEXT) throw invalid(`expected at most ${MAX_TXID_TEXT} characters, got ${txid.length}`);
  const dash = txid.indexOf('-');
  if (dash < 0) throw invalid(`"${txid}" has no '-' before the node name`);
  const encoded = txid.slice(0, dash);
  const node = txid.slice(dash + 1);
  if (encoded.length === 0) throw invalid(`"${txid}" has nothing before the '-'`);
  if (!NODE_NAME.test(node)) throw invalid(`"${txid}" has an empty or non-URL-safe node name`);
  const bytes = base58Decode(encoded, 'TXID_INVALID');
  const chain = decodeVarint(bytes, 0);
  const height = decodeVarint(bytes, chain.end);
  const time = decodeVarint(bytes, height.end);
  if (time.end !== bytes.length) throw invalid(`"${txid}" has ${bytes.length - time.end} bytes after its three numbers`);
  const safe = (v: bigint, label: string) => {
    if (v > SAFE) throw invalid(`${label} ${v} is above 2^53-1`);
    return Number(v);
  };
  return { chain: safe(chain.value, 'chain'), height: safe(height.value, 'height'), timeNs: time.value, node };
}
