// One table of bad inputs fed to every public crypto function: each must throw a TpkitError
// with the expected code (never a TypeError or RangeError from deeper down).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../src/bytes.js';
import {
  bsigDigest,
  createSigner,
  decodeBsig,
  encodeBsig,
  encodeDerSignature,
  generateSecretKey,
  normalizePublicKey,
  parseDerSignature,
  pemToPublicKey,
  publicKeyOf,
  publicKeyToPem,
  signBsig,
  signDigest,
  verifyBsig,
  addSignature,
  signTx,
  verifyTx,
} from '../../src/crypto/index.js';
import { encodeTx } from '../../src/codec/container.js';
import { TpkitError } from '../../src/errors.js';
import { vectors } from '../helpers/vectors.js';
import { encodeTlv } from '../../src/crypto/bsig-tlv.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const be32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'));
const sk = generateSecretKey();
const pk = publicKeyOf(sk);
const hello = hexToBytes(vectors.bsig_hello.bsig);
const data = new Uint8Array([1, 2, 3]);

function expectCode(label: string, fn: () => unknown, code: string) {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof TpkitError)) assert.unreachable(`${label}: threw ${(error as Error)?.name}: ${(error as Error)?.message}`);
    assert.is((error as TpkitError).code, code, `${label}: ${(error as Error).message}`);
    return;
  }
  assert.unreachable(`${label}: did not throw (expected ${code})`);
}

const notBytes: unknown[] = [undefined, null, 0, 1.5, true, {}, [], [1, 2], new ArrayBuffer(32), new Uint16Array(16), () => 1];

test('secret keys: wrong types, bad hex, wrong lengths, zero and over-order', () => {
  const cases: [string, unknown, string][] = [
    ...notBytes.map((v): [string, unknown, string] => [`type ${Object.prototype.toString.call(v)}`, v, 'INVALID_ARGUMENT']),
    ['odd hex', 'abc', 'BAD_HEX'],
    ['non-hex text', 'zz'.repeat(32), 'BAD_HEX'],
    ['empty', new Uint8Array(0), 'KEY_INVALID'],
    ['31 bytes', new Uint8Array(31).fill(1), 'KEY_INVALID'],
    ['33 bytes', new Uint8Array(33).fill(1), 'KEY_INVALID'],
    ['64 hex digits short', '01'.repeat(31), 'KEY_INVALID'],
    ['zero', be32(0n), 'KEY_INVALID'],
    ['n', be32(N), 'KEY_INVALID'],
    ['n + 1', be32(N + 1n), 'KEY_INVALID'],
    ['2^256 - 1', new Uint8Array(32).fill(0xff), 'KEY_INVALID'],
  ];
  for (const [label, key, code] of cases) {
    expectCode(`publicKeyOf ${label}`, () => publicKeyOf(key as Uint8Array), code);
    expectCode(`createSigner ${label}`, () => createSigner(key as Uint8Array), code);
    expectCode(`signDigest ${label}`, () => signDigest(new Uint8Array(32), key as Uint8Array), code);
    expectCode(`signBsig ${label}`, () => signBsig(data, key as Uint8Array), code);
  }
});

test('public keys and PEM: wrong types, lengths, prefixes, points, text', () => {
  for (const v of notBytes) {
    expectCode('normalizePublicKey type', () => normalizePublicKey(v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('publicKeyToPem type', () => publicKeyToPem(v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('pemToPublicKey type', () => pemToPublicKey(v as string), 'INVALID_ARGUMENT');
  }
  const offCurve = pk.slice();
  offCurve[0] = 4;
  for (const [label, key] of [
    ['empty', new Uint8Array(0)],
    ['32 bytes', pk.subarray(1)],
    ['prefix 04 on 33', offCurve],
    ['64 bytes', new Uint8Array(64)],
    ['zero x', new Uint8Array(33).fill(0, 1).fill(2, 0, 1)],
  ] as const) {
    expectCode(`normalizePublicKey ${label}`, () => normalizePublicKey(key), 'KEY_INVALID');
    expectCode(`publicKeyToPem ${label}`, () => publicKeyToPem(key), 'KEY_INVALID');
  }
  for (const text of ['', '-----BEGIN PUBLIC KEY-----', 'garbage', '-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----']) {
    expectCode(`pemToPublicKey ${JSON.stringify(text)}`, () => pemToPublicKey(text), 'PEM_INVALID');
  }
});

test('DER: wrong types, garbage, bad integers', () => {
  for (const v of notBytes) expectCode('parseDerSignature type', () => parseDerSignature(v as Uint8Array), 'INVALID_ARGUMENT');
  for (const hex of ['', '00', '30', '3001', '300602010002', 'ff'.repeat(72), '30060201010201ff']) {
    expectCode(`parseDerSignature ${hex}`, () => parseDerSignature(hexToBytes(hex)), 'BSIG_BAD_DER');
  }
  for (const [r, s] of [
    [-1n, 1n],
    [1n, -1n],
    [1, 1n],
    ['1', 1n],
    [undefined, 1n],
  ] as const) {
    expectCode(`encodeDerSignature ${String(r)} ${String(s)}`, () => encodeDerSignature(r as bigint, s as bigint), 'INVALID_ARGUMENT');
  }
  expectCode('encodeDerSignature too large', () => encodeDerSignature(1n << 600000n, 1n), 'INVALID_ARGUMENT');
});

test('BSig truncated at every length: malformed or missing field, never a crash', () => {
  const pubkeyEnd = 2 + 70 + 35; // signature TLV, pubkey TLV: a valid BSig without a timestamp
  for (let cut = 0; cut < hello.length; cut++) {
    const bsig = hello.slice(0, cut);
    if (cut === pubkeyEnd) {
      const decoded = decodeBsig(bsig);
      assert.is(decoded.timestamp, undefined);
      assert.not.ok(verifyBsig(bsig, data).valid);
      continue;
    }
    const code = cut === 0 || cut === 72 ? 'BSIG_MISSING_FIELD' : 'BSIG_MALFORMED';
    expectCode(`decodeBsig cut at ${cut}`, () => decodeBsig(bsig), code);
    expectCode(`verifyBsig cut at ${cut}`, () => verifyBsig(bsig, data), code);
  }
});

test('BSig: oversize lengths, wrong first tag, no pubkey, wrong types', () => {
  const sigTlv = hello.subarray(0, 72);
  const cases: [string, number[] | Uint8Array, string][] = [
    ['signature length past the end', [255, 200, 1, 2, 3], 'BSIG_MALFORMED'],
    ['signature without length', [255], 'BSIG_MALFORMED'],
    ['local data length past the end', [254, 9, 1], 'BSIG_MALFORMED'],
    ['local data only', [254, 1, 1], 'BSIG_MISSING_FIELD'],
    ['starts with the pubkey', hello.subarray(72), 'BSIG_MISSING_FIELD'],
    ['no pubkey', [...sigTlv, 1, 8, 0, 0, 0, 0, 0, 0, 0, 1], 'BSIG_MISSING_FIELD'],
    ['field length past the end', [...sigTlv, 2, 33, 2, 3], 'BSIG_MALFORMED'],
    ['two-byte length past the end', [...sigTlv, 2, 0xff, 0xff, 1, 2], 'BSIG_MALFORMED'],
    ['two-byte length cut', [...sigTlv, 2, 0x80], 'BSIG_MALFORMED'],
    ['tag without length', [...hello, 9], 'BSIG_MALFORMED'],
  ];
  for (const [label, bytes, code] of cases) {
    expectCode(`decodeBsig ${label}`, () => decodeBsig(Uint8Array.from(bytes)), code);
    expectCode(`verifyBsig ${label}`, () => verifyBsig(Uint8Array.from(bytes), data), code);
  }
  for (const v of notBytes) {
    expectCode('decodeBsig type', () => decodeBsig(v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('verifyBsig bsig type', () => verifyBsig(v as Uint8Array, data), 'INVALID_ARGUMENT');
    expectCode('verifyBsig data type', () => verifyBsig(hello, v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('signBsig data type', () => signBsig(v as Uint8Array, sk), 'INVALID_ARGUMENT');
    expectCode('bsigDigest data type', () => bsigDigest(decodeBsig(hello), v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('encodeBsig type', () => encodeBsig(v as Uint8Array, new Uint8Array(0)), 'INVALID_ARGUMENT');
  }
  expectCode('verifyBsig verifier type', () => verifyBsig(hello, data, { verifier: 1 as never }), 'INVALID_ARGUMENT');
  expectCode('encodeBsig long signature', () => encodeBsig(new Uint8Array(256), new Uint8Array(0)), 'INVALID_ARGUMENT');
});

test('signBsig options: bad timestamps, options and extra fields', () => {
  const bad: [string, unknown][] = [
    ['options null', null],
    ['options number', 5],
    ['negative timestamp', { timestamp: -1 }],
    ['fractional timestamp', { timestamp: 1.5 }],
    ['NaN timestamp', { timestamp: NaN }],
    ['unsafe timestamp', { timestamp: 2 ** 60 }],
    ['2^64 timestamp', { timestamp: 1n << 64n }],
    ['text timestamp', { timestamp: '1' }],
    ['extraFields not an array', { extraFields: {} }],
    ['extra field null', { extraFields: [null] }],
    ['extra tag 1', { extraFields: [{ tag: 1, value: 1n }] }],
    ['extra tag 2', { extraFields: [{ tag: 2, value: pk }] }],
    ['extra tag 255', { extraFields: [{ tag: 255, value: pk }] }],
    ['extra tag 256', { extraFields: [{ tag: 256, value: pk }] }],
    ['extra tag -1', { extraFields: [{ tag: -1, value: pk }] }],
    ['extra tag 1.5', { extraFields: [{ tag: 1.5, value: pk }] }],
    ['extra value too long', { extraFields: [{ tag: 240, value: new Uint8Array(32768) }] }],
    ['extra value negative', { extraFields: [{ tag: 6, value: -1n }] }],
    ['extra value object', { extraFields: [{ tag: 6, value: {} }] }],
  ];
  for (const [label, options] of bad) expectCode(`signBsig ${label}`, () => signBsig(data, sk, options as never), 'INVALID_ARGUMENT');
  expectCode('encodeTlv 32768', () => encodeTlv(240, new Uint8Array(32768)), 'INVALID_ARGUMENT');
  for (const digest of [new Uint8Array(31), new Uint8Array(33), 'ab'.repeat(32), undefined]) {
    expectCode('signDigest digest', () => signDigest(digest as Uint8Array, sk), 'INVALID_ARGUMENT');
    expectCode('Signer.signDigest digest', () => createSigner(sk).signDigest(digest as Uint8Array), 'INVALID_ARGUMENT');
  }
});

test('transactions: wrong types, no keys, bad keys, undecodable containers and BSigs', () => {
  const tx = signTx(data, sk, { timestamp: 1 });
  for (const v of notBytes) {
    expectCode('signTx body type', () => signTx(v as Uint8Array, sk), 'INVALID_ARGUMENT');
    if (v !== undefined && !Array.isArray(v)) expectCode('signTx key type', () => signTx(data, v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('verifyTx type', () => verifyTx(v as Uint8Array), 'INVALID_ARGUMENT');
    expectCode('addSignature tx type', () => addSignature(v as Uint8Array, sk), 'INVALID_ARGUMENT');
    if (v !== undefined) expectCode('addSignature key type', () => addSignature(tx, v as Uint8Array), 'INVALID_ARGUMENT');
  }
  expectCode('signTx no keys', () => signTx(data, []), 'INVALID_ARGUMENT');
  expectCode('signTx undefined key', () => signTx(data, undefined as never), 'INVALID_ARGUMENT');
  expectCode('signTx second key invalid', () => signTx(data, [sk, be32(0n)]), 'KEY_INVALID');
  expectCode('signTx options', () => signTx(data, sk, 5 as never), 'INVALID_ARGUMENT');
  expectCode('signTx timestamp', () => signTx(data, sk, { timestamp: -5 }), 'INVALID_ARGUMENT');
  expectCode('addSignature key zero', () => addSignature(tx, be32(0n)), 'KEY_INVALID');
  expectCode('verifyTx garbage text', () => verifyTx('not a tx!'), 'BAD_INPUT_ENCODING');
  expectCode('verifyTx truncated', () => verifyTx(tx.subarray(0, tx.length - 3)), 'MSGPACK_TRUNCATED');
  expectCode('verifyTx not a map', () => verifyTx(Uint8Array.of(0x90)), 'TX_NOT_MAP');
  for (const [label, sig, code] of [
    ['empty BSig', new Uint8Array(0), 'BSIG_MISSING_FIELD'],
    ['truncated BSig', hello.subarray(0, 50), 'BSIG_MALFORMED'],
    ['BSig without pubkey', hello.subarray(0, 72), 'BSIG_MISSING_FIELD'],
  ] as const) {
    expectCode(`verifyTx ${label}`, () => verifyTx(encodeTx({ body: data, sigs: [sig] })), code);
  }
});

test.run();
