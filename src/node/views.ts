// JSON shapes of the API answers (spec 2.1/2.2 and the reference node's field names). Hashes
// and keys are uppercase hex, as the reference prints them; amounts are exact integers.

import { bytesToHex } from '../bytes.js';
import { addressToHex, addressToText } from '../codec/address.js';
import { decodeBody } from '../codec/body-decode.js';
import type { PayloadItem } from '../codec/body-types.js';
import { decodeTx } from '../codec/container.js';
import { MsgExt, MsgFloat, Uint64, type MsgValue } from '../codec/msgpack-types.js';
import { decodeBsig } from '../crypto/bsig-tlv.js';
import { publicKeyToPem } from '../crypto/pem.js';
import type { BlockRecord } from './block.js';
import type { JsonValue } from './json.js';
import type { Wallet } from './wallet.js';

/**
 * The wallet record (spec 2.1). Fields that only smart-contract wallets fill in the reference
 * node are present with neutral values: code 0 (no code bytes), contract ["", ""] (no VM
 * name/version), state 0 (no state entries), usk 0 (no SK spent today), view [] and vm "".
 */
export function walletInfo(w: Wallet, pubkeyFormat: string | null): { [key: string]: JsonValue } {
  let pubkey = '';
  if (w.pubkey) pubkey = pubkeyFormat === 'pem' ? publicKeyToPem(w.pubkey) : pubkeyFormat === 'b64' ? Buffer.from(w.pubkey).toString('base64') : bytesToHex(w.pubkey, true);
  const amount: { [key: string]: JsonValue } = {};
  for (const [cur, value] of w.amount) amount[cur] = value;
  return {
    amount,
    lastblk: bytesToHex(w.lastblk, true),
    preblk: bytesToHex(w.preblk, true),
    pubkey,
    seq: w.seq,
    t: w.t,
    code: 0,
    contract: ['', ''],
    state: 0,
    usk: 0,
    view: [],
    vm: '',
  };
}

/** Envelope 2.2: the result, `address` as 0x hex and `txtaddress` as text. */
export function withAddress(address: Uint8Array, body: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  return { ...body, address: addressToHex(address), txtaddress: addressToText(address), ok: true };
}

export function headerView(r: BlockRecord): { [key: string]: JsonValue } {
  return { ...r.header, roots: { ...r.header.roots } };
}

/** A stored wallet as a block lists it under `bals`, keyed by uppercase address hex. */
export function storedWalletView(stored: unknown): JsonValue {
  const s = stored as { pubkey: string | null; amount: Record<string, string>; seq: string; t: number; lastblk: string; preblk: string };
  const amount: { [key: string]: JsonValue } = {};
  for (const [cur, v] of Object.entries(s.amount)) amount[cur] = BigInt(v);
  return {
    amount,
    pubkey: s.pubkey ? s.pubkey.toUpperCase() : '',
    seq: BigInt(s.seq),
    t: s.t,
    lastblk: s.lastblk.toUpperCase(),
    preblk: s.preblk.toUpperCase(),
  };
}

/** A MessagePack value (body `e`, call args) as JSON: bytes as 0x hex, exact integers. */
export function msgValueJson(value: MsgValue): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return '0x' + bytesToHex(value, true);
  if (value instanceof MsgFloat) return value.value;
  if (value instanceof Uint64) return value.value;
  if (value instanceof MsgExt) return { ext: value.extType, data: '0x' + bytesToHex(value.data, true) };
  if (Array.isArray(value)) return value.map(msgValueJson);
  const out: { [key: string]: JsonValue } = {};
  const entries: Iterable<[unknown, MsgValue]> = value instanceof Map ? value : Object.entries(value);
  for (const [k, v] of entries) out[k instanceof Uint8Array ? '0x' + bytesToHex(k, true) : String(k)] = msgValueJson(v);
  return out;
}

function signatureView(bsig: Uint8Array): JsonValue {
  try {
    const d = decodeBsig(bsig);
    const extra: { [key: string]: JsonValue } = { pubkey: bytesToHex(d.publicKey, true) };
    if (d.timestamp !== undefined) extra.timestamp = d.timestamp;
    return { signature: bytesToHex(d.signature, true), extra };
  } catch {
    return { raw: bytesToHex(bsig, true) };
  }
}

function payloadView(payload: readonly PayloadItem[]): JsonValue {
  return payload.map((p) => ({ purpose: p.purposeName ?? p.purpose, cur: p.currency, amount: p.amount }));
}

/** A stored transaction as block answers list it (after the reference node's prettify_tx). */
export function txView(raw: Uint8Array, registeredAddress?: string): { [key: string]: JsonValue } {
  const container = decodeTx(raw);
  const body = decodeBody(container.body);
  const out: { [key: string]: JsonValue } = { kind: body.kind, ver: container.ver };
  switch (body.kind) {
    case 'generic':
    case 'notify':
      out.from = bytesToHex(body.from, true);
      if (body.kind === 'generic') out.to = bytesToHex(body.to, true);
      out.seq = body.seq;
      out.t = body.timestamp;
      out.payload = payloadView(body.payload);
      if (body.call) out.call = { method: body.call.method, args: body.call.args.map(msgValueJson) };
      if (body.extra) out.txext = msgValueJson(body.extra);
      break;
    case 'register':
      out.keysh = bytesToHex(body.keysHash, true);
      out.t = body.timestamp;
      if (registeredAddress) out.address = registeredAddress;
      break;
    case 'chkey':
      out.from = bytesToHex(body.from, true);
      out.seq = body.seq;
      out.t = body.timestamp;
      out.keys = body.publicKeys.map((k) => bytesToHex(k, true));
      break;
    default:
      break;
  }
  out.body = bytesToHex(container.body, true);
  out.sig = container.sigs.map(signatureView);
  return out;
}
