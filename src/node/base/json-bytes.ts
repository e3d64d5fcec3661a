// JSON written straight into fixed-size byte chunks, for the largest answers: a full block
// holds every transaction's body as hex, megabytes a block under a flood. Built as one string
// it becomes a rope that V8 flattens into its large-object space, where only a full collection
// frees it, and then a second copy as bytes; that doubled the node's peak memory with live
// readers. Here each transaction's view is written as soon as it is made and dropped, long
// strings are cut into the chunks without an extra copy, and the chunks go out as they are.

import { writeJson, type JsonValue } from './json.js';

const CHUNK_BYTES = 64 * 1024;

/** A JSON document as byte chunks, written in order. */
export interface JsonChunks {
  chunks: Buffer[];
  byteLength: number;
}

export class JsonBytesWriter {
  private readonly sealed: Buffer[] = [];
  private sealedBytes = 0;
  private chunk: Buffer | undefined;
  private used = 0;
  private readonly emit = (text: string) => void this.text(text);

  /** Raw JSON text, written as given. */
  text(s: string): this {
    let room = this.room();
    if (s.length * 3 <= room) {
      this.used += this.chunk!.write(s, this.used);
      return this;
    }
    const bytes = Buffer.byteLength(s);
    if (bytes > room && bytes !== s.length) {
      // Multi-byte characters are never cut: the string goes whole into a fresh chunk or its own.
      this.seal();
      room = this.room();
      if (bytes > room) {
        this.sealed.push(Buffer.from(s));
        this.sealedBytes += bytes;
        return this;
      }
    }
    if (bytes <= room) {
      this.used += this.chunk!.write(s, this.used);
      return this;
    }
    // A long ASCII string (a body as hex): cut across chunks, no copy of it as a whole.
    for (let at = 0; at < s.length;) {
      if (room === 0) {
        this.seal();
        room = this.room();
      }
      const n = Math.min(room, s.length - at);
      this.used += this.chunk!.write(s.slice(at, at + n), this.used, 'latin1');
      at += n;
      room -= n;
    }
    return this;
  }

  /** A value, as toJson writes it (bigints as bare integers, undefined members left out). */
  value(value: JsonValue | undefined): this {
    writeJson(value, this.emit);
    return this;
  }

  /** `"key":value`, after a comma unless it is the first member. */
  member(key: string, value: JsonValue | undefined, first = false): this {
    return this.text(`${first ? '' : ','}${JSON.stringify(key)}:`).value(value);
  }

  /** The chunks filled so far (not the one being filled), for an answer sent as it is made. */
  take(): Buffer[] {
    this.sealedBytes = 0;
    return this.sealed.splice(0);
  }

  /** The document as written; the writer is empty afterwards. */
  finish(): JsonChunks {
    this.seal();
    const out = { chunks: this.sealed.splice(0), byteLength: this.sealedBytes };
    this.sealedBytes = 0;
    return out;
  }

  private room(): number {
    this.chunk ??= Buffer.allocUnsafeSlow(CHUNK_BYTES);
    return this.chunk.length - this.used;
  }

  private seal(): void {
    if (this.chunk && this.used > 0) {
      this.sealed.push(this.chunk.subarray(0, this.used));
      this.sealedBytes += this.used;
      this.chunk = undefined;
      this.used = 0;
    }
  }
}

/** One value as byte chunks. */
export function toJsonChunks(value: JsonValue): JsonChunks {
  return new JsonBytesWriter().value(value).finish();
}

/** JSON text as byte chunks of at most 64 KiB (one copy of it as bytes), for a large answer sent with backpressure. */
export function textChunks(text: string): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) out.push(bytes.subarray(at, at + CHUNK_BYTES));
  return out;
}
