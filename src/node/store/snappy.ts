// Snappy decompression (the raw format LevelDB compresses its table blocks with), enough to
// read a table's index and meta blocks when the store's own tables are checked. Every length
// and offset is bounds-checked: the input is a file that may be damaged.

/** Thrown for input that is not valid Snappy; the caller names the file and the block. */
export class SnappyError extends Error {}

function varint32(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    if (at >= bytes.length) throw new SnappyError('its length is cut off');
    const b = bytes[at++];
    value |= (b & 0x7f) << shift;
    if (b < 0x80) return [value >>> 0, at];
  }
  throw new SnappyError('its length is not a valid varint');
}

/** The bytes `input` decompresses to; at most `limit` of them (a damaged length cannot ask for more). */
export function snappyDecompress(input: Uint8Array, limit: number): Uint8Array {
  const [length, start] = varint32(input, 0);
  if (length > limit) throw new SnappyError(`it claims ${length} bytes, more than ${limit}`);
  const out = new Uint8Array(length);
  let o = 0;
  let i = start;
  while (i < input.length) {
    const tag = input[i++];
    const kind = tag & 3;
    if (kind === 0) {
      let len = tag >>> 2;
      if (len >= 60) {
        const extra = len - 59;
        if (i + extra > input.length) throw new SnappyError('a literal length is cut off');
        len = 0;
        for (let k = 0; k < extra; k++) len += input[i + k] * 2 ** (8 * k);
        i += extra;
      }
      len += 1;
      if (i + len > input.length || o + len > length) throw new SnappyError('a literal runs past its end');
      out.set(input.subarray(i, i + len), o);
      i += len;
      o += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (i + 1 > input.length) throw new SnappyError('a copy is cut off');
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | input[i++];
    } else {
      const size = kind === 2 ? 2 : 4;
      if (i + size > input.length) throw new SnappyError('a copy is cut off');
      len = (tag >>> 2) + 1;
      offset = 0;
      for (let k = 0; k < size; k++) offset += input[i + k] * 2 ** (8 * k);
      i += size;
    }
    if (offset === 0 || offset > o || o + len > length) throw new SnappyError('a copy reaches outside the output');
    // Byte by byte: a copy may overlap what it writes (a run).
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset];
  }
  if (o !== length) throw new SnappyError(`it makes ${o} bytes, not the ${length} it claims`);
  return out;
}
