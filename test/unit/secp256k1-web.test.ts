// The browser build's secp256k1 (src/crypto/secp256k1.web.ts, @noble/secp256k1) against the
// Node entry's (src/crypto/secp256k1.ts, @noble/curves): the same signatures byte for byte,
// the same public keys, the same verdicts on valid, high-S, tampered and foreign signatures,
// the same key and point checks. Then the built bundle itself signs as the Node entry does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { CURVE_ORDER as CURVES_ORDER, secp256k1 as curves } from '../../src/crypto/secp256k1.js';
import { CURVE_ORDER as WEB_ORDER, secp256k1 as web } from '../../src/crypto/secp256k1.web.js';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';

const SIGN = { prehash: false, lowS: true, extraEntropy: false, format: 'compact' } as const;
const VERIFY = { prehash: false, lowS: false, format: 'compact' } as const;
const N = CURVES_ORDER;
const be32 = (value: bigint) => hexToBytes(value.toString(16).padStart(64, '0'));
const verdict = (lib: typeof curves | typeof web, sig: Uint8Array, digest: Uint8Array, key: Uint8Array) => {
  try {
    return lib.verify(sig, digest, key, VERIFY);
  } catch {
    return 'throws';
  }
};

test('the same curve order', () => {
  assert.is(WEB_ORDER, CURVES_ORDER);
});

test('random keys and digests: same public keys, same signatures, same verdicts', () => {
  for (let i = 0; i < 64; i++) {
    const secretKey = curves.utils.randomSecretKey();
    const digest = new Uint8Array(randomBytes(32));
    const compressed = curves.getPublicKey(secretKey, true);
    assert.is(bytesToHex(web.getPublicKey(secretKey, true)), bytesToHex(compressed));
    assert.is(bytesToHex(web.getPublicKey(secretKey, false)), bytesToHex(curves.getPublicKey(secretKey, false)));
    const sig = curves.sign(digest, secretKey, SIGN);
    assert.is(bytesToHex(web.sign(digest, secretKey, SIGN)), bytesToHex(sig), 'RFC 6979 signatures agree');
    assert.is(verdict(web, sig, digest, compressed), true);
    // High S (n - s) is valid here, as OpenSSL takes it.
    const s = BigInt('0x' + bytesToHex(sig.subarray(32)));
    const high = Uint8Array.from([...sig.subarray(0, 32), ...be32(N - s)]);
    assert.is(verdict(web, high, digest, compressed), verdict(curves, high, digest, compressed));
    assert.is(verdict(web, high, digest, compressed), true);
    // A flipped bit anywhere in signature or digest, and another key.
    const flipped = sig.slice();
    flipped[i % 64] ^= 1 << (i % 8);
    assert.is(verdict(web, flipped, digest, compressed), verdict(curves, flipped, digest, compressed));
    const otherDigest = digest.slice();
    otherDigest[i % 32] ^= 1;
    assert.is(verdict(web, sig, otherDigest, compressed), false);
    assert.is(verdict(web, sig, digest, web.getPublicKey(web.utils.randomSecretKey(), true)), false);
  }
});

test('out-of-range signatures get the same verdict', () => {
  const secretKey = curves.utils.randomSecretKey();
  const digest = new Uint8Array(randomBytes(32));
  const key = curves.getPublicKey(secretKey, true);
  for (const [r, s] of [
    [0n, 1n],
    [1n, 0n],
    [N, 1n],
    [1n, N],
    [N - 1n, N - 1n],
  ]) {
    const sig = Uint8Array.from([...be32(r), ...be32(s)]);
    assert.is(verdict(web, sig, digest, key), verdict(curves, sig, digest, key), `r=${r} s=${s}`);
  }
});

test('secret-key and point checks agree at the edges', () => {
  for (const value of [0n, 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n]) {
    assert.is(web.utils.isValidSecretKey(be32(value)), curves.utils.isValidSecretKey(be32(value)), `key ${value}`);
  }
  const point = (lib: typeof curves | typeof web, bytes: Uint8Array) => {
    try {
      return bytesToHex(lib.Point.fromBytes(bytes).toBytes(true));
    } catch {
      return 'throws';
    }
  };
  const good = curves.getPublicKey(curves.utils.randomSecretKey(), false);
  const offCurve = good.slice();
  offCurve[64] ^= 1;
  const badX = Uint8Array.from([2, ...be32(2n ** 256n - 1n)]);
  for (const bytes of [good, good.subarray(0, 33).map((b, i) => (i === 0 ? 2 + (good[64] & 1) : b)), offCurve, badX, new Uint8Array(33)]) {
    assert.is(point(web, bytes), point(curves, bytes), bytesToHex(bytes));
  }
});

test('the built browser bundle signs and checks keys as the Node entry does', async () => {
  const bundle = await import(new URL('../../browser/tpkit.js', import.meta.url).href);
  const node = await import('../../src/index.js');
  for (let i = 0; i < 8; i++) {
    const secretKey = node.generateSecretKey();
    const digest = node.sha256(new Uint8Array(randomBytes(40)));
    assert.is(bytesToHex(bundle.publicKeyOf(secretKey)), bytesToHex(node.publicKeyOf(secretKey)));
    assert.is(bytesToHex(bundle.signDigest(digest, secretKey)), bytesToHex(node.signDigest(digest, secretKey)));
  }
});

test.run();
