// Property: what a decoder hands back owns its bytes. Every Uint8Array in a decoded body or
// container (but `raw`, the parse tree kept on purpose over the input) is a copy: a caller that
// reuses or zeroes its input buffer must not see decoded addresses, keys or signatures change.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBody } from '../../src/codec/body-decode.js';
import { genericBody, notifyBody } from '../../src/codec/body-generic.js';
import { chkeyBody } from '../../src/codec/body-chkey.js';
import { registerBody } from '../../src/codec/body-register.js';
import { decodeTx, encodeTx } from '../../src/codec/container.js';
import { mulberry32 } from '../helpers/helpers.js';

const random = mulberry32(0x5eed_c0de);
const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
const address = () => {
  const a = bytes(8);
  a[0] = 0x80 | (a[0] & 0x1f); // a public address's first byte
  return a;
};

/** The Uint8Arrays reachable from `value` (not through `raw`), with their paths. */
function arraysIn(value: unknown, path = 'decoded', out: [string, Uint8Array][] = [], seen = new Set<unknown>()): [string, Uint8Array][] {
  if (value instanceof Uint8Array) {
    out.push([path, value]);
    return out;
  }
  if (!value || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  for (const [key, inner] of entries) {
    if (key === 'raw') continue;
    arraysIn(inner, `${path}.${String(key)}`, out, seen);
  }
  return out;
}

/** Decodes `encoded` from a buffer of its own, then wipes that buffer: nothing decoded may change. */
function assertOwned<T>(encoded: Uint8Array, decode: (input: Uint8Array) => T, label: string): void {
  const input = encoded.slice();
  const decoded = decode(input);
  const arrays = arraysIn(decoded);
  const before = arrays.map(([, a]) => a.slice());
  input.fill(0xa5);
  arrays.forEach(([path, a], i) => {
    assert.ok(a.buffer !== input.buffer, `${label}: ${path} shares the input's buffer`);
    assert.equal(a, before[i], `${label}: ${path} changed when the input was overwritten`);
  });
}

function randomBodies(): [string, Uint8Array][] {
  const seq = BigInt(Math.floor(random() * 1e9));
  const timestamp = 1_700_000_000_000 + Math.floor(random() * 1e9);
  const payload = [{ purpose: 'transfer' as const, currency: 'SK', amount: BigInt(Math.floor(random() * 1e12)) }];
  return [
    ['generic', genericBody({ from: address(), to: address(), seq, timestamp, payload, extra: { msg: 'x'.repeat(Math.floor(random() * 40)) } })],
    ['notify', notifyBody({ from: address(), seq, timestamp, payload })],
    ['chkey', chkeyBody({ from: address(), seq, timestamp, publicKeys: [Uint8Array.of(2, ...bytes(32))] })],
    ['register', registerBody({ keysHash: bytes(32), timestamp, nonce: BigInt(Math.floor(random() * 2 ** 48)) })],
  ];
}

test('decodeBody: no decoded field shares the input buffer (random bodies of every kind)', () => {
  for (let round = 0; round < 50; round++) {
    for (const [kind, body] of randomBodies()) assertOwned(body, decodeBody, `${kind} body, round ${round}`);
  }
});

test('decodeTx: body, signatures and inv are copies (random containers)', () => {
  for (let round = 0; round < 50; round++) {
    for (const [kind, body] of randomBodies()) {
      const encoded = encodeTx({ body, sigs: [bytes(40 + Math.floor(random() * 60)), bytes(70)] });
      assertOwned(encoded, decodeTx, `${kind} container, round ${round}`);
    }
  }
});

test('the property itself: a decoder that hands back views of its input is caught', () => {
  const body = randomBodies()[0][1];
  let caught: unknown;
  try {
    assertOwned(body, (input) => ({ from: input.subarray(0, 8) }), 'view');
  } catch (err) {
    caught = err; // uvu's assert.throws passes its own assertion errors through, so caught by hand
  }
  assert.match(String((caught as Error | undefined)?.message), /shares the input's buffer/);
});

test.run();
