// What `tpkit decode` shows: a transaction turned into JSON-safe facts (decimal amounts, each
// signature's key, time and validity). Data only: an address is its text under its own name
// with the hex under name + "Hex"; a time is ms under its name with the ISO date under name +
// "Iso". The terminal view joins each pair back into one line.

import { bytesToHex } from '../bytes.js';
import { addressToText } from '../codec/address.js';
import { decodeDeployBody } from '../codec/body-deploy-decode.js';
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
  signatures: { publicKey: string; timestamp: number | string | null; timestampIso: string | null; valid: boolean; reason?: string }[];
  powBits?: number;
}

function isoDate(ms: number | bigint): string | null {
  const date = new Date(Number(ms));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** ms as a JSON number, or as decimal text where a number would round it. */
function exactNumber(value: number | bigint): number | string {
  return typeof value === 'number' || (value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER)) ? Number(value) : value.toString();
}

/** `name`: ms since the epoch; `nameIso`: the same instant as an ISO date (null when it is none). */
function timeFields(name: string, ms: number | bigint): { [field: string]: Readable } {
  return { [name]: exactNumber(ms), [`${name}Iso`]: isoDate(ms) };
}

/** `name`: the address as text (null when the bytes are not a valid address); `nameHex`: its bytes. */
function addressFields(name: string, address: Uint8Array): { [field: string]: Readable } {
  let text: string | null = null;
  try {
    text = addressToText(address);
  } catch {
    // Shown as hex only.
  }
  return { [name]: text, [`${name}Hex`]: `0x${bytesToHex(address, true)}` };
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
      const fields: { [field: string]: Readable } = addressFields('from', body.from);
      if (body.kind === 'generic') Object.assign(fields, addressFields('to', body.to));
      fields.seq = body.seq.toString();
      Object.assign(fields, timeFields('timestamp', body.timestamp));
      fields.payload = body.payload.map((item) => ({
        purpose: String(item.purpose),
        currency: item.currency,
        amount: item.amount.toString(),
      }));
      if (body.call) fields.call = { method: body.call.method, args: body.call.args.map(readableValue) };
      if (body.extra) fields.extra = readableValue(body.extra);
      return fields;
    }
    case 'register': {
      const fields: { [field: string]: Readable } = { ...timeFields('timestamp', body.timestamp), keysHash: bytesToHex(body.keysHash, true) };
      fields.nonce = body.nonce === undefined ? null : typeof body.nonce === 'bigint' ? body.nonce.toString() : body.nonce.type;
      if (body.extra) fields.extra = readableValue(body.extra);
      return fields;
    }
    case 'chkey':
      return {
        ...addressFields('from', body.from),
        seq: body.seq.toString(),
        ...timeFields('timestamp', body.timestamp),
        publicKeys: body.publicKeys.map((key) => bytesToHex(key, true)),
      };
    case 'deploy': {
      const deploy = decodeDeployBody(body);
      return {
        ...addressFields('from', deploy.from),
        seq: deploy.seq.toString(),
        ...timeFields('timestamp', deploy.timestamp),
        payload: deploy.payload.map((item) => ({ purpose: item.purposeName ?? item.purpose, currency: item.currency, amount: item.amount.toString() })),
        vm: deploy.vm,
        code: `${deploy.code.length} bytes`,
        ...(deploy.args ? { constructorArgs: '0x' + bytesToHex(deploy.args) } : {}),
      };
    }
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
        timestamp: check.timestamp === undefined ? null : exactNumber(check.timestamp),
        timestampIso: check.timestamp === undefined ? null : isoDate(check.timestamp),
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
  return text
    .split('\n')
    .map((line) => by + line)
    .join('\n');
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

/** A field and its companion on one line: "AA10… (0x8001…)", "1795602331096 (2026-…Z)". */
function withCompanion(fields: { [field: string]: Readable }, name: string): string {
  const value = fields[name];
  if (`${name}Hex` in fields) return value === null ? `${fields[`${name}Hex`]} (not a valid address)` : `${value} (${fields[`${name}Hex`]})`;
  if (`${name}Iso` in fields) return `${value} (${fields[`${name}Iso`] ?? 'not a date'})`;
  return formatReadable(value);
}

const isCompanion = (fields: { [field: string]: Readable }, name: string) => /(Hex|Iso)$/.test(name) && name.replace(/(Hex|Iso)$/, '') in fields;

/** Kind and body fields as aligned lines; `width` is the name column. */
export function formatBody(e: Pick<TxExplanation, 'kind' | 'kindNumber' | 'body'>, width = Math.max(...Object.keys(e.body).map((k) => k.length), 9)): string[] {
  const lines = [`${'kind'.padEnd(width)}  ${e.kind} (${e.kindNumber})`];
  for (const [name, value] of Object.entries(e.body)) {
    if (isCompanion(e.body, name)) continue;
    if (name === 'payload' && Array.isArray(value)) {
      lines.push(name);
      for (const item of value as { purpose: string; currency: string; amount: string }[]) {
        lines.push(`  ${item.purpose.padEnd(10)} ${item.currency.padEnd(8)} ${item.amount}`);
      }
    } else {
      lines.push(`${name.padEnd(width)}  ${withCompanion(e.body, name)}`);
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
  const width = Math.max(
    ...Object.keys(e.body)
      .filter((k) => !isCompanion(e.body, k))
      .map((k) => k.length),
    9,
  );
  lines.push(...formatBody(e, width));
  if (e.powBits !== undefined) lines.push(`${'pow'.padEnd(width)}  ${e.powBits} leading zero bits of SHA-512(body)`);
  lines.push('signatures');
  e.signatures.forEach((s, i) => {
    lines.push(indent(`#${i + 1} ${s.valid ? 'valid' : `INVALID${s.reason ? ` (${s.reason})` : ''}`}`, '  '));
    lines.push(indent(`pubkey    ${s.publicKey}`, '     '));
    lines.push(indent(`timestamp ${s.timestamp === null ? 'none' : `${s.timestamp} (${s.timestampIso ?? 'not a date'})`}`, '     '));
  });
  return lines.join('\n');
}
