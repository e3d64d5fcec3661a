// The node's libsecp256k1 verifier must agree with the library's noble path on every input:
// valid, high-S, mutated and malformed signatures, and the published vectors.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../src/bytes.js';
import { decodeBsig, encodeBsig } from '../../src/crypto/bsig-tlv.js';
import { bsigDigest, signBsig, verifyBsig } from '../../src/crypto/bsig.js';
import { compactSignature } from '../../src/crypto/ecdsa.js';
import { decodeTx } from '../../src/codec/container.js';
import { createRequire } from 'node:module';
import { encodeDerSignature, parseDerSignature } from '../../src/crypto/der.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { nativeVerifier, verifierBackend } from '../../src/node/ledger/native-verifier.js';

// The development install has the optional secp256k1 peer: the node must be on libsecp256k1 here.
const nativeVerifyDigest = nativeVerifier()!;
import { vectors } from '../helpers/vectors.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function both(bsig: Uint8Array, data: Uint8Array) {
  const noble = verifyBsig(bsig, data);
  const native = verifyBsig(bsig, data, { verifier: nativeVerifyDigest });
  return { noble, native };
}

function agree(bsig: Uint8Array, data: Uint8Array, label: string): boolean {
  const { noble, native } = both(bsig, data);
  assert.is(native.valid, noble.valid, `${label}: native ${native.valid} vs noble ${noble.valid}`);
  assert.is(native.reason, noble.reason, `${label}: reasons differ`);
  return native.valid;
}

function withSignature(bsig: Uint8Array, der: Uint8Array): Uint8Array {
  return encodeBsig(der, decodeBsig(bsig).signedFields);
}

test('the secp256k1 binding loads in this install: the node verifies with libsecp256k1', () => {
  assert.type(nativeVerifier(), 'function');
  assert.is(verifierBackend(), 'libsecp256k1');
});

test('published BSig vector verifies natively', () => {
  const v = vectors.bsig_hello;
  assert.ok(agree(hexToBytes(v.bsig), new TextEncoder().encode(v.payload_utf8), 'bsig_hello'));
});

test('the published high-S transaction verifies natively only thanks to S normalization', () => {
  const tx = decodeTx(vectors.generic_tx_docs.tx_base64);
  const decoded = decodeBsig(tx.sigs[0]);
  const { s } = parseDerSignature(decoded.signature);
  assert.ok(s > N / 2n, 'the docs vector is high-S');
  assert.ok(agree(tx.sigs[0], tx.body, 'generic_tx_docs'));
  // libsecp256k1 on its own refuses it: the normalization is what makes the node accept it
  const { r } = parseDerSignature(decoded.signature);
  const bare = createRequire(import.meta.url)('secp256k1/bindings') as { ecdsaVerify(sig: Uint8Array, msg: Uint8Array, key: Uint8Array): boolean };
  const digest = bsigDigest(decoded, tx.body);
  assert.not.ok(bare.ecdsaVerify(compactSignature(r, s), digest, decoded.publicKey));
  assert.ok(nativeVerifyDigest(compactSignature(r, s), digest, decoded.publicKey));
});

test('random keys and data: native and noble agree, valid and mutated', () => {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < 150; i++) {
    const key = generateSecretKey();
    const data = randomBytes(1 + (i % 200));
    const bsig = signBsig(data, key, { timestamp: 1_700_000_000_000 + i });
    if (agree(bsig, data, `valid #${i}`)) valid++;

    // high S: same (r, n - s) must still verify on both
    const { r, s } = parseDerSignature(decodeBsig(bsig).signature);
    assert.ok(agree(withSignature(bsig, encodeDerSignature(r, N - s)), data, `high-S #${i}`), 'high-S verifies');

    // one flipped bit in the data, the signature, or the signed fields
    const badData = data.slice();
    badData[i % badData.length] ^= 1 << (i % 8);
    if (!agree(bsig, badData, `data bit #${i}`)) invalid++;
    const sig = decodeBsig(bsig).signature.slice();
    sig[sig.length - 1 - (i % 20)] ^= 1;
    if (!agree(withSignature(bsig, sig), data, `sig bit #${i}`)) invalid++;
    const mutated = bsig.slice();
    mutated[mutated.length - 1] ^= 0x80; // last timestamp byte: a signed field
    if (!agree(mutated, data, `field bit #${i}`)) invalid++;
    // r or s out of range, zero, and a non-strict DER encoding
    assert.not.ok(agree(withSignature(bsig, encodeDerSignature(r, N + s)), data, `s >= n #${i}`));
    assert.not.ok(agree(withSignature(bsig, encodeDerSignature(0n, s)), data, `r = 0 #${i}`));
    const loose = Uint8Array.from([0x30, 0x81, ...decodeBsig(bsig).signature.subarray(1)]);
    assert.not.ok(agree(withSignature(bsig, loose), data, `non-strict DER #${i}`));
  }
  assert.is(valid, 150);
  assert.is(invalid, 450);
});

test('a public key off the curve or of a wrong length is invalid on both', () => {
  const key = generateSecretKey();
  const data = randomBytes(40);
  const bsig = signBsig(data, key, { timestamp: 1 });
  const decoded = decodeBsig(bsig);
  const badKey = decoded.publicKey.slice();
  badKey[0] = 0x05;
  const fields = decoded.signedFields.slice();
  fields.set(badKey, 2); // the pubkey TLV comes first: tag, length, key
  const forged = encodeBsig(decoded.signature, fields);
  assert.not.ok(agree(forged, data, 'bad key prefix'));
});

test.run();
