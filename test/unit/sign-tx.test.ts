import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicKey, randomBytes, verify as nodeVerify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64ToBytes, bytesToHex, concatBytes, hexToBytes } from '../../src/bytes.js';
import { decodeTx, encodeTx } from '../../src/codec/container.js';
import { bsigDigest, signBsig } from '../../src/crypto/bsig.js';
import { decodeBsig, encodeBsig } from '../../src/crypto/bsig-tlv.js';
import { encodeDerSignature, parseDerSignature } from '../../src/crypto/der.js';
import { createSigner } from '../../src/crypto/ecdsa.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { publicKeyToPem } from '../../src/crypto/pem.js';
import { addSignature, signTx, verifyTx } from '../../src/crypto/sign-tx.js';
import { vectors } from '../helpers/vectors.js';

const N = secp256k1.Point.Fn.ORDER;
const hex = (b: Uint8Array) => bytesToHex(b, true);

function opensslVerifies(publicKey: Uint8Array, signed: Uint8Array, der: Uint8Array): boolean {
  return nodeVerify('sha256', signed, { key: createPublicKey(publicKeyToPem(publicKey)), dsaEncoding: 'der' }, der);
}

test('generic_tx_docs: the published high-S signature verifies; digest and fields as published', () => {
  const v = vectors.generic_tx_docs;
  const result = verifyTx(v.tx_base64);
  assert.ok(result.valid);
  assert.is(bytesToHex(result.body), v.body_hex);
  assert.is(result.signatures.length, 1);
  const [sig] = result.signatures;
  assert.ok(sig.valid);
  assert.is(hex(sig.publicKey), vectors.bsig_hello.public_key.toUpperCase());
  assert.is(sig.timestamp, Number(v.sig_timestamp));
  const bsig = decodeBsig(decodeTx(v.tx_base64).sigs[0]);
  assert.is(bytesToHex(bsigDigest(bsig, result.body)), v.digest);
  assert.ok(parseDerSignature(bsig.signature).s > N >> 1n, 'the published signature is high-S');
  assert.ok(opensslVerifies(bsig.publicKey, concatBytes(bsig.signedFields, result.body), bsig.signature));
  assert.ok(verifyTx(base64ToBytes(v.tx_base64)).valid, 'bytes input');
});

test('generic_tx_tpnode and register_tx verify with the key derived from the published secret key', () => {
  const key = publicKeyOf(vectors.generic_tx_tpnode.secret_key);
  assert.is(hex(key), vectors.generic_tx_tpnode.public_key.toUpperCase());
  assert.is(hex(key), vectors.public_keys[0].public_key.toUpperCase());
  for (const [name, v] of [
    ['generic_tx_tpnode', vectors.generic_tx_tpnode],
    ['register_tx', vectors.register_tx],
  ] as const) {
    const result = verifyTx(v.tx_base64);
    assert.ok(result.valid, name);
    assert.is(bytesToHex(result.body), v.body_hex, name);
    assert.equal(
      result.signatures.map((s) => s.valid),
      [true],
      name,
    );
    assert.equal(result.signatures[0].publicKey, key, name);
  }
  // R1: the register body's h is the keys hash of the key that signed it
  const h = hexToBytes(vectors.register_tx.body_hex).subarray(8, 40);
  assert.equal(keysHash([key]), h);
});

test('re-signing published bodies: deterministic, verifies here and in OpenSSL', () => {
  const v = vectors.generic_tx_tpnode;
  const body = hexToBytes(v.body_hex);
  const tx = signTx(body, v.secret_key, { timestamp: v.decoded_body.t });
  assert.equal(signTx(body, hexToBytes(v.secret_key), { timestamp: BigInt(v.decoded_body.t) }), tx);
  const { body: carried, sigs, ver } = decodeTx(tx);
  assert.equal(carried, body);
  assert.is(ver, 2);
  const bsig = decodeBsig(sigs[0]);
  assert.is(bsig.timestamp, Number(v.decoded_body.t));
  assert.ok(verifyTx(tx).valid);
  assert.ok(opensslVerifies(bsig.publicKey, concatBytes(bsig.signedFields, body), bsig.signature));
});

test('random bodies and keys: sign, decode, verify; OpenSSL agrees on every signature', () => {
  for (let i = 0; i < 25; i++) {
    const keys = Array.from({ length: 1 + (i % 3) }, () => generateSecretKey());
    const body = new Uint8Array(randomBytes(1 + i * 13));
    const tx = signTx(body, keys);
    const decoded = decodeTx(tx);
    assert.equal(decoded.body, body);
    assert.is(decoded.sigs.length, keys.length);
    const result = verifyTx(tx);
    assert.ok(result.valid);
    assert.equal(
      result.signatures.map((s) => hex(s.publicKey)),
      keys.map((k) => hex(publicKeyOf(k))),
      'one BSig per key, in order',
    );
    assert.is(new Set(result.signatures.map((s) => s.timestamp)).size, 1, 'one timestamp for all');
    for (const sig of decoded.sigs) {
      const b = decodeBsig(sig);
      assert.ok(opensslVerifies(b.publicKey, concatBytes(b.signedFields, body), b.signature));
    }
  }
});

test('signTx accepts Signers, hex keys and a single key', () => {
  const sk = generateSecretKey();
  const body = new Uint8Array([0x80]);
  const a = signTx(body, sk, { timestamp: 1 });
  assert.equal(signTx(body, [createSigner(sk)], { timestamp: 1 }), a);
  assert.equal(signTx(body, bytesToHex(sk), { timestamp: 1 }), a);
});

test('verifyTx: any valid signature counts, a tampered body fails, an unusable key fails the transaction', () => {
  const sk = generateSecretKey();
  const body = new Uint8Array(randomBytes(40));
  const good = signBsig(body, sk);
  const { signature, signedFields } = decodeBsig(good);
  const { r, s } = parseDerSignature(signature);
  const highS = encodeBsig(encodeDerSignature(r, N - s), signedFields);
  const badDer = encodeBsig(concatBytes(Uint8Array.of(0x30, signature[1] + 1), signature.subarray(2), Uint8Array.of(0)), signedFields);
  const wrong = signBsig(new Uint8Array([1]), generateSecretKey());
  const offCurveKey = encodeBsig(signature, concatBytes(Uint8Array.of(2, 33, 2), new Uint8Array(31), Uint8Array.of(5), signedFields.subarray(35)));

  const check = (sigs: Uint8Array[]) => verifyTx(encodeTx({ body, sigs }));
  assert.ok(check([good]).valid);
  assert.ok(check([highS]).valid, 'high-S accepted');
  const mixed = check([badDer, wrong, good]);
  assert.ok(mixed.valid);
  assert.equal(
    mixed.signatures.map((x) => [x.valid, x.reason]),
    [
      [false, 'BSIG_BAD_DER'],
      [false, 'SIG_INVALID'],
      [true, undefined],
    ],
  );
  assert.not.ok(check([badDer, wrong]).valid, 'no valid signature');
  assert.not.ok(check([]).valid, 'no signature at all');
  const withBadKey = check([good, offCurveKey]);
  assert.not.ok(withBadKey.valid);
  assert.is(withBadKey.signatures[1].reason, 'KEY_INVALID');
  // a BSig that does not decode makes the container undecodable, as in the reference node
  try {
    check([good, Uint8Array.of(255, 9, 1)]);
    assert.unreachable('expected BSIG_MALFORMED');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'BSIG_MALFORMED');
  }
  const tampered = body.slice();
  tampered[0] ^= 1;
  assert.not.ok(verifyTx(encodeTx({ body: tampered, sigs: [good] })).valid);
});

test('addSignature: signers take turns; a key that signed is not added twice', () => {
  const [k1, k2, k3] = [generateSecretKey(), generateSecretKey(), generateSecretKey()];
  const body = new Uint8Array(randomBytes(64));
  const one = signTx(body, k1);
  const two = addSignature(one, k2);
  const three = addSignature(bytesToHex(two), k3);
  const result = verifyTx(three);
  assert.ok(result.valid);
  assert.equal(
    result.signatures.map((s) => [s.valid, hex(s.publicKey)]),
    [k1, k2, k3].map((k) => [true, hex(publicKeyOf(k))]),
  );
  assert.equal(addSignature(three, k2), three);
  assert.equal(addSignature(bytesToHex(three), createSigner(k1)), three, 'hex in, the same bytes out');
  assert.equal(decodeTx(three).sigs.slice(0, 2), decodeTx(two).sigs, 'earlier signatures kept byte for byte');
});

test.run();
