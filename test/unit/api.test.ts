import { test } from 'uvu';
import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import * as tpkit from '../../src/index.js';
import { vectors } from '../helpers/vectors.js';

const REQUIRED = [
  'encodeTx', 'decodeTx', 'decodeBody', 'registerBody', 'genericBody', 'signBsig', 'verifyBsig', 'decodeBsig',
  'signTx', 'verifyTx', 'keysHash', 'publicKeyOf', 'publicKeyToPem', 'pemToPublicKey', 'addressToText',
  'addressFromText', 'powBits', 'encodeTxid', 'decodeTxid',
  'TpkitError', 'ArgumentError', 'DecodeError', 'ValidationError', 'CryptoError', 'AbortError',
] as const;

test('the package root exports the whole public API', () => {
  for (const name of REQUIRED) assert.type((tpkit as Record<string, unknown>)[name], 'function', name);
});

// The README's library example, step by step: keys, register body, transfer, sign, decode, verify.
test('README example: build, sign, decode and verify a transfer', () => {
  const secretKey = tpkit.hexToBytes(vectors.generic_tx_tpnode.secret_key);
  const publicKey = tpkit.publicKeyOf(secretKey);
  assert.is(tpkit.bytesToHex(publicKey, true), vectors.generic_tx_tpnode.public_key);

  const body = tpkit.genericBody({
    from: 'AA010000003355443516',
    to: 'AA010000003355443737',
    seq: 1n,
    timestamp: 1_700_000_000_000,
    payload: [
      { purpose: 'transfer', currency: 'SK', amount: 10n },
      { purpose: 'srcfee', currency: 'FEE', amount: 20n },
    ],
    extra: { msg: 'hello' },
  });
  const tx = tpkit.signTx(body, secretKey, { timestamp: 1_700_000_000_000 });
  const base64 = tpkit.bytesToBase64(tx);

  const decoded = tpkit.decodeBody(tpkit.decodeTx(base64).body);
  assert.is(decoded.kind, 'generic');
  if (decoded.kind !== 'generic') return;
  assert.is(tpkit.addressToText(decoded.to), 'AA010000003355443737');
  assert.is(decoded.payload[0].amount, 10n);

  const check = tpkit.verifyTx(base64);
  assert.ok(check.valid);
  assert.equal(check.signatures[0].publicKey, publicKey);
  assert.is(check.signatures[0].timestamp, 1_700_000_000_000n);
});

/** Leading zero bits of SHA-512 over `bytes`, counted from node:crypto's digest. */
function sha512Bits(bytes: Uint8Array): number {
  const digest = createHash('sha512').update(bytes).digest();
  let bits = 0;
  while (bits < 512 && !(digest[bits >> 3] & (0x80 >> (bits & 7)))) bits++;
  return bits;
}

test('README example: register body, keys hash and PoW bits', () => {
  const publicKey = tpkit.publicKeyOf(tpkit.hexToBytes(vectors.public_keys[0].secret_key));
  const body = tpkit.registerBody({ publicKeys: [publicKey], timestamp: 1_700_000_000_000, nonce: 5n });
  const decoded = tpkit.decodeBody(body);
  assert.is(decoded.kind, 'register');
  if (decoded.kind !== 'register') return;
  assert.equal(decoded.keysHash, tpkit.keysHash([publicKey]));
  assert.is(decoded.nonce, 5n);
  assert.is(body.length - tpkit.REGISTER_NONCE_WIDTH, body.lastIndexOf(0xcf) + 1);
  assert.is(tpkit.powBits(body), sha512Bits(body));
  for (let nonce = 0n; nonce < 64n; nonce++) {
    const other = tpkit.registerBody({ publicKeys: [publicKey], timestamp: 1, nonce });
    assert.is(tpkit.powBits(other), sha512Bits(other), `nonce ${nonce}`);
  }
});

test('README example: errors carry stable codes', () => {
  try {
    tpkit.addressFromText('AA100000001677722413');
    assert.unreachable();
  } catch (err) {
    assert.instance(err, tpkit.TpkitError);
    assert.is((err as tpkit.TpkitError).code, 'ADDRESS_CHECKSUM');
  }
});

test.run();
