import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { hexToBytes } from '../../src/bytes.js';
import { sha256, sha512 } from '../../src/hash.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { leadingZeroBits, powBits } from '../../src/pow/bits.js';
import { vectors } from '../helpers/vectors.js';

test('published PoW vectors: bits of SHA-512(body)', () => {
  for (const v of vectors.pow) {
    const body = hexToBytes(v.body_hex);
    assert.is(powBits(body), v.bits, v.body_hex);
    assert.ok(Buffer.from(sha512(body)).toString('hex').startsWith(v.sha512_prefix));
  }
  assert.is(powBits(hexToBytes(vectors.register_tx.body_hex)), vectors.register_tx.pow_bits);
});

test('leadingZeroBits counts bits across bytes, all zeros = 512', () => {
  assert.is(leadingZeroBits(new Uint8Array([0x38])), 2);
  assert.is(leadingZeroBits(new Uint8Array([0x00, 0x14])), 11);
  assert.is(leadingZeroBits(new Uint8Array([0x80])), 0);
  assert.is(leadingZeroBits(new Uint8Array(64)), 512);
});

test('published keys hash (R1)', () => {
  const keys = vectors.keys_hash.public_keys.map((k) => hexToBytes(k));
  assert.is(Buffer.from(keysHash(keys)).toString('hex').toUpperCase(), vectors.keys_hash.h);
});

test('sha256 and sha512 equal node:crypto on random inputs 0-300 bytes', () => {
  for (let n = 0; n <= 300; n++) {
    const data = new Uint8Array(randomBytes(n));
    assert.is(Buffer.from(sha256(data)).toString('hex'), createHash('sha256').update(data).digest('hex'));
    assert.is(Buffer.from(sha512(data)).toString('hex'), createHash('sha512').update(data).digest('hex'));
  }
});

test('keysHash does not depend on key order and matches node:crypto over the sorted keys', () => {
  const keys = [0, 1, 2].map(() => new Uint8Array([2, ...randomBytes(32)]));
  const sorted = [...keys].sort(Buffer.compare);
  const expected = createHash('sha256').update(Buffer.concat(sorted)).digest('hex');
  assert.is(Buffer.from(keysHash(keys)).toString('hex'), expected);
  assert.is(Buffer.from(keysHash([keys[2], keys[0], keys[1]])).toString('hex'), expected);
});

test.run();
