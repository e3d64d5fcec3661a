// The transaction container: a MessagePack map {body: bin, sig: [bin...], ver: 2}, plus
// `inv` (an invite code, register only) when present. Written as a fixmap in the order
// body, sig, ver, inv, the order the published containers use.

import { bytesFromInput, expectBytes } from '../bytes.js';
import { ArgumentError, ValidationError, describeValue } from '../errors.js';
import { decodeMsgpack } from './msgpack-read.js';
import { encodeMsgpack } from './msgpack-write.js';
import type { MsgNode, MsgValue } from './msgpack-types.js';
import { utf8DecodeStrict } from './utf8.js';

export const TX_VERSION = 2;

export interface Tx {
  /** The exact body bytes; signatures cover these. */
  body: Uint8Array;
  /** One BSig container per signature. */
  sigs: Uint8Array[];
  ver: number;
  /** Invite code sent with a register transaction. */
  inv?: Uint8Array;
}

export interface TxInput {
  body: Uint8Array;
  sigs: readonly Uint8Array[];
  /** Only 2 is accepted. */
  ver?: number;
  inv?: Uint8Array;
}

export function encodeTx(tx: TxInput): Uint8Array {
  if (tx === null || typeof tx !== 'object') throw new ArgumentError(`"tx" expected an object, got ${describeValue(tx)}`);
  const body = expectBytes(tx.body, 'body');
  if (!Array.isArray(tx.sigs)) throw new ArgumentError(`"sigs" expected an array of Uint8Array, got ${describeValue(tx.sigs)}`);
  const sigs = tx.sigs.map((sig, i) => expectBytes(sig, `sigs[${i}]`));
  if (tx.ver !== undefined && tx.ver !== TX_VERSION) throw new ArgumentError(`"ver" expected 2, got ${String(tx.ver)}`);
  const fields = new Map<string, MsgValue>([
    ['body', body],
    ['sig', sigs],
    ['ver', TX_VERSION],
  ]);
  if (tx.inv !== undefined) fields.set('inv', expectBytes(tx.inv, 'inv'));
  return encodeMsgpack(fields, { label: 'tx' });
}

function bad(field: string, details: string): ValidationError {
  return new ValidationError('TX_BAD_FIELD', `Invalid transaction field "${field}"`, { field, details });
}

function kindOf(node: MsgNode): string {
  return node.type === 'bin' ? `bin of ${node.value.length} bytes` : node.type;
}

/**
 * Decodes a container given as raw bytes, hex or base64. Keys may be str or bin; unknown keys
 * are ignored. Throws ValidationError TX_NOT_MAP, TX_MISSING_KEY, TX_BAD_FIELD (a key with the
 * wrong type, or a key given twice), TX_BAD_VERSION; DecodeError MSGPACK_* for bytes that are
 * not one MessagePack value. Returned bytes are copies.
 */
export function decodeTx(input: Uint8Array | string): Tx {
  const bytes = bytesFromInput(input, 'tx');
  const root = decodeMsgpack(bytes);
  if (root.type !== 'map') {
    throw new ValidationError('TX_NOT_MAP', 'Transaction container is not a map', { details: `got ${root.type}` });
  }
  const fields = new Map<string, MsgNode>();
  for (const [key, value] of root.entries) {
    const name = key.type === 'str' ? utf8DecodeStrict(key.bytes) : key.type === 'bin' ? utf8DecodeStrict(key.value) : undefined;
    if (name === undefined) continue;
    if (fields.has(name)) throw bad(name, `key "${name}" appears twice`);
    fields.set(name, value);
  }
  const get = (name: string): MsgNode => {
    const node = fields.get(name);
    if (node === undefined) {
      throw new ValidationError('TX_MISSING_KEY', `Transaction container lacks "${name}"`, { field: name });
    }
    return node;
  };

  const ver = get('ver');
  if (ver.type !== 'uint' && ver.type !== 'int') throw bad('ver', `expected the integer 2, got ${kindOf(ver)}`);
  if (ver.value !== BigInt(TX_VERSION)) {
    throw new ValidationError('TX_BAD_VERSION', 'Unsupported transaction version', { field: 'ver', details: `expected 2, got ${ver.value}` });
  }
  const body = get('body');
  if (body.type !== 'bin') throw bad('body', `expected bin, got ${kindOf(body)}`);
  const sig = get('sig');
  if (sig.type !== 'array') throw bad('sig', `expected an array of bin, got ${kindOf(sig)}`);
  const sigs = sig.items.map((item, i) => {
    if (item.type !== 'bin') throw bad(`sig[${i}]`, `expected bin, got ${kindOf(item)}`);
    return item.value.slice();
  });
  const tx: Tx = { body: body.value.slice(), sigs, ver: TX_VERSION };
  const inv = fields.get('inv');
  if (inv !== undefined) {
    if (inv.type === 'bin') tx.inv = inv.value.slice();
    else if (inv.type === 'str') tx.inv = inv.bytes.slice();
    else throw bad('inv', `expected bin or str, got ${kindOf(inv)}`);
  }
  return tx;
}
