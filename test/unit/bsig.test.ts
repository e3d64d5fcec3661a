import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicKey, randomBytes, verify as nodeVerify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, concatBytes, hexToBytes } from '../../src/bytes.js';
import { bsigDigest, signBsig, verifyBsig } from '../../src/crypto/bsig.js';
import { BSIG_TAG, decodeBsig, encodeBsig, encodeTlv, encodeTlvs } from '../../src/crypto/bsig-tlv.js';
import { encodeDerSignature, parseDerSignature } from '../../src/crypto/der.js';
import { createSigner } from '../../src/crypto/ecdsa.js';
import { sha256 } from '../../src/hash.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { publicKeyToPem } from '../../src/crypto/pem.js';
import { vectors } from '../helpers/vectors.js';

const N = secp256k1.Point.Fn.ORDER;
const hello = vectors.bsig_hello;
const helloData = new TextEncoder().encode(hello.payload_utf8);
const utf8 = new TextEncoder();

/** What OpenSSL (the reference node's verifier) says about a DER signature over signedFields ‖ data. */
function opensslVerifies(publicKey: Uint8Array, signed: Uint8Array, der: Uint8Array): boolean {
  let key;
  try {
    key = createPublicKey(publicKeyToPem(publicKey));
  } catch {
    return false; // not a point: the reference node fails the transaction
  }
  return nodeVerify('sha256', signed, { key, dsaEncoding: 'der' }, der);
}

test('bsig_hello: signed data, digest, fields and the published signature', () => {
  const bsig = hexToBytes(hello.bsig);
  const decoded = decodeBsig(bsig);
  assert.is(bytesToHex(decoded.signature, true), hello.der_signature.toUpperCase());
  assert.is(bytesToHex(decoded.publicKey, true), hello.public_key.toUpperCase());
  assert.is(decoded.timestamp, Number(BigInt('0x' + hello.timestamp_hex)));
  assert.equal(
    decoded.fields.map((f) => [f.tag, f.name]),
    [
      [2, 'pubkey'],
      [1, 'timestamp'],
    ],
  );
  assert.is(bytesToHex(concatBytes(decoded.signedFields, helloData), true), hello.signed_data.toUpperCase());
  assert.is(bytesToHex(bsigDigest(decoded, helloData), true), hello.sha256.toUpperCase());
  assert.equal(encodeBsig(decoded.signature, encodeTlvs(decoded.fields)), bsig, 're-encodes to the same bytes');

  const result = verifyBsig(bsig, helloData);
  assert.ok(result.valid);
  assert.is(result.reason, undefined);
  assert.is(result.timestamp, decoded.timestamp);
  assert.ok(opensslVerifies(decoded.publicKey, hexToBytes(hello.signed_data), decoded.signature));
  assert.not.ok(verifyBsig(bsig, utf8.encode('Hello, world?')).valid);
});

test('signBsig with the bsig_hello key and timestamp: R6 layout, deterministic, verifies everywhere', () => {
  const timestamp = BigInt('0x' + hello.timestamp_hex);
  const bsig = signBsig(helloData, hexToBytes(hello.secret_key), { timestamp });
  assert.equal(signBsig(helloData, hello.secret_key, { timestamp: Number(timestamp) }), bsig, 'same bytes for hex key and number timestamp');
  const decoded = decodeBsig(bsig);
  // signature, pubkey, timestamp: everything after the signature is the published signed prefix
  assert.is(bytesToHex(concatBytes(decoded.signedFields, helloData), true), hello.signed_data.toUpperCase());
  assert.is(bytesToHex(bsigDigest(decoded, helloData), true), hello.sha256.toUpperCase());
  const digest = hexToBytes(hello.sha256);
  const noble = secp256k1.sign(digest, hexToBytes(hello.secret_key), { prehash: false, lowS: true, extraEntropy: false, format: 'der' });
  assert.equal(decoded.signature, noble, 'RFC 6979 low-S, as noble signs');
  assert.ok(verifyBsig(bsig, helloData).valid);
  assert.ok(opensslVerifies(decoded.publicKey, hexToBytes(hello.signed_data), decoded.signature));
});

test('random keys and data: sign, verify, OpenSSL agrees, s is low, signing never throws', () => {
  for (let i = 0; i < 60; i++) {
    const sk = generateSecretKey();
    const data = new Uint8Array(randomBytes(i * 7));
    const bsig = signBsig(data, sk, { timestamp: 1_700_000_000_000 + i });
    const decoded = decodeBsig(bsig);
    assert.equal(decoded.publicKey, publicKeyOf(sk));
    assert.is(decoded.timestamp, 1_700_000_000_000 + i);
    const { s } = parseDerSignature(decoded.signature);
    assert.ok(s <= N >> 1n, 'low S');
    assert.ok(verifyBsig(bsig, data).valid);
    assert.ok(opensslVerifies(decoded.publicKey, concatBytes(decoded.signedFields, data), decoded.signature));
  }
});

test('timestamp defaults to now', () => {
  const before = Date.now();
  const decoded = decodeBsig(signBsig(new Uint8Array(3), generateSecretKey()));
  assert.ok(decoded.timestamp! >= before && decoded.timestamp! <= Date.now());
});

test('extra fields, two-byte TLV lengths: round-trip, signed, OpenSSL agrees', () => {
  const sk = generateSecretKey();
  const data = utf8.encode('body');
  for (const size of [0, 1, 127, 128, 255, 256, 1000, 32767]) {
    const blob = new Uint8Array(randomBytes(size));
    const bsig = signBsig(data, sk, {
      timestamp: 5,
      extraFields: [
        { tag: BSIG_TAG.other, value: blob },
        { tag: BSIG_TAG.expire, value: 123456789n },
        { tag: BSIG_TAG.createduration, value: 60_000 },
        { tag: BSIG_TAG.purpose, value: 'transfer' },
      ],
    });
    const decoded = decodeBsig(bsig);
    assert.equal(decoded.other, blob, `size ${size}`);
    assert.is(decoded.expire, 123456789n);
    assert.is(decoded.createDuration, 60_000n);
    assert.is(decoded.purpose, 'transfer');
    assert.equal(
      decoded.fields.map((f) => f.name),
      ['pubkey', 'timestamp', 'other', 'expire', 'createduration', 'purpose'],
    );
    assert.equal(encodeBsig(decoded.signature, encodeTlvs(decoded.fields)), bsig);
    const otherTlv = encodeTlv(BSIG_TAG.other, blob);
    assert.is(otherTlv.length, size + (size < 128 ? 2 : 3));
    if (size >= 128) assert.equal([otherTlv[1], otherTlv[2]], [0x80 | (size >> 8), size & 0xff]);
    assert.ok(verifyBsig(bsig, data).valid);
    assert.ok(opensslVerifies(decoded.publicKey, concatBytes(decoded.signedFields, data), decoded.signature));
  }
});

test('the reference decoding rules: tag 4 is createduration, odd-length u64 fields are ignored, local data', () => {
  const sk = generateSecretKey();
  const data = utf8.encode('x');
  const bsig = signBsig(data, sk, {
    timestamp: 7,
    extraFields: [
      { tag: 4, value: 99n },
      { tag: BSIG_TAG.expire, value: new Uint8Array(4) },
      { tag: 77, value: new Uint8Array([1]) },
    ],
  });
  const decoded = decodeBsig(bsig);
  assert.is(decoded.createDuration, 99n);
  assert.is(decoded.expire, undefined);
  assert.equal(
    decoded.fields.map((f) => f.name),
    ['pubkey', 'timestamp', 'createduration', 'expire', 'unknown'],
  );
  // a two-byte length below 128 is accepted as the reference does; the digest uses the bytes as sent
  const longForm = concatBytes(decoded.signedFields, Uint8Array.of(9, 0x80, 1, 0xaa));
  const resigned = concatBytes(Uint8Array.of(255, 0), longForm);
  assert.equal(decodeBsig(resigned).fields.at(-1)!.value, Uint8Array.of(0xaa));
  // unsigned local data (tag 254) before the signature does not enter the digest
  const withLocal = encodeBsig(decoded.signature, decoded.signedFields, utf8.encode('note'));
  assert.equal(decodeBsig(withLocal).localData, utf8.encode('note'));
  assert.ok(verifyBsig(withLocal, data).valid);
});

test('decodeBsig: of several local-data TLVs the last is kept (as the reference), the signature still verifies', () => {
  const data = utf8.encode('several local data');
  const signed = signBsig(data, generateSecretKey(), { timestamp: 1 });
  const { signature, signedFields } = decodeBsig(signed);
  const sigTlv = encodeBsig(signature, signedFields);
  for (let count = 2; count <= 6; count++) {
    const notes = Array.from({ length: count }, (_, i) => utf8.encode(`note ${i} `.repeat(i + 1)));
    const local = notes.map((n) => concatBytes(Uint8Array.of(254, n.length), n));
    const bsig = concatBytes(...local, sigTlv);
    const decoded = decodeBsig(bsig);
    assert.equal(decoded.localData, notes.at(-1), `${count} local-data TLVs: the last wins`);
    assert.ok(verifyBsig(bsig, data).valid, `${count} local-data TLVs stay outside the digest`);
  }
});

function rawDer(rContent: Uint8Array, sContent: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(0x30, 4 + rContent.length + sContent.length, 2, rContent.length), rContent, Uint8Array.of(2, sContent.length), sContent);
}

function integerContents(der: Uint8Array): [Uint8Array, Uint8Array] {
  const rl = der[3];
  return [der.slice(4, 4 + rl), der.slice(6 + rl)];
}

const stripZero = (c: Uint8Array) => (c[0] === 0 && c.length > 1 ? c.slice(1) : c);

/** Signature encodings around a valid one: what the reference node must accept and reject. */
function mutations(der: Uint8Array): [string, Uint8Array][] {
  const { r, s } = parseDerSignature(der);
  const [rc, sc] = integerContents(der);
  const flip = (pos: number) => {
    const m = der.slice();
    m[pos] ^= 1 << (pos % 8);
    return m;
  };
  return [
    ['as signed', der],
    ['high S (n - s)', encodeDerSignature(r, N - s)],
    ['extra 0x00 before r', rawDer(concatBytes(Uint8Array.of(0), rc), sc)],
    ['extra 0x00 before s', rawDer(rc, concatBytes(Uint8Array.of(0), sc))],
    ['r without its 0x00 pad (negative when the top bit is set)', rawDer(stripZero(rc), sc)],
    ['high S without its 0x00 pad', rawDer(rc, stripZero(integerContents(encodeDerSignature(r, N - s))[1]))],
    ['short r (top byte dropped)', rawDer(rc.slice(1), sc)],
    ['r + n (valid DER, out of range)', encodeDerSignature(r + N, s)],
    ['s + n', encodeDerSignature(r, s + N)],
    ['r = 0', encodeDerSignature(0n, s)],
    ['s = 0', encodeDerSignature(r, 0n)],
    ['s = n', encodeDerSignature(r, N)],
    ['trailing 0x00', concatBytes(der, Uint8Array.of(0))],
    [
      'SEQUENCE length + 1',
      (() => {
        const m = der.slice();
        m[1]++;
        return m;
      })(),
    ],
    ['SEQUENCE long form', concatBytes(Uint8Array.of(0x30, 0x81), der.subarray(1))],
    ['truncated', der.slice(0, -1)],
    ['bit flip in r', flip(6)],
    ['bit flip in s', flip(der.length - 3)],
    ['bit flip in a header byte', flip(2)],
    [
      'random byte',
      (() => {
        const m = der.slice();
        m[(der[5] * 7) % der.length] = der[9];
        return m;
      })(),
    ],
  ];
}

test('differential: verifyBsig agrees with OpenSSL on mutated signatures, data and keys', () => {
  let accepted = 0;
  let rejected = 0;
  for (let i = 0; i < 25; i++) {
    const sk = generateSecretKey();
    const data = new Uint8Array(randomBytes(20 + i));
    const bsig = signBsig(data, sk, { timestamp: 1_600_000_000_000 + i });
    const { signature, publicKey, signedFields } = decodeBsig(bsig);
    const signed = concatBytes(signedFields, data);
    for (const [label, der] of mutations(signature)) {
      const ours = verifyBsig(encodeBsig(der, signedFields), data);
      const openssl = opensslVerifies(publicKey, signed, der);
      assert.is(ours.valid, openssl, `${label}: ${bytesToHex(der)}`);
      if (ours.valid) accepted++;
      else rejected++;
      if (!ours.valid) assert.ok(ours.reason === 'BSIG_BAD_DER' || ours.reason === 'SIG_INVALID', label);
    }
    // a bit flip in the data, and in the public key (inside the signed fields)
    const flipped = data.slice();
    flipped[i % data.length] ^= 0x10;
    assert.is(verifyBsig(bsig, flipped).valid, false);
    assert.is(opensslVerifies(publicKey, concatBytes(signedFields, flipped), signature), false);
    const badKeyFields = signedFields.slice();
    badKeyFields[2 + 1 + (i % 32)] ^= 0x01;
    const badKey = badKeyFields.slice(2, 35);
    const ours = verifyBsig(encodeBsig(signature, badKeyFields), data);
    assert.is(ours.valid, false);
    assert.is(opensslVerifies(badKey, concatBytes(badKeyFields, data), signature), false);
    assert.ok(ours.reason === 'KEY_INVALID' || ours.reason === 'SIG_INVALID');
  }
  assert.ok(accepted >= 50 && rejected >= 300, `both outcomes occur (${accepted} accepted, ${rejected} rejected)`);
});

test('verifyBsig reasons: bad DER, bad key (outranks), mismatch', () => {
  const sk = generateSecretKey();
  const data = utf8.encode('data');
  const { signature, signedFields } = decodeBsig(signBsig(data, sk, { timestamp: 1 }));
  assert.is(verifyBsig(encodeBsig(concatBytes(signature, Uint8Array.of(0)), signedFields), data).reason, 'BSIG_BAD_DER');
  assert.is(verifyBsig(encodeBsig(signature, signedFields), utf8.encode('other')).reason, 'SIG_INVALID');
  const offCurve = concatBytes(Uint8Array.of(2, 33, 2), new Uint8Array(31), Uint8Array.of(5), signedFields.subarray(35));
  const bad = verifyBsig(encodeBsig(concatBytes(signature, Uint8Array.of(0)), offCurve), data);
  assert.is(bad.reason, 'KEY_INVALID');
  assert.ok(bad.details);
  const short = verifyBsig(encodeBsig(signature, concatBytes(Uint8Array.of(2, 1, 2), signedFields.subarray(35))), data);
  assert.is(short.reason, 'KEY_INVALID');
});

test('uncompressed 65-byte public keys verify, as in the reference node', () => {
  const sk = generateSecretKey();
  const full = secp256k1.getPublicKey(sk, false);
  const data = utf8.encode('hello');
  const signedFields = concatBytes(encodeTlv(2, full), encodeTlv(1, new Uint8Array(8)));
  const digest = sha256(concatBytes(signedFields, data));
  const bsig = encodeBsig(createSigner(sk).signDigest(digest), signedFields);
  const result = verifyBsig(bsig, data);
  assert.ok(result.valid);
  assert.equal(result.publicKey, full, 'the key as carried');
});

test('BSigs as the official SDK writes them (pubkey only, no timestamp) verify', () => {
  const sk = generateSecretKey();
  const data = utf8.encode('sdk body');
  const signedFields = encodeTlv(BSIG_TAG.pubkey, publicKeyOf(sk));
  const bsig = encodeBsig(createSigner(sk).signDigest(sha256(concatBytes(signedFields, data))), signedFields);
  const result = verifyBsig(bsig, data);
  assert.ok(result.valid);
  assert.is(result.timestamp, undefined);
});

test('a plugged-in verifier gets r ‖ s, the digest and the key; a throwing one means invalid', () => {
  const sk = generateSecretKey();
  const data = utf8.encode('plug');
  const bsig = signBsig(data, sk, { timestamp: 2 });
  const decoded = decodeBsig(bsig);
  const { r, s } = parseDerSignature(decoded.signature);
  const calls: Uint8Array[][] = [];
  const result = verifyBsig(bsig, data, {
    verifier: (sig, digest, key) => {
      calls.push([sig, digest, key]);
      return secp256k1.verify(sig, digest, key, { prehash: false, lowS: false });
    },
  });
  assert.ok(result.valid);
  assert.is(calls.length, 1);
  assert.is(bytesToHex(calls[0][0]), r.toString(16).padStart(64, '0') + s.toString(16).padStart(64, '0'));
  assert.equal(calls[0][1], bsigDigest(decoded, data));
  assert.equal(calls[0][2], publicKeyOf(sk));
  assert.not.ok(
    verifyBsig(bsig, data, {
      verifier: () => {
        throw new Error('native failure');
      },
    }).valid,
  );
  assert.not.ok(verifyBsig(bsig, data, { verifier: () => false }).valid);
});

test('a Signer signs like its secret key', () => {
  const sk = generateSecretKey();
  const signer = createSigner(sk);
  assert.equal(signer.publicKey, publicKeyOf(sk));
  const data = utf8.encode('same');
  assert.equal(signBsig(data, signer, { timestamp: 9 }), signBsig(data, sk, { timestamp: 9 }));
  // a reused Uint8Array whose content changed must not sign with a stale public key
  const mutable = sk.slice();
  signBsig(data, mutable, { timestamp: 9 });
  mutable.set(generateSecretKey());
  assert.equal(decodeBsig(signBsig(data, mutable, { timestamp: 9 })).publicKey, publicKeyOf(mutable));
  assert.ok(verifyBsig(signBsig(data, mutable), data).valid);
});

test('a timestamp, createduration or expire of more than 8 bytes is ignored as the reference does; the first 8-byte one counts', () => {
  const u64 = (n: number) => {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, BigInt(n));
    return out;
  };
  const nine = new Uint8Array(9).fill(1);
  const pubkey = publicKeyOf(generateSecretKey());
  const signature = encodeDerSignature(1n, 1n);
  const fields = [
    { tag: BSIG_TAG.pubkey, value: pubkey },
    { tag: BSIG_TAG.timestamp, value: nine },
    { tag: BSIG_TAG.timestamp, value: u64(42) },
    { tag: BSIG_TAG.expire, value: nine },
    { tag: BSIG_TAG.expire, value: u64(43) },
    { tag: BSIG_TAG.createduration, value: nine },
  ];
  const decoded = decodeBsig(encodeBsig(signature, encodeTlvs(fields)));
  assert.is(decoded.timestamp, 42);
  assert.is(decoded.expire, 43n);
  assert.is(decoded.createDuration, undefined);
  const onlyLong = decodeBsig(encodeBsig(signature, encodeTlvs([fields[0], fields[1], fields[3], fields[5]])));
  assert.is(onlyLong.timestamp, undefined);
  assert.is(onlyLong.expire, undefined);
  assert.is(onlyLong.createDuration, undefined);
});

test('r or s out of 1..n-1 is SIG_INVALID, even where its low 256 bits are a valid signature', () => {
  const data = utf8.encode('range');
  const bsig = signBsig(data, generateSecretKey());
  const decoded = decodeBsig(bsig);
  const { r, s } = parseDerSignature(decoded.signature);
  assert.ok(verifyBsig(bsig, data).valid);
  const cases: [bigint, bigint, string][] = [
    [r + (1n << 256n), s, 'r + 2^256'],
    [r, s + (1n << 256n), 's + 2^256'],
    [r + N, s, 'r + n'],
    [0n, s, 'r = 0'],
    [r, 0n, 's = 0'],
    [N, s, 'r = n'],
  ];
  for (const [badR, badS, label] of cases) {
    const result = verifyBsig(encodeBsig(encodeDerSignature(badR, badS), decoded.signedFields), data);
    assert.is(result.valid, false, label);
    assert.is(result.reason, 'SIG_INVALID', label);
  }
});

test.run();
