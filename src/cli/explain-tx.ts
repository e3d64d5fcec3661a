// What `tpkit decode` shows: a transaction turned into readable, JSON-safe facts
// (text addresses, decimal amounts, ISO dates, each signature's key, time and validity).

import { bytesToHex } from '../bytes.js';
import { addressToText } from '../codec/address.js';
import { decodeBody } from '../codec/body-decode.js';
import type { Body } from '../codec/body-types.js';
import { decodeTx } from '../codec/container.js';
import { MsgExt, MsgFloat, Uint64, type MsgValue } from '../codec/msgpack-types.js';
import { verifyBsig } from '../crypto/bsig.js';
import { powBits } from '../pow/bits.js';

export type Readable = string | number | boolean | null | Readable[] | { [key: string]: Readable };

export interface TxExplanation {
  container: { version: number; bytes: number; bodyBytes: number; signatures: number; invite?: Readable };
  kind: string;
  kindNumber: number;
  body: { [field: string]: Readable };
  signatures: { publicKey: string; timestamp: string | null; valid: boolean; reason?: string }[];
  powBits?: number;
}

function isoDate(ms: number | bigint): string {
  const date = new Date(Number(ms));
  return Number.isNaN(date.getTime()) ? 'not a date' : date.toISOString();
}

function timeField(ms: number | bigint): string {
  return `${ms} (${isoDate(ms)})`;
}

function addressField(address: Uint8Array): string {
  try {
    return `${addressToText(address)} (0x${bytesToHex(address, true)})`;
  } catch {
    return `0x${bytesToHex(address, true)} (not a valid address)`;
  }
}

/** Any decoded MessagePack value as JSON-safe text: bytes as hex, integers as decimal text when large. */
export function readableValue(value: MsgValue): Readable {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return `0x${bytesToHex(value)}`;
  if (value instanceof MsgFloat) return value.value;
  if (value instanceof Uint64) return value.value.toString();
  if (value instanceof MsgExt) return { ext: value.extType, data: `0x${bytesToHex(value.data)}` };
  if (Array.isArray(value)) return value.map(readableValue);
  if (value instanceof Map) {
    const out: { [key: string]: Readable } = {};
    for (const [k, v] of value) out[k instanceof Uint8Array ? `0x${bytesToHex(k)}` : String(k)] = readableValue(v);
    return out;
  }
  const out: { [key: string]: Readable } = {};
  for (const [k, v] of Object.entries(value as Record<string, MsgValue>)) out[k] = readableValue(v);
  return out;
}

function bodyFields(body: Body): { [field: string]: Readable } {
  switch (body.kind) {
    case 'generic':
    case 'notify': {
      const fields: { [field: string]: Readable } = { from: addressField(body.from) };
      if (body.kind === 'generic') fields.to = addressField(body.to);
      fields.seq = body.seq.toString();
      fields.timestamp = timeField(body.timestamp);
      fields.payload = body.payload.map((item) => ({
        purpose: item.purposeName ?? String(item.purpose),
        currency: item.currency,
        amount: item.amount.toString(),
      }));
      if (body.call) fields.call = { method: body.call.method, args: body.call.args.map(readableValue) };
      if (body.extra) fields.extra = readableValue(body.extra);
      return fields;
    }
    case 'register': {
      const fields: { [field: string]: Readable } = {
        timestamp: timeField(body.timestamp),
        keysHash: bytesToHex(body.keysHash, true),
      };
      fields.nonce = body.nonce === undefined ? null : typeof body.nonce === 'bigint' ? body.nonce.toString() : body.nonce.type;
      if (body.extra) fields.extra = readableValue(body.extra);
      return fields;
    }
    case 'chkey':
      return {
        from: addressField(body.from),
        seq: body.seq.toString(),
        timestamp: timeField(body.timestamp),
        publicKeys: body.publicKeys.map((key) => bytesToHex(key, true)),
      };
    default: {
      const fields: { [field: string]: Readable } = {};
      for (const [name, value] of Object.entries(body.fields)) fields[name] = readableValue(value);
      return fields;
    }
  }
}

/** Decodes and verifies a container (bytes, hex or base64); decode errors propagate as typed errors. */
export function explainTx(input: Uint8Array | string): TxExplanation {
  const tx = decodeTx(input);
  const body = decodeBody(tx.body);
  const raw = typeof input === 'string' ? null : input;
  const explanation: TxExplanation = {
    container: {
      version: tx.ver,
      bytes: raw ? raw.length : 0,
      bodyBytes: tx.body.length,
      signatures: tx.sigs.length,
    },
    kind: body.kind,
    kindNumber: body.kindNumber,
    body: bodyFields(body),
    signatures: tx.sigs.map((sig) => {
      const check = verifyBsig(sig, tx.body);
      return {
        publicKey: bytesToHex(check.publicKey, true),
        timestamp: check.timestamp === undefined ? null : timeField(check.timestamp),
        valid: check.valid,
        ...(check.reason ? { reason: check.details ? `${check.reason}: ${check.details}` : check.reason } : {}),
      };
    }),
  };
  if (tx.inv !== undefined) explanation.container.invite = readableValue(tx.inv as MsgValue);
  if (body.kind === 'register') explanation.powBits = powBits(tx.body);
  return explanation;
}

function indent(text: string, by: string): string {
  return text.split('\n').map((line) => by + line).join('\n');
}

function formatReadable(value: Readable): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A body alone, readable: its kind and fields (tpkit tx explains a transaction from its block). */
export function explainBody(bodyBytes: Uint8Array): Pick<TxExplanation, 'kind' | 'kindNumber' | 'body'> {
  const body = decodeBody(bodyBytes);
  return { kind: body.kind, kindNumber: body.kindNumber, body: bodyFields(body) };
}

/** Kind and body fields as aligned lines; `width` is the name column. */
export function formatBody(e: Pick<TxExplanation, 'kind' | 'kindNumber' | 'body'>, width = Math.max(...Object.keys(e.body).map((k) => k.length), 9)): string[] {
  const lines = [`${'kind'.padEnd(width)}  ${e.kind} (${e.kindNumber})`];
  for (const [name, value] of Object.entries(e.body)) {
    if (name === 'payload' && Array.isArray(value)) {
      lines.push(name);
      for (const item of value as { purpose: string; currency: string; amount: string }[]) {
        lines.push(`  ${item.purpose.padEnd(10)} ${item.currency.padEnd(8)} ${item.amount}`);
      }
    } else {
      lines.push(`${name.padEnd(width)}  ${formatReadable(value)}`);
    }
  }
  return lines;
}

/** The explanation as aligned text for a terminal. */
export function formatExplanation(e: TxExplanation): string {
  const lines: string[] = [];
  const c = e.container;
  lines.push(`container  v${c.version}, ${c.bytes ? `${c.bytes} bytes, ` : ''}body ${c.bodyBytes} bytes, ${c.signatures} signature${c.signatures === 1 ? '' : 's'}`);
  if (c.invite !== undefined) lines.push(`invite     ${formatReadable(c.invite)}`);
  const width = Math.max(...Object.keys(e.body).map((k) => k.length), 9);
  lines.push(...formatBody(e, width));
  if (e.powBits !== undefined) lines.push(`${'pow'.padEnd(width)}  ${e.powBits} leading zero bits of SHA-512(body)`);
  lines.push('signatures');
  e.signatures.forEach((s, i) => {
    lines.push(indent(`#${i + 1} ${s.valid ? 'valid' : `INVALID${s.reason ? ` (${s.reason})` : ''}`}`, '  '));
    lines.push(indent(`pubkey    ${s.publicKey}`, '     '));
    lines.push(indent(`timestamp ${s.timestamp ?? 'none'}`, '     '));
  });
  return lines.join('\n');
}
