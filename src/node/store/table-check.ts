// LevelDB's table files checked block by block, as LevelDB itself would with verify_checksums
// on (classic-level 3 does not let its reads ask for that): the footer and its magic number,
// every block's type and CRC-32C (data, index, meta and filter blocks), and that the index
// names the data blocks end to end. Without this a flipped byte in a table is read as it is, or
// fails only once a read reaches it: a check that said "sound" and a node that will not start.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32c, maskCrc } from './crc32c.js';
import { snappyDecompress } from './snappy.js';

/** One table file that fails, and the keys its damaged part held when the index still tells. */
export interface TableDamage {
  file: string;
  /**
   * 'table': the file cannot be read as a table (footer, index, meta index); 'block': one data
   * block, its keys known; 'filter': only the Bloom filter, which LevelDB rebuilds (no record lost).
   */
  kind: 'table' | 'block' | 'filter';
  what: string;
  /** The user keys the damaged block lies between (first exclusive), when the index reads. */
  keys?: { after?: string; upTo: string };
}

export interface TablesCheck {
  tables: number;
  bytes: number;
  blocks: number;
  damage: TableDamage[];
}

const FOOTER = 48;
const TRAILER = 5;
const MAGIC = [0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb];
/** A block never decompresses to more than this (LevelDB writes 4 KiB blocks; a big value makes one larger). */
const MAX_BLOCK = 256 << 20;

class Damage extends Error {}

interface Handle {
  offset: number;
  size: number;
}

function varint(bytes: Uint8Array, at: number, end: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 56; shift += 7) {
    if (at >= end) throw new Damage('a length runs past its block');
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, at];
  }
  throw new Damage('a length is not a valid varint');
}

function handleAt(bytes: Uint8Array, at: number, end: number): [Handle, number] {
  const [offset, next] = varint(bytes, at, end);
  const [size, after] = varint(bytes, next, end);
  return [{ offset, size }, after];
}

/** A block's contents once its trailer (type and masked CRC) has been checked. */
function readBlock(file: Uint8Array, h: Handle, limit: number, what: string): Uint8Array {
  if (h.offset + h.size + TRAILER > limit) throw new Damage(`the ${what} lies past the end of the file's blocks (offset ${h.offset}, ${h.size} bytes)`);
  const body = file.subarray(h.offset, h.offset + h.size + 1); // contents and type byte
  const type = file[h.offset + h.size];
  const stored = new DataView(file.buffer, file.byteOffset + h.offset + h.size + 1, 4).getUint32(0, true);
  if (maskCrc(crc32c(body)) !== stored) throw new Damage(`the ${what} at offset ${h.offset} fails its checksum`);
  if (type === 0) return body.subarray(0, h.size);
  if (type === 1) {
    try {
      return snappyDecompress(body.subarray(0, h.size), MAX_BLOCK);
    } catch (err) {
      throw new Damage(`the ${what} at offset ${h.offset} does not decompress: ${(err as Error).message}`);
    }
  }
  throw new Damage(`the ${what} at offset ${h.offset} has an unknown compression type ${type}`);
}

/** The entries of a block (keys restored from their shared prefixes). */
function entries(block: Uint8Array, what: string): [key: Uint8Array, value: Uint8Array][] {
  if (block.length < 4) throw new Damage(`the ${what} is too short to hold its restart count`);
  const restarts = new DataView(block.buffer, block.byteOffset + block.length - 4, 4).getUint32(0, true);
  const end = block.length - 4 - restarts * 4;
  if (restarts < 1 || end < 0) throw new Damage(`the ${what} names ${restarts} restart points, which do not fit`);
  const out: [Uint8Array, Uint8Array][] = [];
  let key = new Uint8Array(0);
  let at = 0;
  while (at < end) {
    const [shared, a] = varint(block, at, end);
    const [own, b] = varint(block, a, end);
    const [valueLength, c] = varint(block, b, end);
    if (shared > key.length || c + own + valueLength > end) throw new Damage(`an entry of the ${what} runs past its end`);
    const next = new Uint8Array(shared + own);
    next.set(key.subarray(0, shared));
    next.set(block.subarray(c, c + own), shared);
    key = next;
    out.push([key, block.subarray(c + own, c + own + valueLength)]);
    at = c + own + valueLength;
  }
  return out;
}

const text = new TextDecoder();
/** The user key of an internal key (LevelDB appends 8 bytes: sequence number and kind). */
const userKey = (internal: Uint8Array): string => text.decode(internal.subarray(0, Math.max(0, internal.length - 8)));
const shown = (key: string) => JSON.stringify(key.length > 60 ? `${key.slice(0, 57)}...` : key);

/** Checks one table file; returns its block count, or throws Damage (with the keys it held when known). */
function checkTable(file: Uint8Array, onDamage: (kind: 'block' | 'filter', what: string, keys?: TableDamage['keys']) => void): number {
  if (file.length < FOOTER) throw new Damage(`it is ${file.length} bytes, shorter than a table's footer: truncated`);
  const footerAt = file.length - FOOTER;
  if (!MAGIC.every((b, i) => file[file.length - 8 + i] === b)) throw new Damage('its footer has no table magic number: truncated, or its last bytes damaged');
  const [metaHandle, next] = handleAt(file, footerAt, file.length - 8);
  const [indexHandle] = handleAt(file, next, file.length - 8);
  const index = entries(readBlock(file, indexHandle, footerAt, 'index block'), 'index block');
  const meta = entries(readBlock(file, metaHandle, footerAt, 'meta index block'), 'meta index block');
  let blocks = 2;
  for (const [name, value] of meta) {
    const [h] = handleAt(value, 0, value.length);
    const what = `${text.decode(name)} block`;
    try {
      readBlock(file, h, footerAt, what);
    } catch (err) {
      // The filter only speeds up reads of absent keys: losing it loses no record.
      if (!(err instanceof Damage) || !what.startsWith('filter.')) throw err;
      onDamage('filter', err.message);
    }
    blocks++;
  }
  // The data blocks lie end to end from offset 0; each one's index key bounds the keys it holds.
  let expected = 0;
  let after: string | undefined;
  for (const [key, value] of index) {
    const [h] = handleAt(value, 0, value.length);
    const upTo = userKey(key);
    if (h.offset !== expected) throw new Damage(`the index names a data block at offset ${h.offset} where one should start at ${expected}`);
    try {
      readBlock(file, h, footerAt, 'data block');
    } catch (err) {
      if (!(err instanceof Damage)) throw err;
      onDamage('block', err.message, { after, upTo });
    }
    expected = h.offset + h.size + TRAILER;
    after = upTo;
    blocks++;
  }
  return blocks;
}

/** Every table file (.ldb, .sst) in the store folder `dir`, checked; nothing is written. */
export async function checkTables(dir: string): Promise<TablesCheck> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.ldb') || n.endsWith('.sst')).sort();
  const result: TablesCheck = { tables: names.length, bytes: 0, blocks: 0, damage: [] };
  for (const name of names) {
    const file = await readFile(join(dir, name));
    result.bytes += file.length;
    try {
      result.blocks += checkTable(file, (kind, what, keys) => result.damage.push({ file: name, kind, what, keys }));
    } catch (err) {
      if (!(err instanceof Damage)) throw err;
      result.damage.push({ file: name, kind: 'table', what: err.message });
    }
  }
  return result;
}

/** One damage in words: the file, what fails, the keys it held. */
export function describeTableDamage(d: TableDamage): string {
  const keys = d.keys ? ` (it held the keys ${d.keys.after === undefined ? 'from the first' : `after ${shown(d.keys.after)}`} up to ${shown(d.keys.upTo)})` : '';
  return `table ${d.file}: ${d.what}${keys}`;
}
