// UTF-8 for MessagePack str values, with an ASCII fast path: protocol strings are short
// ASCII keys ("k", "body", "msg"), and TextEncoder/TextDecoder calls cost more than a loop
// for them.

import { ValidationError } from '../errors.js';

// ignoreBOM keeps a leading U+FEFF in the text instead of silently dropping its 3 bytes.
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const strict = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
const encoder = new TextEncoder();

const ASCII_LIMIT = 64;

function asciiOf(bytes: Uint8Array): string | undefined {
  if (bytes.length > ASCII_LIMIT) return undefined;
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x80) return undefined;
    out += String.fromCharCode(b);
  }
  return out;
}

/** Decodes UTF-8; invalid sequences become U+FFFD (the exact bytes stay available to the caller). */
export function utf8Decode(bytes: Uint8Array): string {
  return asciiOf(bytes) ?? lenient.decode(bytes);
}

/** Decodes UTF-8, or returns undefined when the bytes are not valid UTF-8. */
export function utf8DecodeStrict(bytes: Uint8Array): string | undefined {
  const ascii = asciiOf(bytes);
  if (ascii !== undefined) return ascii;
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Encodes text as UTF-8. A lone surrogate has no UTF-8 form; TextEncoder would write U+FFFD
 * in its place, which would sign different text than the caller gave, so it throws instead.
 */
export function utf8Encode(text: string, label = 'string'): Uint8Array {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  if (LONE_SURROGATE.test(text)) {
    throw new ValidationError('MSGPACK_UNSUPPORTED', `"${label}" holds a lone UTF-16 surrogate, which has no UTF-8 form`);
  }
  return encoder.encode(text);
}
