// MsgNode tree -> plain values the writer accepts, so canonical data survives
// decode -> convert -> encode byte for byte.

import { DecodeError } from '../errors.js';
import { MsgExt, MsgFloat, type MsgKey, type MsgNode, type MsgValue } from './msgpack-types.js';
import { bytesToHex } from '../bytes.js';

/** A safe integer as a number, anything larger as a bigint. */
export function integerValue(value: bigint): number | bigint {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}

function keyIdentity(node: MsgNode): string {
  switch (node.type) {
    case 'str':
      return `s:${node.value}`;
    case 'bin':
      return `b:${bytesToHex(node.value)}`;
    case 'uint':
    case 'int':
      return `i:${node.value}`;
    default:
      return `o:${node.offset}`;
  }
}

/** Sets a property even when it is named "__proto__", which plain assignment would not create. */
function setOwn(target: Record<string, MsgValue>, key: string, value: MsgValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function duplicate(node: MsgNode, path: string): DecodeError {
  return new DecodeError('MSGPACK_DUPLICATE_KEY', 'MessagePack map holds a key twice', {
    details: `map "${path}" repeats a key at offset ${node.offset}`,
    field: path,
  });
}

/**
 * Converts a decoded tree into writer values: nil -> null, integers -> number when safe else
 * bigint, float -> MsgFloat (keeping its width), str -> string, bin -> a copied Uint8Array,
 * ext -> MsgExt, a map whose keys are all str -> a plain object, any other map -> a Map
 * (str keys -> string, bin -> Uint8Array, integers -> number/bigint; other key types throw
 * MSGPACK_UNSUPPORTED, the tree keeps them).
 * A map that repeats a key throws DecodeError MSGPACK_DUPLICATE_KEY: silently keeping one
 * of two values would let two readers of the same signed bytes disagree.
 */
export function msgpackToValue(node: MsgNode, path = 'value'): MsgValue {
  switch (node.type) {
    case 'nil':
      return null;
    case 'bool':
      return node.value;
    case 'uint':
    case 'int':
      return integerValue(node.value);
    case 'float':
      return new MsgFloat(node.value, node.width);
    case 'str':
      return node.value;
    case 'bin':
      return node.value.slice();
    case 'ext':
      return new MsgExt(node.extType, node.data.slice());
    case 'array':
      return node.items.map((item, i) => msgpackToValue(item, `${path}[${i}]`));
    case 'map': {
      const seen = new Set<string>();
      for (const [key] of node.entries) {
        const id = keyIdentity(key);
        if (seen.has(id)) throw duplicate(key, path);
        seen.add(id);
      }
      if (node.entries.every(([key]) => key.type === 'str')) {
        const out: Record<string, MsgValue> = {};
        for (const [key, value] of node.entries) {
          const name = (key as { value: string }).value;
          setOwn(out, name, msgpackToValue(value, `${path}.${name}`));
        }
        return out;
      }
      const out = new Map<MsgKey, MsgValue>();
      for (const [key, value] of node.entries) {
        if (key.type !== 'str' && key.type !== 'bin' && key.type !== 'uint' && key.type !== 'int') {
          throw new DecodeError('MSGPACK_UNSUPPORTED', 'MessagePack map key has no plain value form', {
            details: `map "${path}" has a ${key.type} key at offset ${key.offset}; read the MsgNode tree instead`,
            field: path,
          });
        }
        const mapKey = msgpackToValue(key, path) as MsgKey;
        out.set(mapKey, msgpackToValue(value, `${path}.${keyIdentity(key).slice(2)}`));
      }
      return out;
    }
  }
}
