// MessagePack over many random values: the writer's output decodes byte-identically back
// through msgpackToValue, and the reader and writer agree with @msgpack/msgpack both ways.
// Exact encodings, refusals and limits: msgpack.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decode as referenceDecode, encode as referenceEncode } from '@msgpack/msgpack';
import { bytesToHex } from '../../src/bytes.js';
import { decodeMsgpack, encodeMsgpack, msgpackToValue, MsgExt, MsgFloat, Uint64, type MsgValue } from '../../src/codec/msgpack.js';
import { mulberry32 } from '../helpers/helpers.js';

const hex = (value: MsgValue) => bytesToHex(encodeMsgpack(value));

// Random values the writer accepts; integers cover every width, floats are explicit.
function randomValue(rnd: () => number, depth = 0): MsgValue {
  const pick = Math.floor(rnd() * (depth > 3 ? 8 : 11));
  const int = () => {
    const bits = Math.floor(rnd() * 64);
    return BigInt(Math.floor(rnd() * 2 ** Math.min(bits, 52))) << BigInt(Math.max(0, bits - 52));
  };
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rnd() < 0.5;
    case 2: {
      const v = int();
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    case 3: {
      const v = -int() / 2n;
      return v >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    case 4:
      return rnd() < 0.5 ? new MsgFloat(Math.fround(rnd() * 1000), 32) : new MsgFloat((rnd() - 0.5) * 10 ** Math.floor(rnd() * 300), 64);
    case 5:
      return Array.from({ length: Math.floor(rnd() * 40) }, () => String.fromCodePoint(Math.floor(rnd() * (rnd() < 0.7 ? 128 : 0xd000)))).join('');
    case 6:
      return Uint8Array.from({ length: Math.floor(rnd() * (rnd() < 0.9 ? 20 : 300)) }, () => Math.floor(rnd() * 256));
    case 7:
      return new MsgExt(
        Math.floor(rnd() * 256) - 128,
        Uint8Array.from({ length: Math.floor(rnd() * 20) }, () => Math.floor(rnd() * 256)),
      );
    case 8:
      return Array.from({ length: Math.floor(rnd() * (rnd() < 0.95 ? 6 : 20)) }, () => randomValue(rnd, depth + 1));
    case 9: {
      const out: Record<string, MsgValue> = {};
      const n = Math.floor(rnd() * (rnd() < 0.95 ? 6 : 20));
      for (let i = 0; i < n; i++) out[`k${Math.floor(rnd() * 1000)}`] = randomValue(rnd, depth + 1);
      return out;
    }
    default: {
      const m = new Map<string | Uint8Array | number | bigint, MsgValue>();
      const n = Math.floor(rnd() * 6);
      for (let i = 0; i < n; i++) m.set(rnd() < 0.5 ? Uint8Array.of(i, Math.floor(rnd() * 256)) : i * 1000, randomValue(rnd, depth + 1));
      return m;
    }
  }
}

test('2000 random values round-trip: encode -> decode -> msgpackToValue -> encode is byte-identical', () => {
  const rnd = mulberry32(1);
  for (let i = 0; i < 2000; i++) {
    const value = randomValue(rnd);
    const bytes = encodeMsgpack(value);
    const back = msgpackToValue(decodeMsgpack(bytes));
    assert.is(bytesToHex(encodeMsgpack(back)), bytesToHex(bytes), `case ${i}`);
  }
});

test('random values decode to the value that was written', () => {
  const rnd = mulberry32(2);
  for (let i = 0; i < 1000; i++) {
    const value = randomValue(rnd);
    assert.equal(normalize(msgpackToValue(decodeMsgpack(encodeMsgpack(value)))), normalize(value), `case ${i}`);
  }
});

// A comparable form: integers as bigint, floats as numbers, byte views as plain Uint8Array,
// Maps and objects as entry lists.
function normalize(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (v instanceof MsgFloat) return Number.isInteger(v.value) ? { float: v.value } : v.value;
  if (v instanceof Uint64) return v.value;
  if (v instanceof MsgExt) return { ext: v.extType, data: Uint8Array.from(v.data) };
  if (v instanceof Uint8Array) return Uint8Array.from(v);
  if (Array.isArray(v)) return v.map(normalize);
  if (v instanceof Map) return [...v].map(([k, x]) => [normalize(k), normalize(x)]);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, normalize(x)]);
  return v;
}

// @msgpack/msgpack writes integer-valued numbers as ints and non-integers as float64, so floats
// compare as plain numbers here.
function normalizeLoose(v: unknown): unknown {
  if (v instanceof MsgFloat) return Number.isInteger(v.value) ? BigInt(v.value) : v.value;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (v instanceof Uint8Array) return Uint8Array.from(v);
  if (Array.isArray(v)) return v.map(normalizeLoose);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, normalizeLoose(x)]);
  return v;
}

function randomPlain(rnd: () => number, depth = 0): unknown {
  switch (Math.floor(rnd() * (depth > 3 ? 6 : 8))) {
    case 0:
      return null;
    case 1:
      return rnd() < 0.5;
    case 2:
      return Math.floor((rnd() - 0.5) * 2 ** Math.floor(rnd() * 33));
    case 3:
      return (rnd() - 0.5) * 10 ** Math.floor(rnd() * 20) + 0.5;
    case 4:
      return Array.from({ length: Math.floor(rnd() * 300) }, () => String.fromCodePoint(Math.floor(rnd() * 0xd000))).join('');
    case 5:
      return Buffer.from(Uint8Array.from({ length: Math.floor(rnd() * 300) }, () => Math.floor(rnd() * 256)));
    case 6:
      return Array.from({ length: Math.floor(rnd() * 20) }, () => randomPlain(rnd, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(rnd() * 20); i > 0; i--) out[`key${Math.floor(rnd() * 1e6)}`] = randomPlain(rnd, depth + 1);
      return out;
    }
  }
}

test('cross-check: 1000 random values packed by @msgpack/msgpack decode to the same value with our reader', () => {
  const rnd = mulberry32(3);
  for (let i = 0; i < 1000; i++) {
    const value = randomPlain(rnd);
    const ours = msgpackToValue(decodeMsgpack(referenceEncode(value)));
    assert.equal(normalizeLoose(ours), normalizeLoose(value), `case ${i}`);
  }
});

test('cross-check: @msgpack/msgpack reads what our writer writes, including 64-bit integers', () => {
  const rnd = mulberry32(4);
  for (let i = 0; i < 1000; i++) {
    const value = randomPlain(rnd);
    const ours = encodeMsgpack(toWritable(value));
    assert.equal(normalizeLoose(referenceDecode(ours, { useBigInt64: true })), normalizeLoose(value), `case ${i}`);
  }
  for (const v of [2n ** 32n, 2n ** 53n + 1n, 2n ** 64n - 1n, -(2n ** 63n)]) {
    assert.is(BigInt(referenceDecode(encodeMsgpack(v), { useBigInt64: true }) as number | bigint), v);
  }
});

function toWritable(v: unknown): MsgValue {
  if (typeof v === 'number' && !Number.isSafeInteger(v)) return new MsgFloat(v);
  if (Array.isArray(v)) return v.map(toWritable);
  if (v instanceof Uint8Array) return v;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toWritable(x)]));
  return v as MsgValue;
}

test('a general-purpose encoder silently writes a non-integer as float64; ours refuses it', () => {
  assert.is(bytesToHex(referenceEncode(1.5)), 'cb3ff8000000000000');
  assert.throws(
    () => encodeMsgpack(1.5),
    (err: unknown) => (err as { code?: string }).code === 'MSGPACK_UNSUPPORTED',
  );
  assert.is(hex(2n ** 40n), 'cf0000010000000000');
  assert.is(hex(2 ** 40), 'cf0000010000000000');
});

test.run();
