// Strict MessagePack reader returning a MsgNode tree (see msgpack-types.ts).
//
// Strict means: the input is exactly one value (trailing bytes are an error), 0xc1 is an
// error, and every declared length is checked against the bytes that remain before anything
// is allocated, so a 5-byte input declaring a 4 GiB bin or a 4-billion-item array fails at
// once. Nesting and the total number of values are capped so hostile input cannot exhaust
// the stack or memory.

import { expectBytes } from '../bytes.js';
import { DecodeError } from '../errors.js';
import { MSGPACK_MAX_DEPTH, MSGPACK_MAX_ITEMS, type MsgNode } from './msgpack-types.js';
import { utf8Decode } from './utf8.js';

export interface MsgDecodeOptions {
  /** Deepest nesting of arrays and maps (default 32). */
  maxDepth?: number;
  /** Most values one decode may produce, nested ones included (default 100 000). */
  maxItems?: number;
}

function hex2(b: number): string {
  return b.toString(16).padStart(2, '0');
}

class Reader {
  readonly view: DataView;
  pos = 0;
  items = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly maxDepth: number,
    readonly maxItems: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  truncated(what: string, need: number): DecodeError {
    const left = this.bytes.length - this.pos;
    return new DecodeError('MSGPACK_TRUNCATED', 'MessagePack data is truncated', {
      details: `${what} at offset ${this.pos} needs ${need} bytes, ${left} remain`,
    });
  }

  need(n: number, what: string): void {
    if (this.pos + n > this.bytes.length) throw this.truncated(what, n);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++];
  }

  u16(what: string): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  take(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** An array or map declares `count` values of at least one byte each: check before allocating. */
  checkCount(count: number, bytesPerItem: number, what: string): void {
    if (count * bytesPerItem > this.bytes.length - this.pos) {
      throw new DecodeError('MSGPACK_TRUNCATED', 'MessagePack data is truncated', {
        details: `${what} at offset ${this.pos} declares ${count} items, only ${this.bytes.length - this.pos} bytes remain`,
      });
    }
    if (this.items + count > this.maxItems) {
      throw new DecodeError('MSGPACK_LIMIT', 'MessagePack value has too many items', {
        details: `more than ${this.maxItems} values`,
      });
    }
  }

  node(depth: number): MsgNode {
    const offset = this.pos;
    const marker = this.u8('value');
    this.items++;
    if (this.items > this.maxItems) {
      throw new DecodeError('MSGPACK_LIMIT', 'MessagePack value has too many items', { details: `more than ${this.maxItems} values` });
    }
    if (marker < 0x80) return { type: 'uint', value: BigInt(marker), offset, end: this.pos, marker };
    if (marker >= 0xe0) return { type: 'int', value: BigInt(marker - 0x100), offset, end: this.pos, marker };
    if (marker >= 0xa0 && marker <= 0xbf) return this.str(marker & 0x1f, offset, marker);
    if (marker >= 0x90 && marker <= 0x9f) return this.array(marker & 0x0f, offset, marker, depth);
    if (marker >= 0x80 && marker <= 0x8f) return this.map(marker & 0x0f, offset, marker, depth);
    switch (marker) {
      case 0xc0:
        return { type: 'nil', offset, end: this.pos, marker };
      case 0xc2:
      case 0xc3:
        return { type: 'bool', value: marker === 0xc3, offset, end: this.pos, marker };
      case 0xc4:
        return this.bin(this.u8('bin 8 length'), offset, marker);
      case 0xc5:
        return this.bin(this.u16('bin 16 length'), offset, marker);
      case 0xc6:
        return this.bin(this.u32('bin 32 length'), offset, marker);
      case 0xc7:
        return this.ext(this.u8('ext 8 length'), offset, marker);
      case 0xc8:
        return this.ext(this.u16('ext 16 length'), offset, marker);
      case 0xc9:
        return this.ext(this.u32('ext 32 length'), offset, marker);
      case 0xca: {
        this.need(4, 'float 32');
        const value = this.view.getFloat32(this.pos);
        this.pos += 4;
        return { type: 'float', value, width: 32, offset, end: this.pos, marker };
      }
      case 0xcb: {
        this.need(8, 'float 64');
        const value = this.view.getFloat64(this.pos);
        this.pos += 8;
        return { type: 'float', value, width: 64, offset, end: this.pos, marker };
      }
      case 0xcc:
        return { type: 'uint', value: BigInt(this.u8('uint 8')), offset, end: this.pos, marker };
      case 0xcd:
        return { type: 'uint', value: BigInt(this.u16('uint 16')), offset, end: this.pos, marker };
      case 0xce:
        return { type: 'uint', value: BigInt(this.u32('uint 32')), offset, end: this.pos, marker };
      case 0xcf: {
        this.need(8, 'uint 64');
        const value = this.view.getBigUint64(this.pos);
        this.pos += 8;
        return { type: 'uint', value, offset, end: this.pos, marker };
      }
      case 0xd0: {
        this.need(1, 'int 8');
        const value = BigInt(this.view.getInt8(this.pos));
        this.pos += 1;
        return { type: 'int', value, offset, end: this.pos, marker };
      }
      case 0xd1: {
        this.need(2, 'int 16');
        const value = BigInt(this.view.getInt16(this.pos));
        this.pos += 2;
        return { type: 'int', value, offset, end: this.pos, marker };
      }
      case 0xd2: {
        this.need(4, 'int 32');
        const value = BigInt(this.view.getInt32(this.pos));
        this.pos += 4;
        return { type: 'int', value, offset, end: this.pos, marker };
      }
      case 0xd3: {
        this.need(8, 'int 64');
        const value = this.view.getBigInt64(this.pos);
        this.pos += 8;
        return { type: 'int', value, offset, end: this.pos, marker };
      }
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:
        return this.ext(1 << (marker - 0xd4), offset, marker);
      case 0xd9:
        return this.str(this.u8('str 8 length'), offset, marker);
      case 0xda:
        return this.str(this.u16('str 16 length'), offset, marker);
      case 0xdb:
        return this.str(this.u32('str 32 length'), offset, marker);
      case 0xdc:
        return this.array(this.u16('array 16 length'), offset, marker, depth);
      case 0xdd:
        return this.array(this.u32('array 32 length'), offset, marker, depth);
      case 0xde:
        return this.map(this.u16('map 16 length'), offset, marker, depth);
      case 0xdf:
        return this.map(this.u32('map 32 length'), offset, marker, depth);
      default:
        // 0xc1 is the only byte MessagePack never assigns.
        throw new DecodeError('MSGPACK_INVALID', 'Invalid MessagePack data', {
          details: `byte 0x${hex2(marker)} at offset ${offset} starts no value`,
        });
    }
  }

  str(length: number, offset: number, marker: number): MsgNode {
    const bytes = this.take(length, 'str data');
    return { type: 'str', value: utf8Decode(bytes), bytes, offset, end: this.pos, marker };
  }

  bin(length: number, offset: number, marker: number): MsgNode {
    const value = this.take(length, 'bin data');
    return { type: 'bin', value, offset, end: this.pos, marker };
  }

  ext(length: number, offset: number, marker: number): MsgNode {
    this.need(1 + length, 'ext data');
    const extType = this.view.getInt8(this.pos++);
    const data = this.take(length, 'ext data');
    return { type: 'ext', extType, data, offset, end: this.pos, marker };
  }

  enter(depth: number, offset: number): void {
    if (depth >= this.maxDepth) {
      throw new DecodeError('MSGPACK_LIMIT', 'MessagePack value is nested too deeply', {
        details: `container at offset ${offset} is deeper than ${this.maxDepth} levels`,
      });
    }
  }

  array(count: number, offset: number, marker: number, depth: number): MsgNode {
    this.enter(depth, offset);
    this.checkCount(count, 1, 'array');
    const items: MsgNode[] = new Array(count);
    for (let i = 0; i < count; i++) items[i] = this.node(depth + 1);
    return { type: 'array', items, offset, end: this.pos, marker };
  }

  map(count: number, offset: number, marker: number, depth: number): MsgNode {
    this.enter(depth, offset);
    this.checkCount(count, 2, 'map');
    const entries: [MsgNode, MsgNode][] = new Array(count);
    for (let i = 0; i < count; i++) {
      const key = this.node(depth + 1);
      entries[i] = [key, this.node(depth + 1)];
    }
    return { type: 'map', entries, offset, end: this.pos, marker };
  }
}

/**
 * Decodes exactly one MessagePack value from `bytes` into a MsgNode tree. Throws DecodeError:
 * MSGPACK_TRUNCATED (data ends early, or a declared length exceeds what remains),
 * MSGPACK_INVALID (byte 0xc1), MSGPACK_TRAILING (bytes after the value), MSGPACK_LIMIT
 * (nesting or value count above the options). bin, str bytes and ext data are views into
 * `bytes`: copy them before mutating the input.
 */
export function decodeMsgpack(bytes: Uint8Array, options: MsgDecodeOptions = {}): MsgNode {
  expectBytes(bytes, 'bytes');
  const reader = new Reader(bytes, options.maxDepth ?? MSGPACK_MAX_DEPTH, options.maxItems ?? MSGPACK_MAX_ITEMS);
  const node = reader.node(0);
  if (reader.pos !== bytes.length) {
    throw new DecodeError('MSGPACK_TRAILING', 'Bytes remain after the MessagePack value', {
      details: `value ends at offset ${reader.pos}, input has ${bytes.length} bytes`,
    });
  }
  return node;
}
