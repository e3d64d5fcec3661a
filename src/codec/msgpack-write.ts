// MessagePack writer with the rules signed bytes need: every integer in its smallest form
// (unsigned forms for values >= 0, whether number or bigint), strings as str, bytes as bin,
// floats only when wrapped in MsgFloat, and a non-integer number is an error rather than a
// silent float.

import { ValidationError } from '../errors.js';
import { MSGPACK_MAX_DEPTH, MsgExt, MsgFloat, Uint64, type MsgKey, type MsgValue } from './msgpack-types.js';
import { utf8Encode } from './utf8.js';

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const TWO_32 = 2 ** 32;

export interface MsgEncodeOptions {
  /** Deepest nesting of arrays and maps (default 32); also stops cyclic structures. */
  maxDepth?: number;
  /** Name of the value in error messages (default "value"). */
  label?: string;
}

function unsupported(path: string, what: string): ValidationError {
  return new ValidationError('MSGPACK_UNSUPPORTED', `"${path}" ${what}`);
}

class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  u8u8(a: number, b: number): void {
    this.ensure(2);
    this.buf[this.pos++] = a;
    this.buf[this.pos++] = b;
  }

  u8u16(a: number, b: number): void {
    this.ensure(3);
    const buf = this.buf;
    const p = this.pos;
    buf[p] = a;
    buf[p + 1] = b >>> 8;
    buf[p + 2] = b;
    this.pos = p + 3;
  }

  u8u32(a: number, b: number): void {
    this.ensure(5);
    const buf = this.buf;
    const p = this.pos;
    buf[p] = a;
    buf[p + 1] = b >>> 24;
    buf[p + 2] = b >>> 16;
    buf[p + 3] = b >>> 8;
    buf[p + 4] = b;
    this.pos = p + 5;
  }

  /** A safe integer as uint 64 without a BigInt round trip. */
  u8u64Number(a: number, n: number): void {
    this.u8u32(a, Math.floor(n / TWO_32));
    this.ensure(4);
    const buf = this.buf;
    const p = this.pos;
    const lo = n >>> 0;
    buf[p] = lo >>> 24;
    buf[p + 1] = lo >>> 16;
    buf[p + 2] = lo >>> 8;
    buf[p + 3] = lo;
    this.pos = p + 4;
  }

  u8u64(a: number, b: bigint): void {
    this.ensure(9);
    this.buf[this.pos++] = a;
    this.view.setBigUint64(this.pos, b);
    this.pos += 8;
  }

  u8i64(a: number, b: bigint): void {
    this.ensure(9);
    this.buf[this.pos++] = a;
    this.view.setBigInt64(this.pos, b);
    this.pos += 8;
  }

  bytes(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }
}

function writeUintNumber(w: ByteWriter, n: number): void {
  if (n < 0x80) w.u8(n);
  else if (n < 0x100) w.u8u8(0xcc, n);
  else if (n < 0x10000) w.u8u16(0xcd, n);
  else if (n < TWO_32) w.u8u32(0xce, n);
  else w.u8u64Number(0xcf, n);
}

function writeIntNumber(w: ByteWriter, n: number): void {
  if (n >= -32) w.u8(n & 0xff);
  else if (n >= -0x80) w.u8u8(0xd0, n & 0xff);
  else if (n >= -0x8000) w.u8u16(0xd1, n & 0xffff);
  else if (n >= -0x80000000) w.u8u32(0xd2, n >>> 0);
  else w.u8i64(0xd3, BigInt(n));
}

function writeNumber(w: ByteWriter, n: number, path: string): void {
  if (!Number.isInteger(n)) {
    throw unsupported(path, `expected an integer, got ${n} (wrap it in MsgFloat to write a float)`);
  }
  if (!Number.isSafeInteger(n)) throw unsupported(path, `is an integer above 2^53 (${n}); pass it as a bigint`);
  if (n >= 0) writeUintNumber(w, n);
  else writeIntNumber(w, n);
}

function writeBigInt(w: ByteWriter, n: bigint, path: string): void {
  if (n >= 0n) {
    if (n < 0x100000000n) writeUintNumber(w, Number(n));
    else if (n <= UINT64_MAX) w.u8u64(0xcf, n);
    else throw unsupported(path, `is above 2^64-1 (${n})`);
  } else {
    if (n >= -0x80000000n) writeIntNumber(w, Number(n));
    else if (n >= INT64_MIN) w.u8i64(0xd3, n);
    else throw unsupported(path, `is below -2^63 (${n})`);
  }
}

function writeStr(w: ByteWriter, text: string, path: string): void {
  // Short ASCII text (every key and most protocol strings) goes straight into the buffer:
  // no intermediate Uint8Array per string. Measured on the 82-byte generic body: about 30 %
  // of encodeMsgpack's time went to those allocations.
  const length = text.length;
  if (length < 32) {
    w.ensure(1 + length);
    const start = w.pos;
    const buf = w.buf;
    buf[start] = 0xa0 | length;
    let i = 0;
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      buf[start + 1 + i] = c;
    }
    if (i === length) {
      w.pos = start + 1 + length;
      return;
    }
  }
  const bytes = utf8Encode(text, path);
  const n = bytes.length;
  if (n < 32) w.u8(0xa0 | n);
  else if (n < 0x100) w.u8u8(0xd9, n);
  else if (n < 0x10000) w.u8u16(0xda, n);
  else if (n < TWO_32) w.u8u32(0xdb, n);
  else throw unsupported(path, `is too long (${n} bytes)`);
  w.bytes(bytes);
}

function writeBin(w: ByteWriter, bytes: Uint8Array, path: string): void {
  const n = bytes.length;
  if (n < 0x100) w.u8u8(0xc4, n);
  else if (n < 0x10000) w.u8u16(0xc5, n);
  else if (n < TWO_32) w.u8u32(0xc6, n);
  else throw unsupported(path, `is too long (${n} bytes)`);
  w.bytes(bytes);
}

function writeArrayHeader(w: ByteWriter, n: number): void {
  if (n < 16) w.u8(0x90 | n);
  else if (n < 0x10000) w.u8u16(0xdc, n);
  else w.u8u32(0xdd, n);
}

function writeMapHeader(w: ByteWriter, n: number): void {
  if (n < 16) w.u8(0x80 | n);
  else if (n < 0x10000) w.u8u16(0xde, n);
  else w.u8u32(0xdf, n);
}

function writeFloat(w: ByteWriter, f: MsgFloat, path: string): void {
  if (f.width === 32) {
    if (Math.fround(f.value) !== f.value && !Number.isNaN(f.value)) {
      throw unsupported(path, `float ${f.value} has no exact 32-bit form`);
    }
    w.ensure(5);
    w.buf[w.pos++] = 0xca;
    w.view.setFloat32(w.pos, f.value);
    w.pos += 4;
  } else {
    w.ensure(9);
    w.buf[w.pos++] = 0xcb;
    w.view.setFloat64(w.pos, f.value);
    w.pos += 8;
  }
}

function writeExt(w: ByteWriter, e: MsgExt, path: string): void {
  const n = e.data.length;
  const type = e.extType & 0xff;
  const fixed = [1, 2, 4, 8, 16].indexOf(n);
  if (fixed >= 0) w.u8u8(0xd4 + fixed, type);
  else if (n < 0x100) {
    w.u8u8(0xc7, n);
    w.u8(type);
  } else if (n < 0x10000) {
    w.u8u16(0xc8, n);
    w.u8(type);
  } else if (n < TWO_32) {
    w.u8u32(0xc9, n);
    w.u8(type);
  } else throw unsupported(path, `ext data is too long (${n} bytes)`);
  w.bytes(e.data);
}

function isPlainObject(value: object): value is { readonly [key: string]: MsgValue } {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function writeKey(w: ByteWriter, key: MsgKey, path: string): void {
  if (typeof key === 'string') writeStr(w, key, path);
  else if (key instanceof Uint8Array) writeBin(w, key, path);
  else if (typeof key === 'number') writeNumber(w, key, path);
  else if (typeof key === 'bigint') writeBigInt(w, key, path);
  else throw unsupported(path, `map key must be a string, Uint8Array, number or bigint, got ${describe(key)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (Object.getPrototypeOf(value)?.constructor?.name as string | undefined) ?? 'object';
}

function writeValue(w: ByteWriter, value: MsgValue, path: string, depth: number, maxDepth: number): void {
  switch (typeof value) {
    case 'number':
      return writeNumber(w, value, path);
    case 'bigint':
      return writeBigInt(w, value, path);
    case 'string':
      return writeStr(w, value, path);
    case 'boolean':
      return w.u8(value ? 0xc3 : 0xc2);
    case 'object':
      break;
    default:
      throw unsupported(path, `cannot be written: ${typeof value}`);
  }
  if (value === null) return w.u8(0xc0);
  if (value instanceof Uint8Array) return writeBin(w, value, path);
  if (value instanceof Uint64) return w.u8u64(0xcf, value.value);
  if (value instanceof MsgFloat) return writeFloat(w, value, path);
  if (value instanceof MsgExt) return writeExt(w, value, path);
  if (depth >= maxDepth) {
    throw new ValidationError('MSGPACK_LIMIT', `"${path}" is nested deeper than ${maxDepth} levels`);
  }
  if (Array.isArray(value)) {
    const items = value as readonly MsgValue[];
    writeArrayHeader(w, items.length);
    for (let i = 0; i < items.length; i++) writeValue(w, items[i], `${path}[${i}]`, depth + 1, maxDepth);
    return;
  }
  if (value instanceof Map) {
    writeMapHeader(w, value.size);
    for (const [key, item] of value as ReadonlyMap<MsgKey, MsgValue>) {
      const keyPath = `${path}.${typeof key === 'string' ? key : describe(key)}`;
      writeKey(w, key, keyPath);
      writeValue(w, item, keyPath, depth + 1, maxDepth);
    }
    return;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    writeMapHeader(w, keys.length);
    for (const key of keys) {
      writeStr(w, key, `${path}.${key}`);
      writeValue(w, value[key], `${path}.${key}`, depth + 1, maxDepth);
    }
    return;
  }
  throw unsupported(path, `cannot be written: ${describe(value)}`);
}

/**
 * Encodes a value as MessagePack by tpkit's rules (see the file comment). Throws
 * ValidationError MSGPACK_UNSUPPORTED for anything without a defined form (undefined, a
 * non-integer number, a function, a Date...) and MSGPACK_LIMIT past `maxDepth`.
 */
export function encodeMsgpack(value: MsgValue, options: MsgEncodeOptions = {}): Uint8Array {
  const w = new ByteWriter(256);
  writeValue(w, value, options.label ?? 'value', 0, options.maxDepth ?? MSGPACK_MAX_DEPTH);
  return w.buf.slice(0, w.pos);
}
