import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressFromText, addressParts, addressToBigInt, addressToHex, addressToText, isAddress, makeAddress, parseAddress } from '../../src/codec/address.js';
import { crc32 } from '../../src/codec/crc32.js';
import { vectors } from '../helpers/vectors.js';
import { mulberry32, errorCode as code } from '../helpers/helpers.js';

for (const [hex, text] of vectors.addresses) {
  test(`published address ${hex} <-> ${text}`, () => {
    assert.is(addressToText(hexToBytes(hex)), text);
    assert.is(addressToText(BigInt('0x' + hex)), text);
    assert.is(bytesToHex(addressFromText(text), true), hex);
    assert.is(addressToHex(hexToBytes(hex)), '0x' + hex.toUpperCase());
    assert.is(bytesToHex(addressFromText('0x' + hex.toLowerCase()), true), hex);
    assert.ok(isAddress(text));
  });
}

// reference.md's examples (the published list holds them too; kept here as the page states them).
for (const [hex, text] of [
  ['8001400001000008', 'AA100000001677722412'],
  ['8000200002000003', 'AA010000003355443516'],
  ['8000000000000001', 'AA000000000000000193'],
  ['800C800000000000', 'AB000000000000000095'],
  ['9FFFE00000000000', 'ZF350000000000000082'],
  ['A000000000000001', '000000000000000173'],
]) {
  test(`reference.md example ${hex} = ${text}`, () => {
    assert.is(addressToText(hexToBytes(hex)), text);
    assert.is(addressToHex(addressFromText(text)), '0x' + hex);
  });
}

for (const bad of vectors.invalid_addresses) {
  test(`published invalid address ${bad} is rejected`, () => {
    assert.ok(['ADDRESS_INVALID', 'ADDRESS_CHECKSUM'].includes(code(() => addressFromText(bad))));
    assert.not.ok(isAddress(bad));
  });
}

test('AA100000001677722413 fails the checksum (reference.md)', () => {
  assert.is(
    code(() => addressFromText('AA100000001677722413')),
    'ADDRESS_CHECKSUM',
  );
});

test('text is read case-insensitively, with spaces ignored', () => {
  const expected = '8001400001000008';
  for (const text of ['aa100000001677722412', 'Aa10 0000 0016 7772 2412', ' AA1000000016777224 12 ', 'AA10\t0000\n00167772 2412']) {
    assert.is(bytesToHex(addressFromText(text), true), expected, text);
  }
  assert.is(bytesToHex(addressFromText('000000000000000173'.toLowerCase()), true), 'A000000000000001');
  assert.is(bytesToHex(addressFromText('0X8001400001000008'), true), expected);
});

const invalid: [string, unknown, string][] = [
  ['19 characters', 'AA10000000167772241', 'ADDRESS_INVALID'],
  ['21 characters', 'AA1000000016777224120', 'ADDRESS_INVALID'],
  ['a digit where a letter goes', '1A100000001677722412', 'ADDRESS_INVALID'],
  ['a letter among the digits', 'AA10000000167772241X', 'ADDRESS_INVALID'],
  ['a non-ASCII letter', 'ÄA100000001677722412', 'ADDRESS_INVALID'],
  ['group above 65535 (ZZ99)', 'ZZ990000000000000000', 'ADDRESS_INVALID'],
  ['group 65536 (ZF36)', 'ZF360000000000000000', 'ADDRESS_INVALID'],
  ['low part above 2^45-1', 'AA009999999999999900', 'ADDRESS_INVALID'],
  ['low part 2^45, the first past the limit', 'AA103518437208883200', 'ADDRESS_INVALID'],
  ['private text with a non-hex character', '00000000000000017G', 'ADDRESS_INVALID'],
  ['private low part above 2^61-1', 'F00000000000000100', 'ADDRESS_INVALID'],
  ['private checksum off by one', '000000000000000174', 'ADDRESS_CHECKSUM'],
  ['0x with 15 hex digits', '0x800140000100000', 'ADDRESS_INVALID'],
  ['0x with a bad digit', '0x800140000100000G', 'ADDRESS_INVALID'],
  ['0x with top bits 011', '0x7000000000000001', 'ADDRESS_INVALID'],
  ['0x with top bits 110', '0xC000000000000001', 'ADDRESS_INVALID'],
  ['empty text', '', 'ADDRESS_INVALID'],
  ['null', null, 'INVALID_ARGUMENT'],
  ['a number', 42, 'INVALID_ARGUMENT'],
];
for (const [name, input, expected] of invalid) {
  test(`addressFromText rejects ${name} with ${expected}`, () => {
    assert.is(
      code(() => addressFromText(input as string)),
      expected,
    );
    assert.not.ok(isAddress(input));
  });
}

test('parseAddress validates raw bytes: length and top bits', () => {
  const good = hexToBytes('8001400001000008');
  const parsed = parseAddress(good);
  assert.equal(parsed, good);
  assert.is.not(parsed, good); // a copy, so later changes to the input do not leak in
  assert.is(
    code(() => parseAddress(new Uint8Array(7))),
    'ADDRESS_INVALID',
  );
  assert.is(
    code(() => parseAddress(new Uint8Array(9))),
    'ADDRESS_INVALID',
  );
  assert.is(
    code(() => parseAddress(hexToBytes('7000000000000001'))),
    'ADDRESS_INVALID',
  );
  assert.is(
    code(() => parseAddress(hexToBytes('C000000000000001'))),
    'ADDRESS_INVALID',
  );
  assert.is(
    code(() => parseAddress(null as unknown as string)),
    'INVALID_ARGUMENT',
  );
  assert.is(
    code(() => addressToText(hexToBytes('0000000000000000'))),
    'ADDRESS_INVALID',
  );
  assert.is(
    code(() => addressToText(1n << 64n)),
    'ADDRESS_INVALID',
  );
  assert.equal(parseAddress('AA100000001677722412'), good);
});

test('addressParts and makeAddress are inverse, and match reference.md layout', () => {
  assert.equal(addressParts(hexToBytes('8001400001000008')), { kind: 'public', group: 10, block: 1, wallet: 8 });
  assert.equal(addressParts(hexToBytes('9FFFE00000000000')), { kind: 'public', group: 65535, block: 0, wallet: 0 });
  assert.equal(addressParts(hexToBytes('A000000000000001')), { kind: 'private', block: 0, wallet: 1 });
  assert.is(bytesToHex(makeAddress({ group: 10, block: 1, wallet: 8 }), true), '8001400001000008');
  assert.is(bytesToHex(makeAddress({ kind: 'private', block: 0, wallet: 1 }), true), 'A000000000000001');
  // A | B<<24 | G<<45 | 4<<61
  const big = addressToBigInt(makeAddress({ group: 0x1234, block: 0x1abcde, wallet: 0xfedcba }));
  assert.is(big, 0xfedcban | (0x1abcden << 24n) | (0x1234n << 45n) | (4n << 61n));
  for (const bad of [
    { group: 65536, block: 0, wallet: 0 },
    { group: 0, block: 2 ** 21, wallet: 0 },
    { group: 0, block: 0, wallet: 2 ** 24 },
    { group: -1, block: 0, wallet: 0 },
    { group: 1.5, block: 0, wallet: 0 },
    { kind: 'private' as const, block: 2 ** 37, wallet: 0 },
  ]) {
    assert.is(
      code(() => makeAddress(bad)),
      'INVALID_ARGUMENT',
      JSON.stringify(bad),
    );
  }
});

test('crc32 matches zlib on random inputs', () => {
  for (let n = 0; n < 100; n++) {
    const bytes = new Uint8Array(randomBytes(n));
    assert.is(crc32(bytes), zlibCrc32(bytes) >>> 0);
  }
});

function randomAddress(rnd: () => number): Uint8Array {
  const wallet = Math.floor(rnd() * 2 ** 24);
  if (rnd() < 0.2) return makeAddress({ kind: 'private', block: Math.floor(rnd() * 2 ** 37), wallet });
  return makeAddress({ group: Math.floor(rnd() * 65536), block: Math.floor(rnd() * 2 ** 21), wallet });
}

test('5000 random valid addresses round-trip bytes -> text -> bytes -> text', () => {
  const rnd = mulberry32(7);
  for (let i = 0; i < 5000; i++) {
    const bytes = randomAddress(rnd);
    const text = addressToText(bytes);
    assert.ok(text.length === 20 || text.length === 18);
    assert.equal(addressFromText(text), bytes, text);
    assert.is(addressToText(addressFromText(text)), text);
    assert.equal(makeAddress(addressParts(bytes)), bytes);
  }
});

test('a changed digit in public text is caught at least 98% of the time (measured 99.2% of 20 000 seeded cases; crc % 100 alone gives 99%)', () => {
  const rnd = mulberry32(8);
  let caught = 0;
  let total = 0;
  while (total < 20000) {
    const text = addressToText(makeAddress({ group: Math.floor(rnd() * 65536), block: Math.floor(rnd() * 2 ** 21), wallet: Math.floor(rnd() * 2 ** 24) }));
    const pos = 2 + Math.floor(rnd() * 18); // any of the 18 digits, checksum digits included
    const old = text.charCodeAt(pos) - 48;
    const digit = (old + 1 + Math.floor(rnd() * 9)) % 10;
    const corrupted = text.slice(0, pos) + digit + text.slice(pos + 1);
    total++;
    if (code(() => addressFromText(corrupted)) !== 'accepted') caught++;
  }
  const rate = caught / total;
  assert.ok(rate >= 0.98 && rate < 1, `caught ${(rate * 100).toFixed(2)}%`);
});

test('every single-hex-digit change in private text is caught (exhaustive: CRC-32 is linear, so one base covers all)', () => {
  // crc(a) ^ crc(a ^ e) depends only on e for equal lengths; checking every digit position
  // and every replacement against two bases shows no single-digit error escapes % 256.
  for (const base of [makeAddress({ kind: 'private', block: 0, wallet: 0 }), makeAddress({ kind: 'private', block: 123456789, wallet: 4242 })]) {
    const text = addressToText(base);
    for (let pos = 0; pos < 18; pos++) {
      for (const digit of '0123456789ABCDEF') {
        if (digit === text[pos]) continue;
        const changed = text.slice(0, pos) + digit + text.slice(pos + 1);
        assert.is.not(
          code(() => addressFromText(changed)),
          'accepted',
          changed,
        );
      }
    }
  }
});

test.run();
