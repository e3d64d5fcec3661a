import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { base58Decode, base58Encode } from '../../src/codec/base58.js';
import { decodeTxid, encodeTxid } from '../../src/codec/txid.js';
import { decodeVarint, encodeVarint } from '../../src/codec/varint.js';
import { vectors } from '../helpers/vectors.js';
import { mulberry32, errorCode as code } from '../helpers/helpers.js';

for (const [value, hex] of vectors.varints) {
  test(`published varint ${value} = ${hex}`, () => {
    assert.is(bytesToHex(encodeVarint(value)), hex);
    assert.equal(decodeVarint(hexToBytes(hex)), { value: BigInt(value), end: hex.length / 2 });
  });
}

for (const v of vectors.txids) {
  test(`published txid ${v.txid}`, () => {
    assert.equal(decodeTxid(v.txid), { chain: v.chain, height: v.height, timeNs: BigInt(v.time_ns), node: v.txid.slice(v.txid.indexOf('-') + 1) });
    assert.is(encodeTxid({ chain: v.chain, height: v.height, timeNs: BigInt(v.time_ns), node: v.txid.slice(v.txid.indexOf('-') + 1) }), v.txid);
  });
}

test('varint boundaries: each form up to its limit, 2^60 in the long form', () => {
  const cases: [bigint, string][] = [
    [2n ** 29n - 1n, 'dfffffff'],
    [2n ** 60n - 1n, 'efffffffffffffff'],
    [2n ** 60n, 'f8' + '1000000000000000'], // reference encoder would wrap this to 0
    [1700000000000000000n, 'f8' + '17979cfe362a0000'],
    [2n ** 64n, 'f9010000000000000000'],
    [2n ** 112n - 1n, 'fe' + 'ff'.repeat(14)],
  ];
  for (const [value, hex] of cases) {
    assert.is(bytesToHex(encodeVarint(value)), hex, String(value));
    assert.is(decodeVarint(hexToBytes(hex)).value, value);
  }
  assert.is(
    code(() => encodeVarint(2n ** 112n)),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeVarint(-1)),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeVarint(1.5)),
    'INVALID_ARGUMENT',
  );
});

test('the decoder accepts non-minimal varints as the reference decoder does', () => {
  assert.equal(decodeVarint(hexToBytes('8005')), { value: 5n, end: 2 });
  assert.equal(decodeVarint(hexToBytes('f105')), { value: 5n, end: 2 });
  assert.equal(decodeVarint(hexToBytes('f0')), { value: 0n, end: 1 });
});

test('base58: leading zeros, known values, random round-trips against a BigInt model', () => {
  assert.is(base58Encode(new Uint8Array(0)), '');
  assert.is(base58Encode(Uint8Array.of(0, 0, 1)), '112');
  assert.is(base58Encode(hexToBytes('0000287fb4cd')), '11233QC4'); // Bitcoin test vector
  assert.equal(base58Decode('11233QC4'), hexToBytes('0000287fb4cd'));
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  for (let n = 0; n < 40; n++) {
    const bytes = new Uint8Array(randomBytes(n));
    let model = '';
    for (let v = BigInt('0x0' + bytesToHex(bytes)); v > 0n; v /= 58n) model = alphabet[Number(v % 58n)] + model;
    const zeros = bytes.findIndex((b) => b !== 0);
    model = '1'.repeat(zeros < 0 ? n : zeros) + model;
    assert.is(base58Encode(bytes), model);
    assert.equal(base58Decode(model), bytes);
  }
});

test('2000 random txids round-trip', () => {
  const rnd = mulberry32(11);
  const names = ['c4n1', 'node1', 'test_c5n2', 'a', 'x-y-z', 'n.1~2'];
  for (let i = 0; i < 2000; i++) {
    const parts = {
      chain: Math.floor(rnd() * 2 ** Math.floor(rnd() * 53)),
      height: Math.floor(rnd() * 2 ** Math.floor(rnd() * 53)),
      timeNs: BigInt(Math.floor(rnd() * 2 ** 53)) << BigInt(Math.floor(rnd() * 12)),
      node: names[i % names.length],
    };
    const txid = encodeTxid(parts);
    assert.equal(decodeTxid(txid), parts, txid);
  }
});

test('the node name is everything after the first dash', () => {
  const txid = encodeTxid({ chain: 1, height: 2, timeNs: 3n, node: 'a-b' });
  assert.is(decodeTxid(txid).node, 'a-b');
});

const bad: [string, unknown, string][] = [
  ['no dash', '26CmF99wJRUJHd1', 'TXID_INVALID'],
  ['empty node name', '26CmF99wJRUJHd1-', 'TXID_INVALID'],
  ['nothing before the dash', '-c4n1', 'TXID_INVALID'],
  ['a base58 character that is not in the alphabet (0)', '26CmF99wJRUJHd0-c4n1', 'TXID_INVALID'],
  ['a base58 character that is not in the alphabet (l)', '26CmF99wJRUJHdl-c4n1', 'TXID_INVALID'],
  ['a non-ASCII character', '26CmF99wJRUJHdé-c4n1', 'TXID_INVALID'],
  ['a truncated third varint', `${base58Encode(hexToBytes('0464f817979cfe362a00'))}-c4n1`, 'TXID_INVALID'],
  ['only two varints', `${base58Encode(hexToBytes('0464'))}-c4n1`, 'TXID_INVALID'],
  ['trailing bytes after three varints', `${base58Encode(hexToBytes('046405ff'))}-c4n1`, 'TXID_INVALID'],
  ['a chain above 2^53', `${base58Encode(hexToBytes('f80100000000000000' + '0000'))}-c4n1`, 'TXID_INVALID'],
  ['a space in the node name', '26CmF99wJRUJHd1-c4 n1', 'TXID_INVALID'],
  ['a slash in the node name', '26CmF99wJRUJHd1-c4/n1', 'TXID_INVALID'],
  ['null', null, 'INVALID_ARGUMENT'],
  ['a number', 7, 'INVALID_ARGUMENT'],
];
for (const [name, input, expected] of bad) {
  test(`decodeTxid rejects ${name} with ${expected}`, () => {
    assert.is(
      code(() => decodeTxid(input as string)),
      expected,
    );
  });
}

test('decodeTxid refuses a chain or height above 2^53-1 (it would come back rounded)', () => {
  for (const [chain, height] of [
    [2n ** 53n, 1n],
    [1n, 2n ** 53n],
    [2n ** 60n, 2n ** 53n + 1n],
  ]) {
    const text = `${base58Encode(new Uint8Array([...encodeVarint(chain), ...encodeVarint(height), ...encodeVarint(5n)]))}-n`;
    assert.is(
      code(() => decodeTxid(text)),
      'TXID_INVALID',
      `chain ${chain}, height ${height}`,
    );
  }
  const max = `${base58Encode(new Uint8Array([...encodeVarint(2n ** 53n - 1n), ...encodeVarint(2n ** 53n - 1n), ...encodeVarint(5n)]))}-n`;
  assert.equal(decodeTxid(max), { chain: 2 ** 53 - 1, height: 2 ** 53 - 1, timeNs: 5n, node: 'n' });
});

test('encodeTxid checks its arguments', () => {
  const ok = { chain: 1, height: 2, timeNs: 3n, node: 'n' };
  assert.is(
    code(() => encodeTxid({ ...ok, node: '' })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeTxid({ ...ok, node: 'a/b' })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeTxid({ ...ok, chain: -1 })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeTxid({ ...ok, height: 2n ** 53n })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeTxid({ ...ok, timeNs: -1n })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => encodeTxid(null as unknown as typeof ok)),
    'INVALID_ARGUMENT',
  );
});

test.run();
