// The chunked JSON writer the node uses for full blocks: whatever it is given, the chunks put
// together are byte for byte what toJson writes, with long ASCII strings cut at any point and
// multi-byte text never cut inside a character.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonBytesWriter, toJsonChunks } from '../../src/node/base/json-bytes.js';
import { toJson, type JsonValue } from '../../src/node/base/json.js';

/** A small seeded generator (mulberry32), so a failure names the value that caused it. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

const PIECES = ['a', 'Z', '0', '"', '\\', '\n', '\u0001', 'ü', '€', '😀', '\ud800', ' '];

function randomString(next: () => number): string {
  const long = next() < 0.2;
  const length = Math.floor(next() * (long ? 150_000 : 40));
  const ascii = next() < 0.5;
  if (ascii) return 'x'.repeat(length) + String(Math.floor(next() * 1000));
  let s = '';
  for (let i = 0; i < Math.min(length, 30_000); i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

function randomValue(next: () => number, depth = 0): JsonValue {
  const pick = next();
  if (depth > 3 || pick < 0.4) {
    const leaf = Math.floor(next() * 6);
    if (leaf === 0) return null;
    if (leaf === 1) return next() < 0.5;
    if (leaf === 2) return Math.floor(next() * 2 ** 40) - 2 ** 39;
    if (leaf === 3) return BigInt(Math.floor(next() * 2 ** 50)) * 2n ** 20n;
    return randomString(next);
  }
  const n = Math.floor(next() * 6);
  if (pick < 0.6) return Array.from({ length: n }, () => randomValue(next, depth + 1));
  const obj: { [key: string]: JsonValue | undefined } = {};
  for (let i = 0; i < n; i++) obj[randomString(next).slice(0, 20) + i] = next() < 0.1 ? undefined : randomValue(next, depth + 1);
  return obj;
}

test('300 random values: the chunks are exactly toJson as UTF-8, and byteLength counts them', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const value = randomValue(rng(seed));
    const { chunks, byteLength } = toJsonChunks(value);
    const joined = Buffer.concat(chunks);
    assert.is(byteLength, joined.length, `seed ${seed}`);
    assert.ok(joined.equals(Buffer.from(toJson(value))), `seed ${seed}: bytes differ`);
    for (const chunk of chunks) assert.ok(chunk.length > 0, `seed ${seed}: an empty chunk`);
  }
});

test('a long ASCII string is cut across chunks at any offset; multi-byte text stays whole in each chunk', () => {
  for (const lead of [0, 1, 65_535, 65_536, 65_537, 100_000]) {
    const hex = 'ab'.repeat(70_000);
    const text = '€'.repeat(30_000);
    const out = new JsonBytesWriter().text('x'.repeat(lead)).value([hex, text]).finish();
    const expected = Buffer.from('x'.repeat(lead) + toJson([hex, text]));
    assert.ok(Buffer.concat(out.chunks).equals(expected), `lead ${lead}`);
    assert.ok(out.chunks.length >= 3, `lead ${lead}: ${out.chunks.length} chunks`);
    for (const chunk of out.chunks) assert.not.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(chunk), `lead ${lead}: a chunk cut a character`);
  }
});

test('finish empties the writer; an empty document is no chunks', () => {
  const w = new JsonBytesWriter();
  assert.equal(w.finish(), { chunks: [], byteLength: 0 });
  w.value({ a: 1 });
  assert.is(Buffer.concat(w.finish().chunks).toString(), '{"a":1}');
  assert.equal(w.finish(), { chunks: [], byteLength: 0 });
});

test('chunks are 64 KiB: a long ASCII document fills each one to the last byte before the next', () => {
  const { chunks, byteLength } = toJsonChunks('ab'.repeat(100_000));
  assert.equal(
    chunks.map((c) => c.length),
    [65_536, 65_536, 65_536, 200_002 - 3 * 65_536],
  );
  assert.is(byteLength, 200_002);
});

test('a short multi-byte string that exactly fills the rest of a chunk is written whole, not cut', () => {
  // 65_532 bytes written leave 4: 'a€' is 4 bytes in 2 characters.
  const out = new JsonBytesWriter().text('x'.repeat(65_532)).text('a€').text('y').finish();
  const joined = Buffer.concat(out.chunks);
  assert.is(joined.toString('utf8'), `${'x'.repeat(65_532)}a€y`);
  for (const chunk of out.chunks) assert.not.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(chunk), 'a chunk cut a character');
});

test('take hands on the filled chunks and forgets them; finish then counts only what came after', () => {
  const w = new JsonBytesWriter().text('c'.repeat(150_000));
  const taken = w.take();
  assert.equal(
    taken.map((c) => c.length),
    [65_536, 65_536],
  );
  assert.ok(taken.every((c) => c.every((b) => b === 0x63)));
  assert.equal(w.take(), [], 'taken once');
  w.text('d');
  const rest = w.finish();
  assert.is(rest.byteLength, 150_000 - 131_072 + 1);
  assert.is(Buffer.concat(rest.chunks).toString(), `${'c'.repeat(150_000 - 131_072)}d`);
});

test('a one-byte document is one chunk of that byte', () => {
  assert.equal(toJsonChunks(7), { chunks: [Buffer.from('7')], byteLength: 1 });
  assert.equal(new JsonBytesWriter().text('[').text(']').finish().chunks.map(String), ['[]']);
});

test('at every offset within 16 bytes of a chunk edge, short text of 1- to 4-byte characters is written whole and exact', () => {
  const shapes = ['€', '€€', 'a€', '€a', '€€€', 'ü€', '😀', 'a😀', '€😀ü', 'aü', 'ü', '"€"', '\\€'];
  for (let lead = 65_536 - 16; lead <= 65_536 + 2; lead++) {
    for (const shape of shapes) {
      const w = new JsonBytesWriter().text('x'.repeat(lead)).text(shape).value(shape).text('y');
      const { chunks, byteLength } = w.finish();
      const expected = Buffer.from('x'.repeat(lead) + shape + JSON.stringify(shape) + 'y');
      const joined = Buffer.concat(chunks);
      assert.ok(joined.equals(expected), `lead ${lead}, ${JSON.stringify(shape)}: the bytes differ`);
      assert.is(byteLength, expected.length, `lead ${lead}, ${JSON.stringify(shape)}: byteLength`);
      for (const chunk of chunks) {
        assert.ok(chunk.length <= 65_536, `lead ${lead}: a chunk of ${chunk.length} bytes`);
        assert.not.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(chunk), `lead ${lead}, ${JSON.stringify(shape)}: a chunk cut a character`);
      }
    }
  }
});

test.run();
