import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicKey, randomBytes, verify as opensslVerify } from 'node:crypto';
import { DER } from '@noble/curves/abstract/der.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { publicKeyToSpki } from '../../src/crypto/pem.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { encodeDerSignature, encodeDerSignatureBytes, parseDerSignature } from '../../src/crypto/der.js';
import { TpkitError } from '../../src/errors.js';
import * as publicApi from '../../src/crypto/index.js';
import { vectors } from '../helpers/vectors.js';

const N = secp256k1.Point.Fn.ORDER;
const randomScalar = () => BigInt('0x' + randomBytes(32).toString('hex')) % N;

function throwsBadDer(der: string, label: string) {
  try {
    parseDerSignature(hexToBytes(der));
  } catch (error) {
    assert.instance(error, TpkitError, label);
    assert.is((error as TpkitError).code, 'BSIG_BAD_DER', label);
    return;
  }
  assert.unreachable(`expected BSIG_BAD_DER: ${label} ${der}`);
}

test('the published DER signature parses and re-encodes to the same bytes', () => {
  const der = hexToBytes(vectors.bsig_hello.der_signature);
  const { r, s } = parseDerSignature(der);
  assert.is(r, 0x5250d827749f285ce174137ec88b394092e43b9e6c6774045ee5e6ed50232252n);
  assert.is(s, 0x4d1628f019e57bf19c1a0fe37193355a059f22cf8203d85e112ff3b4873d46fen);
  assert.equal(encodeDerSignature(r, s), der);
});

test('encodeDerSignature equals noble DER for random signatures, and parses back', () => {
  for (let i = 0; i < 300; i++) {
    // random (r, s) of every size class: top bit set (33-byte INTEGER), short values
    const shift = BigInt(8 * (i % 33));
    const r = randomScalar() >> shift || 1n;
    const s = randomScalar() || 1n;
    const der = encodeDerSignature(r, s);
    assert.is(bytesToHex(der), new secp256k1.Signature(r, s).toHex('der'));
    assert.equal(parseDerSignature(der), { r, s });
    // fixed-width 32-byte halves, as in a compact signature, give the same DER
    const compact = new secp256k1.Signature(r, s).toBytes('compact');
    assert.equal(encodeDerSignatureBytes(compact.subarray(0, 32), compact.subarray(32)), der);
  }
});

test('edge values: zero, one, n and 2^256 are valid DER (the range is checked when verifying)', () => {
  for (const [r, s, hex] of [
    [0n, 0n, '3006020100020100'],
    [1n, 0x80n, '300702010102020080'],
    [0x7fn, 0xffn, '300702017f020200ff'],
  ] as const) {
    assert.is(bytesToHex(encodeDerSignature(r, s)), hex);
    assert.equal(parseDerSignature(hexToBytes(hex)), { r, s });
  }
  for (const v of [N, 1n << 256n]) assert.equal(parseDerSignature(encodeDerSignature(v, v)), { r: v, s: v });
});

test('long-form lengths are used only when needed, and parse back', () => {
  const big = (1n << 900n) + 12345n; // 113-byte INTEGERs: the SEQUENCE needs 0x81
  const der = encodeDerSignature(big, big);
  assert.is(der[1], 0x81);
  assert.equal(parseDerSignature(der), { r: big, s: big });
  const huge = 1n << 2100n; // 264-byte INTEGERs: 0x82 everywhere
  const der2 = encodeDerSignature(huge, huge);
  assert.is(der2[1], 0x82);
  assert.equal(parseDerSignature(der2), { r: huge, s: huge });
});

// What OpenSSL's decode + re-encode check rejects (ossl_ecdsa_verify).
test('non-strict encodings are BSIG_BAD_DER', () => {
  const r = '5250d827749f285ce174137ec88b394092e43b9e6c6774045ee5e6ed50232252';
  const s = '4d1628f019e57bf19c1a0fe37193355a059f22cf8203d85e112ff3b4873d46fe';
  const ok = `30440220${r}0220${s}`;
  parseDerSignature(hexToBytes(ok));
  const cases: [string, string][] = [
    ['', 'empty'],
    ['30', 'SEQUENCE without length'],
    ['3000', 'empty SEQUENCE'],
    [`31440220${r}0220${s}`, 'SET tag'],
    [`30450220${r}0220${s}`, 'SEQUENCE length too long'],
    [`30430220${r}0220${s}`, 'SEQUENCE length too short'],
    [`3081440220${r}0220${s}`, 'SEQUENCE long-form length below 128'],
    [`308200440220${r}0220${s}`, 'SEQUENCE two-byte length below 256'],
    [`3080${ok.slice(4)}0000`, 'indefinite length'],
    [`${ok}00`, 'trailing byte'],
    [`30460220${r}0220${s}0000`, 'trailing element inside'],
    [`30440221${r}0220${s}`, 'INTEGER r length runs into s'],
    [`30440220${r}0221${s}`, 'INTEGER s length past the SEQUENCE'],
    [`3045022100${r}0220${s}`, 'r with superfluous leading zero'],
    [`304402200000${r.slice(4)}0220${s}`, 'r with two leading zeros'],
    [`30440220${'00' + r.slice(2)}0220${s}`, 'r starting with a zero byte before a low byte'],
    [`30440220${'8' + r.slice(1)}0220${s}`, 'negative r (missing 0x00 pad)'],
    [`30440220${r}0220${'c' + s.slice(1)}`, 'negative s'],
    [`30240220${r}`, 's missing'],
    [`30250220${r}02`, 's without length'],
    [`30260220${r}0200`, 'empty s'],
    [`30440320${r}0220${s}`, 'BIT STRING instead of INTEGER'],
    [`3045028120${r}0220${s}`, 'INTEGER long-form length below 128'],
    [`30450220${r}022100${s}`, 's with superfluous leading zero'],
  ];
  for (const [hex, label] of cases) throwsBadDer(hex, label);
});

test('noble-produced signatures always parse; bytes after them never do', () => {
  const sk = secp256k1.utils.randomSecretKey();
  for (let i = 0; i < 40; i++) {
    const der = secp256k1.sign(randomBytes(32), sk, { prehash: false, format: 'der' });
    parseDerSignature(der);
    throwsBadDer(bytesToHex(der) + '00', 'trailing');
    throwsBadDer(bytesToHex(der.subarray(0, der.length - 1)), 'truncated');
  }
});

// Through the public API only, whichever DER parser sits behind it.
test('a superfluous leading zero is refused in an INTEGER of any length, 2 bytes included', () => {
  const data = new TextEncoder().encode('der');
  const decoded = publicApi.decodeBsig(publicApi.signBsig(data, publicApi.generateSecretKey()));
  const { r, s } = publicApi.parseDerSignature(decoded.signature); // a valid signature's values
  const hex = (n: bigint) => n.toString(16).padStart(64, '0');
  const cases: [string, string][] = [
    ['3007020200010201' + '01', 'r = 00 01'],
    ['3007020101020200' + '7f', 's = 00 7f'],
    ['30080202007f020200' + '01', 'both 2 bytes'],
    ['3008020300007f020101', 'r = 00 00 7f'],
    [`3045022100${hex(r & ((1n << 255n) - 1n))}0220${hex(s)}`, 'a 33-byte r whose zero is not needed'],
  ];
  for (const [der, label] of cases) {
    let code: string | undefined;
    try {
      publicApi.parseDerSignature(hexToBytes(der));
    } catch (error) {
      code = (error as TpkitError).code;
    }
    assert.is(code, 'BSIG_BAD_DER', label);
    // verifyBsig reports the encoding, not a mismatch, for the same bytes in a BSig
    const bsig = publicApi.encodeBsig(hexToBytes(der), decoded.signedFields);
    const result = publicApi.verifyBsig(bsig, data);
    assert.is(result.valid, false, label);
    assert.is(result.reason, 'BSIG_BAD_DER', label);
  }
});

/**
 * Every encoding of a signature's (r, s) a mutation reaches from the canonical one: truncations,
 * extra bytes, each byte replaced, zeros inserted, long-form lengths, padded INTEGERs.
 */
function mutations(der: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  const splice = (at: number, remove: number, ...insert: number[]) => Uint8Array.from([...der.subarray(0, at), ...insert, ...der.subarray(at + remove)]);
  for (let n = 0; n < der.length; n++) out.push(der.slice(0, n));
  for (const extra of [0x00, 0x01, 0x02, 0x30, 0x80]) out.push(Uint8Array.from([...der, extra]));
  for (let i = 0; i < der.length; i++) {
    for (const value of [0x00, 0x01, 0x02, 0x30, 0x7f, 0x80, 0x81, 0x82, 0xff, der[i] ^ 1, der[i] + 1, der[i] - 1]) {
      if ((value & 0xff) !== der[i]) out.push(splice(i, 1, value & 0xff));
    }
    out.push(splice(i, 0, 0x00));
  }
  // lengths in long form, and INTEGERs padded with a zero (lengths fixed up or not)
  const rLen = der[3];
  const sAt = 4 + rLen;
  out.push(Uint8Array.from([0x30, 0x81, ...der.subarray(1)]));
  out.push(Uint8Array.from([0x30, 0x82, 0x00, ...der.subarray(1)]));
  out.push(Uint8Array.from([0x30, der[1] + 1, 0x02, 0x81, rLen, ...der.subarray(4)]));
  out.push(Uint8Array.from([0x30, der[1] + 1, 0x02, rLen + 1, 0x00, ...der.subarray(4)]));
  out.push(Uint8Array.from([0x30, der[1] + 1, ...der.subarray(2, sAt), 0x02, der[sAt + 1] + 1, 0x00, ...der.subarray(sAt + 2)]));
  out.push(Uint8Array.from([0x30, 0x80, ...der.subarray(2), 0x00, 0x00]));
  return out;
}

/** What OpenSSL (the reference node's verifier, through node:crypto) says of an encoding. */
function opensslAccepts(message: Uint8Array, spki: ReturnType<typeof createPublicKey>, der: Uint8Array): boolean {
  return opensslVerify('sha256', message, spki, der);
}

function ours(der: Uint8Array): { r: bigint; s: bigint } | 'BSIG_BAD_DER' {
  try {
    return parseDerSignature(der);
  } catch (error) {
    assert.instance(error, TpkitError);
    assert.is((error as TpkitError).code, 'BSIG_BAD_DER', (error as Error).message);
    return 'BSIG_BAD_DER';
  }
}

function nobles(der: Uint8Array): { r: bigint; s: bigint } | 'BSIG_BAD_DER' {
  try {
    return DER.toSig(der);
  } catch {
    return 'BSIG_BAD_DER';
  }
}

test('differential: our parser, noble DER and OpenSSL agree on every mutated encoding', () => {
  const sk = secp256k1.utils.randomSecretKey();
  const spki = createPublicKey({ key: Buffer.from(publicKeyToSpki(secp256k1.getPublicKey(sk))), format: 'der', type: 'spki' });
  let tried = 0;
  let accepted = 0;
  for (let i = 0; i < 12; i++) {
    const message = randomBytes(40);
    // both INTEGER sizes: r and s with and without the 0x00 pad, as signing produces them
    const der = secp256k1.sign(sha256(message), sk, { prehash: false, format: 'der' });
    const canonical = ours(der);
    assert.ok(canonical !== 'BSIG_BAD_DER');
    for (const candidate of mutations(der)) {
      tried++;
      const mine = ours(candidate);
      assert.equal(mine, nobles(candidate), `ours and noble differ on ${bytesToHex(candidate)}`);
      // OpenSSL accepts exactly the canonical encoding of a valid (r, s): ours must parse it
      // to the same (r, s), and refuse or change every other.
      const same = mine !== 'BSIG_BAD_DER' && mine.r === canonical.r && mine.s === canonical.s;
      assert.is(opensslAccepts(message, spki, candidate), same, `OpenSSL and ours differ on ${bytesToHex(candidate)}`);
      if (mine !== 'BSIG_BAD_DER') accepted++;
    }
  }
  assert.ok(tried > 5000 && accepted > 0 && accepted < tried, `${tried} encodings, ${accepted} parsed`);
});

test('a signature longer than a two-byte DER length can describe is refused before parsing', () => {
  // well-formed DER whose SEQUENCE needs a three-byte length (0x83): never a signature
  const big = (1n << 280_000n) - 1n;
  const huge = DER.hexFromSig({ r: big, s: big });
  assert.is(huge.slice(0, 4), '3083');
  throwsBadDer(huge, 'three-byte length');
  // and a 10 MB input is refused by its size, before any byte is read
  const began = performance.now();
  throwsBadDer('30' + '00'.repeat(10 * 1024 * 1024), '10 MB');
  console.log(`  10 MB DER input refused in ${(performance.now() - began).toFixed(1)} ms (hex decoding included)`);
});

test.run();
