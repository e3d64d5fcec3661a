// The elements of one array inside a JSON document, found by walking its bytes without parsing
// the whole: a block's events are one JSON record in the store, tens of megabytes for a block
// full of events, and the answers made from it parse one event at a time instead of the tree.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The document is not the JSON object the caller expected; `at` is the byte offset. */
export class MalformedJson extends Error {
  constructor(readonly at: number) {
    super(`malformed JSON at byte ${at}`);
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

/** The offset after the string that opens at `i`. */
function skipString(bytes: Uint8Array, i: number): number {
  for (i++; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) return i + 1;
  }
  throw new MalformedJson(bytes.length);
}

/** The offset after the value that starts at `i` (its inside is checked when it is parsed). */
function skipValue(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    const start = i;
    while (i < bytes.length && !isSpace(bytes[i]) && bytes[i] !== COMMA && bytes[i] !== CLOSE_OBJECT && bytes[i] !== CLOSE_ARRAY) i++;
    if (i === start) throw new MalformedJson(i);
    return i;
  }
  let depth = 0;
  for (; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) i = skipString(bytes, i) - 1;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      if (--depth === 0) return i + 1;
    }
  }
  throw new MalformedJson(bytes.length);
}

function expect(bytes: Uint8Array, i: number, b: number): number {
  if (bytes[i] !== b) throw new MalformedJson(i);
  return i + 1;
}

/**
 * The byte ranges [start, end) of the elements of the array that member `key` of the top-level
 * object holds, in order; none when the object has no such member. Throws MalformedJson when
 * the document is not an object or the member is not an array. Walks the whole object, so a
 * caller may walk once to check the document before answering with its elements.
 */
export function* arrayElements(bytes: Uint8Array, key: string): Generator<[number, number], void, undefined> {
  const wanted = JSON.stringify(key);
  let i = expect(bytes, skipSpace(bytes, 0), OPEN_OBJECT);
  i = skipSpace(bytes, i);
  if (bytes[i] === CLOSE_OBJECT) return;
  const text = new TextDecoder();
  for (;;) {
    if (bytes[i] !== QUOTE) throw new MalformedJson(i);
    const keyEnd = skipString(bytes, i);
    const isWanted = keyEnd - i === wanted.length && text.decode(bytes.subarray(i, keyEnd)) === wanted;
    i = skipSpace(bytes, expect(bytes, skipSpace(bytes, keyEnd), COLON));
    if (isWanted) {
      i = skipSpace(bytes, expect(bytes, i, OPEN_ARRAY));
      if (bytes[i] === CLOSE_ARRAY) i++;
      else {
        for (;;) {
          const end = skipValue(bytes, i);
          yield [i, end];
          i = skipSpace(bytes, end);
          if (bytes[i] === CLOSE_ARRAY) break;
          i = skipSpace(bytes, expect(bytes, i, COMMA));
        }
        i++;
      }
    } else i = skipValue(bytes, i);
    i = skipSpace(bytes, i);
    if (bytes[i] === CLOSE_OBJECT) return;
    i = skipSpace(bytes, expect(bytes, i, COMMA));
  }
}
