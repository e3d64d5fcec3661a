import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createECDH, ECDH, randomBytes } from 'node:crypto';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { generateSecretKey, isValidPublicKey, isValidSecretKey, normalizePublicKey, publicKeyOf } from '../../src/crypto/keys.js';
import { TpkitError } from '../../src/errors.js';
import { vectors } from '../helpers/vectors.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const be32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'));

function throwsCode(fn: () => unknown, code: string) {
  try {
    fn();
  } catch (error) {
    assert.instance(error, TpkitError);
    assert.is((error as TpkitError).code, code);
    return;
  }
  assert.unreachable(`expected ${code}`);
}

test('published secret keys give the published public keys', () => {
  const pairs = [
    ...vectors.public_keys,
    { secret_key: vectors.bsig_hello.secret_key, public_key: vectors.bsig_hello.public_key },
    { secret_key: vectors.generic_tx_tpnode.secret_key, public_key: vectors.generic_tx_tpnode.public_key },
  ];
  for (const { secret_key, public_key } of pairs) {
    assert.is(bytesToHex(publicKeyOf(hexToBytes(secret_key)), true), public_key.toUpperCase());
    assert.is(bytesToHex(publicKeyOf(secret_key), true), public_key.toUpperCase(), 'hex input');
    assert.is(bytesToHex(publicKeyOf('0x' + secret_key.toLowerCase()), true), public_key.toUpperCase(), '0x hex');
  }
});

test('publicKeyOf equals node:crypto ECDH on random keys', () => {
  for (let i = 0; i < 50; i++) {
    const sk = generateSecretKey();
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(sk);
    assert.is(bytesToHex(publicKeyOf(sk)), ecdh.getPublicKey('hex', 'compressed'));
  }
});

test('generateSecretKey: 32 valid, distinct bytes', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const sk = generateSecretKey();
    assert.is(sk.length, 32);
    assert.ok(isValidSecretKey(sk));
    seen.add(bytesToHex(sk));
  }
  assert.is(seen.size, 20);
});

test('isValidSecretKey: range 1..n-1, 32 bytes, never throws', () => {
  assert.ok(isValidSecretKey(be32(1n)));
  assert.ok(isValidSecretKey(be32(N - 1n)));
  assert.ok(isValidSecretKey(bytesToHex(be32(N - 1n))));
  assert.not.ok(isValidSecretKey(be32(0n)));
  assert.not.ok(isValidSecretKey(be32(N)));
  assert.not.ok(isValidSecretKey(new Uint8Array(32).fill(0xff)));
  assert.not.ok(isValidSecretKey(new Uint8Array(31).fill(1)));
  assert.not.ok(isValidSecretKey(new Uint8Array(33).fill(1)));
  for (const bad of [undefined, null, 1, {}, [], 'zz', 'abc']) assert.not.ok(isValidSecretKey(bad));
  throwsCode(() => publicKeyOf(be32(0n)), 'KEY_INVALID');
  throwsCode(() => publicKeyOf(be32(N)), 'KEY_INVALID');
});

test('normalizePublicKey: 65-byte keys are compressed as node:crypto does; 33 kept', () => {
  for (let i = 0; i < 20; i++) {
    const ecdh = createECDH('secp256k1');
    ecdh.generateKeys();
    const full = new Uint8Array(ecdh.getPublicKey());
    const compressed = ecdh.getPublicKey('hex', 'compressed');
    assert.is(bytesToHex(normalizePublicKey(full)), compressed);
    assert.is(bytesToHex(normalizePublicKey(compressed)), compressed);
    assert.ok(isValidPublicKey(full));
  }
});

test('normalizePublicKey rejects what node:crypto rejects (x without a curve point, x >= p)', () => {
  let rejected = 0;
  for (let x = 0n; x < 40n; x++) {
    for (const prefix of ['02', '03']) {
      const hex = prefix + x.toString(16).padStart(64, '0');
      let nodeOk = true;
      try {
        ECDH.convertKey(hex, 'secp256k1', 'hex', 'hex', 'uncompressed');
      } catch {
        nodeOk = false;
      }
      assert.is(isValidPublicKey(hex), nodeOk, hex);
      if (!nodeOk) {
        rejected++;
        throwsCode(() => normalizePublicKey(hex), 'KEY_INVALID');
      }
    }
  }
  assert.ok(rejected > 10, 'some small x have no point');
  throwsCode(() => normalizePublicKey('02' + P.toString(16)), 'KEY_INVALID');
});

test('normalizePublicKey: off-curve 65-byte points, wrong prefixes and lengths are KEY_INVALID', () => {
  const ecdh = createECDH('secp256k1');
  ecdh.generateKeys();
  const full = new Uint8Array(ecdh.getPublicKey());
  const offCurve = full.slice();
  offCurve[64] ^= 1;
  throwsCode(() => normalizePublicKey(offCurve), 'KEY_INVALID');
  const compressed = new Uint8Array(ecdh.getPublicKey(null, 'compressed'));
  for (const prefix of [0, 1, 4, 5, 6, 7]) {
    const k = compressed.slice();
    k[0] = prefix;
    throwsCode(() => normalizePublicKey(k), 'KEY_INVALID');
  }
  const hybrid = full.slice();
  hybrid[0] = 6 | (full[64] & 1); // "hybrid" form: valid point, but not a format the protocol uses
  throwsCode(() => normalizePublicKey(hybrid), 'KEY_INVALID');
  for (const length of [0, 1, 32, 34, 64, 66]) {
    throwsCode(() => normalizePublicKey(new Uint8Array(randomBytes(length))), 'KEY_INVALID');
  }
});

test.run();
