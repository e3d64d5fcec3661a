// The node's JSON writer (bigints as bare integers beyond 2^53, undefined members left out,
// non-finite numbers as null, as JSON.stringify does) and its leveled log (one line per event,
// only the levels at or above the one chosen).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toJson, writeJson, type JsonValue } from '../../src/node/base/json.js';
import { createLogger, LOG_LEVELS, silentLogger } from '../../src/node/base/log.js';
import { holdRequested, markHeld } from '../../src/node/http/hold-mark.js';

test('toJson agrees with JSON.stringify on plain values, members and arrays in order', () => {
  const values: JsonValue[] = [null, true, false, 0, -1.5, 1e21, 'a"b\\c\n\u2028é', [], {}, [1, [2, [3]], { a: 'x' }], { z: 1, a: [true, null], m: { n: 'o' } }, ''];
  for (const v of values) assert.is(toJson(v), JSON.stringify(v));
});

test('bigints are bare integers, beyond 2^53 and negative', () => {
  assert.is(toJson({ amount: 2n ** 64n + 1n, neg: -(2n ** 70n), zero: 0n }), '{"amount":18446744073709551617,"neg":-1180591620717411303424,"zero":0}');
});

test('undefined members are left out wherever they stand; undefined alone and in arrays is null', () => {
  assert.is(toJson({ a: undefined, b: 1 }), '{"b":1}');
  assert.is(toJson({ a: 1, b: undefined }), '{"a":1}');
  assert.is(toJson({ a: undefined, b: undefined }), '{}');
  assert.is(toJson({ a: 1, b: undefined, c: 2 }), '{"a":1,"c":2}');
  assert.is(toJson(undefined), 'null');
  assert.is(toJson([1, undefined as unknown as JsonValue, 3]), '[1,null,3]');
});

test('NaN and the infinities are null', () => {
  assert.is(toJson([NaN, Infinity, -Infinity, 5]), '[null,null,null,5]');
});

test('writeJson hands the pieces in order; they join to toJson', () => {
  const pieces: string[] = [];
  const value = { a: [1, 2], b: { c: 'd' }, e: 3n };
  writeJson(value, (p) => pieces.push(p));
  assert.is(pieces.join(''), toJson(value));
  assert.is(pieces.join(''), '{"a":[1,2],"b":{"c":"d"},"e":3}');
  assert.ok(pieces.length > 5, 'written piece by piece, not as one string');
});

test('a logger writes the levels at or above its own, one stamped line each', () => {
  const order = ['error', 'warn', 'info', 'debug'] as const;
  assert.equal([...LOG_LEVELS], ['silent', 'error', 'warn', 'info', 'debug']);
  for (const level of LOG_LEVELS) {
    const out: string[] = [];
    const log = createLogger(level, (line) => out.push(line));
    assert.is(log.level, level);
    for (const at of order) log[at](`m-${at}`);
    const expected = order.slice(0, LOG_LEVELS.indexOf(level));
    assert.equal(
      out.map((l) => l.split(' ').slice(1).join(' ')),
      expected.map((at) => `${at.padEnd(5)} m-${at}\n`),
      level,
    );
    for (const line of out) assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (error|warn |info |debug) m-/);
  }
});

test('the silent logger writes nothing', () => {
  const write = process.stderr.write;
  const seen: unknown[] = [];
  process.stderr.write = ((chunk: unknown) => (seen.push(chunk), true)) as typeof process.stderr.write;
  try {
    silentLogger.error('x');
    silentLogger.warn('x');
    silentLogger.info('x');
    silentLogger.debug('x');
  } finally {
    process.stderr.write = write;
  }
  assert.equal(seen, []);
  assert.is(silentLogger.level, 'silent');
});

test('by default a logger writes to stderr', () => {
  const write = process.stderr.write;
  const seen: string[] = [];
  process.stderr.write = ((chunk: string) => (seen.push(chunk), true)) as typeof process.stderr.write;
  try {
    createLogger('warn').warn('to stderr');
    createLogger('warn').info('not this');
  } finally {
    process.stderr.write = write;
  }
  assert.is(seen.length, 1);
  assert.match(seen[0], / warn  to stderr\n$/);
});

test('a hold mark belongs to the headers object it was put on', () => {
  const marked = { host: 'localhost' };
  const other = { host: 'localhost' };
  assert.not.ok(holdRequested(marked));
  markHeld(marked);
  assert.ok(holdRequested(marked));
  assert.not.ok(holdRequested(other), 'an equal object is not the same request');
});

test.run();
