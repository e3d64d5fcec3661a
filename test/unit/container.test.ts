import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from '../../src/bytes.js';
import { decodeTx, encodeTx } from '../../src/codec/container.js';
import { vectors } from '../helpers/vectors.js';
import { thrownError as error } from '../helpers/helpers.js';

const published = [
  ['generic_tx_docs', vectors.generic_tx_docs],
  ['generic_tx_tpnode', vectors.generic_tx_tpnode],
  ['register_tx', vectors.register_tx],
] as const;

for (const [name, v] of published) {
  test(`${name}: tx_base64 decodes, holds body_hex, and re-encodes byte-identical`, () => {
    const tx = decodeTx(v.tx_base64);
    assert.is(tx.ver, 2);
    assert.is(bytesToHex(tx.body), v.body_hex.toLowerCase());
    assert.is(tx.sigs.length, 1);
    assert.is(tx.sigs[0][0], 0xff); // every BSig starts with the signature TLV
    assert.not.ok('inv' in tx);
    assert.is(bytesToBase64(encodeTx(tx)), v.tx_base64);
    // the same container given as raw bytes and as hex
    const raw = base64ToBytes(v.tx_base64);
    assert.equal(decodeTx(raw), tx);
    assert.equal(decodeTx(bytesToHex(raw)), tx);
  });
}

test('the docs container carries the BSig of its published signing', () => {
  const tx = decodeTx(vectors.generic_tx_docs.tx_base64);
  // pubkey TLV of bsig_hello's key follows the signature TLV
  assert.ok(bytesToHex(tx.sigs[0], true).includes('0221' + vectors.bsig_hello.public_key));
});

test('encodeTx writes a fixmap body, sig, ver (and inv when given)', () => {
  const body = hexToBytes('81a16b10');
  assert.is(bytesToHex(encodeTx({ body, sigs: [] })), '83a4626f6479c40481a16b10a3736967' + '90' + 'a376657202');
  const withInv = encodeTx({ body, sigs: [new Uint8Array([1])], inv: new Uint8Array([7, 8]) });
  assert.is(bytesToHex(withInv), '84a4626f6479c40481a16b10a373696791c40101a376657202a3696e76c4020708');
  assert.equal(decodeTx(withInv), { body, sigs: [new Uint8Array([1])], ver: 2, inv: new Uint8Array([7, 8]) });
});

test('decoded bytes are copies: changing the input later does not change them', () => {
  const raw = base64ToBytes(vectors.register_tx.tx_base64);
  const tx = decodeTx(raw);
  const before = bytesToHex(tx.body);
  raw.fill(0);
  assert.is(bytesToHex(tx.body), before);
});

test('keys as bin, in any order, and unknown keys are accepted', () => {
  const hex = '84' + 'c403766572' + '02' + 'a5' + Buffer.from('extra').toString('hex') + 'c0' + 'a3736967' + '90' + 'a4626f6479' + 'c40180';
  assert.equal(decodeTx(hex), { body: new Uint8Array([0x80]), sigs: [], ver: 2 });
});

const str = (s: string) => (0xa0 | s.length).toString(16) + Buffer.from(s).toString('hex');
const BODY = str('body') + 'c40180';
const SIG = str('sig') + '90';
const VER = str('ver') + '02';

const bad: [string, string, string, string | undefined][] = [
  ['an array', '93c4018090' + '02', 'TX_NOT_MAP', undefined],
  ['a bin', 'c40180', 'TX_NOT_MAP', undefined],
  ['no body', '82' + SIG + VER, 'TX_MISSING_KEY', 'body'],
  ['no sig', '82' + BODY + VER, 'TX_MISSING_KEY', 'sig'],
  ['no ver', '82' + BODY + SIG, 'TX_MISSING_KEY', 'ver'],
  ['body as str', '83' + str('body') + 'a180' + SIG + VER, 'TX_BAD_FIELD', 'body'],
  ['body as map', '83' + str('body') + '80' + SIG + VER, 'TX_BAD_FIELD', 'body'],
  ['sig as bin', '83' + BODY + str('sig') + 'c400' + VER, 'TX_BAD_FIELD', 'sig'],
  ['sig holding an integer', '83' + BODY + str('sig') + '9101' + VER, 'TX_BAD_FIELD', 'sig[0]'],
  ['ver 1', '83' + BODY + SIG + str('ver') + '01', 'TX_BAD_VERSION', 'ver'],
  ['ver 3 as d3', '83' + BODY + SIG + str('ver') + 'd30000000000000003', 'TX_BAD_VERSION', 'ver'],
  ['ver as str', '83' + BODY + SIG + str('ver') + 'a132', 'TX_BAD_FIELD', 'ver'],
  ['ver as float 2.0', '83' + BODY + SIG + str('ver') + 'cb4000000000000000', 'TX_BAD_FIELD', 'ver'],
  ['inv as an integer', '84' + BODY + SIG + VER + str('inv') + '01', 'TX_BAD_FIELD', 'inv'],
  ['a key given twice', '84' + BODY + SIG + VER + str('body') + 'c40180', 'TX_BAD_FIELD', 'body'],
];

for (const [name, hex, code, field] of bad) {
  test(`decodeTx rejects a container with ${name}: ${code}`, () => {
    const err = error(() => decodeTx(hex));
    assert.is(err.code, code, err.message);
    assert.is(err.field, field);
  });
}

test('ver 2 in a signed width is accepted (d0 02)', () => {
  assert.is(decodeTx('83' + BODY + SIG + str('ver') + 'd002').ver, 2);
});

test('encodeTx checks its arguments', () => {
  for (const fn of [
    () => encodeTx(null as never),
    () => encodeTx({ body: 'x' as never, sigs: [] }),
    () => encodeTx({ body: new Uint8Array(1), sigs: [1] as never }),
    () => encodeTx({ body: new Uint8Array(1), sigs: null as never }),
    () => encodeTx({ body: new Uint8Array(1), sigs: [], ver: 3 as never }),
  ]) {
    assert.is(error(fn).code, 'INVALID_ARGUMENT');
  }
});

test.run();
