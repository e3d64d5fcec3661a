import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { base64ToBytes, bytesFromInput, bytesToBase64, bytesToHex, hexToBytes } from '../../src/bytes.js';
import { TpkitError } from '../../src/errors.js';

test('hex and base64 round-trip random bytes of every length 0-64 against Buffer', () => {
  for (let n = 0; n <= 64; n++) {
    const bytes = new Uint8Array(randomBytes(n));
    assert.is(bytesToHex(bytes), Buffer.from(bytes).toString('hex'));
    assert.is(bytesToBase64(bytes), Buffer.from(bytes).toString('base64'));
    assert.equal(hexToBytes(bytesToHex(bytes, true)), bytes);
    assert.equal(base64ToBytes(bytesToBase64(bytes)), bytes);
  }
});

test('hex of long inputs (past the short path) matches Buffer, lower and upper case', () => {
  for (const n of [65, 66, 127, 300, 4097, 30 * 1024]) {
    const bytes = new Uint8Array(randomBytes(n));
    const hex = Buffer.from(bytes).toString('hex');
    assert.is(bytesToHex(bytes), hex, String(n));
    assert.is(bytesToHex(bytes, true), hex.toUpperCase(), String(n));
    assert.is(bytesToHex(bytes.subarray(3, n - 1)), hex.slice(6, 2 * (n - 1)), `a view into ${n}`);
  }
});

test('bytesFromInput reads hex, 0x hex, base64 and raw bytes', () => {
  assert.equal(bytesFromInput('0x0102'), new Uint8Array([1, 2]));
  assert.equal(bytesFromInput('0102'), new Uint8Array([1, 2]));
  assert.equal(bytesFromInput('AQI='), new Uint8Array([1, 2]));
  const raw = new Uint8Array([9]);
  assert.is(bytesFromInput(raw), raw);
});

for (const [input, code] of [
  ['abc', 'BAD_HEX'],
  ['zz', 'BAD_HEX'],
] as const) {
  test(`hexToBytes(${JSON.stringify(input)}) fails with ${code}`, () => {
    try {
      hexToBytes(input);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, TpkitError);
      assert.is((err as TpkitError).code, code);
    }
  });
}

for (const input of ['A', 'AQI=====', '!!!!', 'AQJ=', 'A=AA']) {
  test(`base64ToBytes(${JSON.stringify(input)}) fails with BAD_BASE64`, () => {
    try {
      base64ToBytes(input);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, TpkitError);
      assert.is((err as TpkitError).code, 'BAD_BASE64');
    }
  });
}

test.run();
