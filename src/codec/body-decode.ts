// decodeBody: bytes -> a typed body with readable field names.
//
// Liberal in what other clients emit, because the node checks signatures over the exact
// bytes it received and never re-encodes: integers in any width including signed d0-d3,
// currency and addresses as str or bin, str or bin map keys, any key order, keys it does
// not know (kept in `raw`), payload items longer than 3 elements (R8: the extra elements are
// ignored; tpkit's encoder never writes them, R9), `e` as an empty bin (an old client form
// the reference node also reads as an empty map).
//
// Strict where the spec forbids: a float where an integer belongs (BODY_FLOAT_AMOUNT),
// negative amounts, seq, timestamps or purposes, addresses that are not 8 bytes, missing
// mandatory keys, payload items shorter than 3, unknown kinds, and a key that appears twice
// (BODY_BAD_FIELD): two readers of one signed body must never see different values.
// Every error names the field (`field`, e.g. "p[1].amount").

import { bytesFromInput } from '../bytes.js';
import { TpkitError, ValidationError, type ErrorCode } from '../errors.js';
import { addressFromEvmForm, EVM_ADDRESS_LENGTH } from './address.js';
import { kindName, purposeName } from './constants.js';
import { decodeMsgpack } from './msgpack-read.js';
import type { MsgMapNode, MsgNode, MsgValue } from './msgpack-types.js';
import { msgpackToValue } from './msgpack-value.js';
import { utf8DecodeStrict } from './utf8.js';
import type { Body, BodyCall, BodyExtra, ChkeyBody, GenericBody, NotifyBody, OtherBody, OtherKindName, PayloadItem, RegisterBody } from './body-types.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function fail(code: ErrorCode, field: string, details: string): ValidationError {
  return new ValidationError(code, `Invalid body field "${field}"`, { field, details });
}

function describeNode(node: MsgNode): string {
  switch (node.type) {
    case 'uint':
    case 'int':
      return `${node.type} ${node.value}`;
    case 'float':
      return `float ${node.value}`;
    case 'str':
      return `str of ${node.bytes.length} bytes`;
    case 'bin':
      return `bin of ${node.value.length} bytes`;
    case 'array':
      return `array of ${node.items.length}`;
    case 'map':
      return `map of ${node.entries.length}`;
    default:
      return node.type;
  }
}

/** Text of a str or bin node (UTF-8), or undefined for other nodes and invalid UTF-8. */
function textOf(node: MsgNode): string | undefined {
  if (node.type === 'str') return utf8DecodeStrict(node.bytes);
  if (node.type === 'bin') return utf8DecodeStrict(node.value);
  return undefined;
}

/** Top-level fields by name (str or bin keys). Other key types are left to `raw`. */
export function indexFields(map: MsgMapNode, where: string): Map<string, MsgNode> {
  const fields = new Map<string, MsgNode>();
  for (const [key, value] of map.entries) {
    const name = textOf(key);
    if (name === undefined) continue;
    if (fields.has(name)) {
      const field = where ? `${where}.${name}` : name;
      throw fail('BODY_BAD_FIELD', field, `key "${name}" appears twice (second at offset ${key.offset})`);
    }
    fields.set(name, value);
  }
  return fields;
}

export function required(fields: Map<string, MsgNode>, name: string): MsgNode {
  const node = fields.get(name);
  if (node === undefined) throw fail('BODY_MISSING_FIELD', name, `mandatory key "${name}" is missing`);
  return node;
}

function integer(node: MsgNode, field: string): bigint {
  if (node.type === 'uint' || node.type === 'int') return node.value;
  if (node.type === 'float') throw fail('BODY_FLOAT_AMOUNT', field, `expected an integer, got float ${node.value}`);
  throw fail('BODY_BAD_FIELD', field, `expected an integer, got ${describeNode(node)}`);
}

export function unsigned(node: MsgNode, field: string): bigint {
  const value = integer(node, field);
  if (value < 0n) throw fail('BODY_BAD_FIELD', field, `expected a non-negative integer, got ${value}`);
  return value;
}

export function safeUnsigned(node: MsgNode, field: string): number {
  const value = unsigned(node, field);
  if (value > SAFE) throw fail('BODY_BAD_FIELD', field, `${value} is above 2^53-1`);
  return Number(value);
}

function bytesOf(node: MsgNode): Uint8Array | undefined {
  if (node.type === 'bin') return node.value;
  if (node.type === 'str') return node.bytes;
  return undefined;
}

export function address(node: MsgNode, field: string): Uint8Array {
  const bytes = bytesOf(node);
  if (bytes === undefined) throw fail('BODY_BAD_FIELD', field, `expected an 8-byte address, got ${describeNode(node)}`);
  if (bytes.length !== 8) throw fail('BODY_BAD_FIELD', field, `expected an 8-byte address, got ${bytes.length} bytes`);
  return bytes.slice();
}

/** A recipient: 8 bytes, or the 20-byte form of a ThePower address (the SDK's token send writes it), read as its 8 bytes. */
function recipient(node: MsgNode, field: string): Uint8Array {
  const bytes = bytesOf(node);
  if (bytes?.length === EVM_ADDRESS_LENGTH) {
    const inner = addressFromEvmForm(bytes);
    if (inner) return inner;
    throw fail('BODY_BAD_FIELD', field, 'expected an 8-byte address or its 20-byte form (12 zero bytes, then the address), got 20 bytes that are neither');
  }
  return address(node, field);
}

function toValue(node: MsgNode, field: string): MsgValue {
  try {
    return msgpackToValue(node, field);
  } catch (cause) {
    const details = cause instanceof TpkitError ? (cause.details ?? cause.message) : String(cause);
    throw new ValidationError('BODY_BAD_FIELD', `Invalid body field "${field}"`, { field, details, cause });
  }
}

export function payload(node: MsgNode): PayloadItem[] {
  if (node.type !== 'array') throw fail('BODY_BAD_FIELD', 'p', `expected an array of payload items, got ${describeNode(node)}`);
  return node.items.map((item, i) => {
    const field = `p[${i}]`;
    if (item.type !== 'array') throw fail('BODY_BAD_PAYLOAD', field, `expected [purpose, currency, amount], got ${describeNode(item)}`);
    if (item.items.length < 3) throw fail('BODY_BAD_PAYLOAD', field, `expected [purpose, currency, amount], got ${item.items.length} elements`);
    const purpose = safeUnsigned(item.items[0], `${field}.purpose`);
    const currencyNode = item.items[1];
    if (currencyNode.type !== 'str' && currencyNode.type !== 'bin') {
      throw fail('BODY_BAD_FIELD', `${field}.currency`, `expected bin or str, got ${describeNode(currencyNode)}`);
    }
    const currency = textOf(currencyNode);
    if (currency === undefined) throw fail('BODY_BAD_FIELD', `${field}.currency`, 'currency name is not UTF-8');
    const amount = unsigned(item.items[2], `${field}.amount`);
    const name = purposeName(purpose);
    return name === undefined ? { purpose, purposeNumber: purpose, currency, amount } : { purpose: name, purposeNumber: purpose, purposeName: name, currency, amount };
  });
}

export function call(node: MsgNode): BodyCall {
  if (node.type !== 'array' || node.items.length !== 2) {
    throw fail('BODY_BAD_FIELD', 'c', `expected [method, args], got ${describeNode(node)}`);
  }
  const method = textOf(node.items[0]);
  if (method === undefined) throw fail('BODY_BAD_FIELD', 'c.method', `expected a string, got ${describeNode(node.items[0])}`);
  const args = node.items[1];
  if (args.type !== 'array') throw fail('BODY_BAD_FIELD', 'c.args', `expected an array, got ${describeNode(args)}`);
  return { method, args: args.items.map((arg, i) => toValue(arg, `c.args[${i}]`)) };
}

export function extra(node: MsgNode): BodyExtra {
  if ((node.type === 'bin' && node.value.length === 0) || (node.type === 'str' && node.bytes.length === 0)) return {};
  if (node.type !== 'map') throw fail('BODY_BAD_FIELD', 'e', `expected a map, got ${describeNode(node)}`);
  const out: BodyExtra = {};
  for (const [name, value] of indexFields(node, 'e')) {
    const field = `e.${name}`;
    const converted = toValue(value, field);
    if (name === '__proto__') Object.defineProperty(out, name, { value: converted, enumerable: true, writable: true, configurable: true });
    else out[name] = converted;
  }
  if (Object.keys(out).length !== node.entries.length) {
    const bad = node.entries.find(([key]) => textOf(key) === undefined)!;
    throw fail('BODY_BAD_FIELD', 'e', `keys must be str or bin text, got ${describeNode(bad[0])} at offset ${bad[0].offset}`);
  }
  return out;
}

function optionalTail(fields: Map<string, MsgNode>): { call?: BodyCall; extra?: BodyExtra } {
  const out: { call?: BodyCall; extra?: BodyExtra } = {};
  const c = fields.get('c');
  if (c !== undefined) out.call = call(c);
  const e = fields.get('e');
  if (e !== undefined) out.extra = extra(e);
  return out;
}

function generic(fields: Map<string, MsgNode>, raw: MsgMapNode): GenericBody {
  return {
    kind: 'generic',
    kindNumber: 16,
    from: address(required(fields, 'f'), 'f'),
    to: recipient(required(fields, 'to'), 'to'),
    seq: unsigned(required(fields, 's'), 's'),
    timestamp: safeUnsigned(required(fields, 't'), 't'),
    payload: payload(required(fields, 'p')),
    ...optionalTail(fields),
    raw,
  };
}

function notify(fields: Map<string, MsgNode>, raw: MsgMapNode): NotifyBody {
  return {
    kind: 'notify',
    kindNumber: 23,
    from: address(required(fields, 'f'), 'f'),
    seq: unsigned(required(fields, 's'), 's'),
    timestamp: safeUnsigned(required(fields, 't'), 't'),
    payload: payload(required(fields, 'p')),
    ...optionalTail(fields),
    raw,
  };
}

function register(fields: Map<string, MsgNode>, raw: MsgMapNode): RegisterBody {
  const timestamp = safeUnsigned(required(fields, 't'), 't');
  const h = required(fields, 'h');
  if (h.type !== 'bin' || h.value.length !== 32) throw fail('BODY_BAD_FIELD', 'h', `expected a 32-byte bin, got ${describeNode(h)}`);
  const body: RegisterBody = { kind: 'register', kindNumber: 17, timestamp, keysHash: h.value.slice(), raw };
  const nonce = fields.get('nonce') ?? fields.get('pow');
  if (nonce !== undefined) body.nonce = nonce.type === 'uint' || nonce.type === 'int' ? nonce.value : nonce;
  const e = fields.get('e');
  if (e !== undefined) body.extra = extra(e);
  return body;
}

function chkey(fields: Map<string, MsgNode>, raw: MsgMapNode): ChkeyBody {
  const from = address(required(fields, 'f'), 'f');
  const seq = unsigned(required(fields, 's'), 's');
  const timestamp = safeUnsigned(required(fields, 't'), 't');
  const y = required(fields, 'y');
  if (y.type !== 'array' || y.items.length === 0) throw fail('BODY_BAD_FIELD', 'y', `expected a non-empty array of keys, got ${describeNode(y)}`);
  const publicKeys = y.items.map((key, i) => {
    if (key.type !== 'bin' || key.value.length === 0) throw fail('BODY_BAD_FIELD', `y[${i}]`, `expected a public key as bin, got ${describeNode(key)}`);
    return key.value.slice();
  });
  return { kind: 'chkey', kindNumber: 24, from, seq, timestamp, publicKeys, raw };
}

/**
 * Decodes a transaction body (raw bytes, hex or base64). See the file comment for what is
 * accepted. Throws ValidationError BODY_* naming the field, DecodeError MSGPACK_* for bytes
 * that are not one MessagePack value, and BAD_INPUT_ENCODING / INVALID_ARGUMENT for input
 * that is not bytes, hex or base64. Byte fields in the result are copies.
 */
export function decodeBody(input: Uint8Array | string): Body {
  const bytes = bytesFromInput(input, 'body');
  const root = decodeMsgpack(bytes);
  if (root.type !== 'map') {
    throw new ValidationError('BODY_NOT_MAP', 'Transaction body is not a map', { details: `got ${describeNode(root)}` });
  }
  const fields = indexFields(root, '');
  const k = safeUnsigned(required(fields, 'k'), 'k');
  const name = kindName(k);
  if (name === undefined) throw fail('BODY_UNKNOWN_KIND', 'k', `kind ${k} is not in tx_const.json`);
  switch (name) {
    case 'generic':
      return generic(fields, root);
    case 'notify':
      return notify(fields, root);
    case 'register':
      return register(fields, root);
    case 'chkey':
      return chkey(fields, root);
    default: {
      const out: Record<string, MsgValue> = {};
      for (const [key, value] of fields) {
        const converted = toValue(value, key);
        if (key === '__proto__') Object.defineProperty(out, key, { value: converted, enumerable: true, writable: true, configurable: true });
        else out[key] = converted;
      }
      const body: OtherBody = { kind: name as OtherKindName, kindNumber: k, fields: out, raw: root };
      return body;
    }
  }
}
