// The two shapes MessagePack data takes in tpkit.
//
// MsgValue is what the writer accepts: plain JS values, where integers and strings map to
// one wire form each and the wire forms JS cannot express (float, fixed-width uint64, ext)
// are explicit wrapper classes.
//
// MsgNode is what the reader returns: a tree that keeps what the wire said (uint vs int vs
// float, str vs bin, the first byte, where each value sits), because signed bytes are
// checked exactly as received and a JS value cannot tell float 1.0 from int 1.

import { ArgumentError } from '../errors.js';

const UINT64_MAX = (1n << 64n) - 1n;

/** A float on the wire. Plain numbers never become floats; wrap them in this class to ask for one. */
export class MsgFloat {
  constructor(
    readonly value: number,
    readonly width: 32 | 64 = 64,
  ) {
    if (typeof value !== 'number') throw new ArgumentError(`"MsgFloat.value" expected a number, got ${typeof value}`);
    if (width !== 32 && width !== 64) throw new ArgumentError(`"MsgFloat.width" expected 32 or 64, got ${String(width)}`);
  }
}

/**
 * An unsigned integer always written as `cf` + 8 big-endian bytes, whatever its size: the
 * register body's `t` and `nonce` use it so the nonce can be patched in place.
 */
export class Uint64 {
  readonly value: bigint;
  constructor(value: bigint | number) {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new ArgumentError(`"Uint64" expected a safe integer or bigint, got ${value}`);
      value = BigInt(value);
    }
    if (typeof value !== 'bigint' || value < 0n || value > UINT64_MAX) {
      throw new ArgumentError(`"Uint64" expected 0 to 2^64-1, got ${String(value)}`);
    }
    this.value = value;
  }
}

/** An extension value (type -128..127 and its raw data). tpkit defines no ext types; this keeps them intact. */
export class MsgExt {
  constructor(
    readonly extType: number,
    readonly data: Uint8Array,
  ) {
    if (!Number.isInteger(extType) || extType < -128 || extType > 127) {
      throw new ArgumentError(`"MsgExt.extType" expected -128 to 127, got ${extType}`);
    }
    if (!(data instanceof Uint8Array)) throw new ArgumentError('"MsgExt.data" expected Uint8Array');
  }
}

export type MsgKey = string | Uint8Array | number | bigint;

/**
 * Values the writer accepts. Plain objects are maps with string keys in property order (JS
 * puts integer-like keys such as "1" first; use a Map when that order matters).
 */
export type MsgValue = null | boolean | number | bigint | string | Uint8Array | MsgFloat | Uint64 | MsgExt | readonly MsgValue[] | ReadonlyMap<MsgKey, MsgValue> | { readonly [key: string]: MsgValue };

interface NodeBase {
  /** Byte offset of the value's first byte in the decoded input. */
  offset: number;
  /** Byte offset just after the value. */
  end: number;
  /** The value's first byte, which names its wire format (e.g. 0xcf for uint 64). */
  marker: number;
}

export interface MsgNilNode extends NodeBase {
  type: 'nil';
}
export interface MsgBoolNode extends NodeBase {
  type: 'bool';
  value: boolean;
}
/** Positive fixint or `cc`-`cf`. Integers are always bigint in the tree, whatever their width. */
export interface MsgUintNode extends NodeBase {
  type: 'uint';
  value: bigint;
}
/** Negative fixint or `d0`-`d3` (which may hold a non-negative value). */
export interface MsgIntNode extends NodeBase {
  type: 'int';
  value: bigint;
}
export interface MsgFloatNode extends NodeBase {
  type: 'float';
  value: number;
  width: 32 | 64;
}
/**
 * `value` is the text; invalid UTF-8 is not an error, its sequences read as U+FFFD there.
 * `bytes` are the exact bytes (a view into the input).
 */
export interface MsgStrNode extends NodeBase {
  type: 'str';
  value: string;
  bytes: Uint8Array;
}
/** `value` is a view into the input, not a copy. */
export interface MsgBinNode extends NodeBase {
  type: 'bin';
  value: Uint8Array;
}
export interface MsgArrayNode extends NodeBase {
  type: 'array';
  items: MsgNode[];
}
/** Entries in wire order; duplicate keys are kept (the caller decides what they mean). */
export interface MsgMapNode extends NodeBase {
  type: 'map';
  entries: [MsgNode, MsgNode][];
}
export interface MsgExtNode extends NodeBase {
  type: 'ext';
  extType: number;
  data: Uint8Array;
}

export type MsgNode = MsgNilNode | MsgBoolNode | MsgUintNode | MsgIntNode | MsgFloatNode | MsgStrNode | MsgBinNode | MsgArrayNode | MsgMapNode | MsgExtNode;

export type MsgNodeType = MsgNode['type'];

/** Nesting of arrays and maps allowed by default, in both directions. */
export const MSGPACK_MAX_DEPTH = 32;
/** Values (of any kind, nested ones included) one decode may produce by default. */
export const MSGPACK_MAX_ITEMS = 100_000;
