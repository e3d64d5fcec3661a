// One table of bad inputs fed to every public codec decoder. Each cell says what that
// decoder must do with that input: throw a TpkitError with this stable code, or 'valid'
// where the input is, by definition, fine for that decoder (a float-amount body is still
// valid MessagePack; 8 bytes starting with bits 100 are an address). Nothing may throw a
// TypeError/RangeError, hang, or accept what its cell says to reject.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, concatBytes, hexToBytes } from '../../src/bytes.js';
import { TpkitError, type ErrorCode } from '../../src/errors.js';
import { addressFromText, base58Decode, decodeBody, decodeMsgpack, decodeTx, decodeTxid, decodeVarint, parseAddress } from '../../src/codec/index.js';
import { vectors } from '../helpers/vectors.js';

const decoders = {
  decodeTx: (x: unknown) => decodeTx(x as Uint8Array),
  decodeBody: (x: unknown) => decodeBody(x as Uint8Array),
  decodeMsgpack: (x: unknown) => decodeMsgpack(x as Uint8Array),
  addressFromText: (x: unknown) => addressFromText(x as string),
  parseAddress: (x: unknown) => parseAddress(x as string),
  decodeTxid: (x: unknown) => decodeTxid(x as string),
  base58Decode: (x: unknown) => base58Decode(x as string),
  decodeVarint: (x: unknown) => decodeVarint(x as Uint8Array),
};
type Decoder = keyof typeof decoders;
type Outcome = ErrorCode | 'valid';
type Row = [label: string, input: unknown, expect: Record<Decoder, Outcome>];

const ARG: Outcome = 'INVALID_ARGUMENT';
const everyArg = (): Record<Decoder, Outcome> => ({
  decodeTx: ARG,
  decodeBody: ARG,
  decodeMsgpack: ARG,
  addressFromText: ARG,
  parseAddress: ARG,
  decodeTxid: ARG,
  base58Decode: ARG,
  decodeVarint: ARG,
});

/** Bytes a varint starting at offset 0 needs, from its first byte (reference.md's layout). */
function varintLength(first: number): number {
  if (first < 0x80) return 1;
  if (first < 0xc0) return 2;
  if (first < 0xe0) return 4;
  if (first < 0xf0) return 8;
  return 1 + (first & 0x0f);
}

/** Bytes: the text-only decoders refuse them as arguments; decodeVarint reads the varint they start with. */
function bytesRow(label: string, bytes: Uint8Array, tx: Outcome, body: Outcome, msgpack: Outcome): Row {
  const varint: Outcome = bytes.length > 0 && bytes.length >= varintLength(bytes[0]) ? 'valid' : 'TXID_INVALID';
  const address: Outcome = bytes.length === 8 && (bytes[0] >> 5 === 4 || bytes[0] >> 5 === 5) ? 'valid' : 'ADDRESS_INVALID';
  return [label, bytes, { decodeTx: tx, decodeBody: body, decodeMsgpack: msgpack, addressFromText: ARG, parseAddress: address, decodeTxid: ARG, base58Decode: ARG, decodeVarint: varint }];
}

/** Text: decodeMsgpack and decodeVarint take bytes only. */
function textRow(label: string, text: string, e: { tx: Outcome; body?: Outcome; address: Outcome; txid: Outcome; base58: Outcome }): Row {
  return [
    label,
    text,
    {
      decodeTx: e.tx,
      decodeBody: e.body ?? e.tx,
      decodeMsgpack: ARG,
      addressFromText: e.address,
      parseAddress: e.address,
      decodeTxid: e.txid,
      base58Decode: e.base58,
      decodeVarint: ARG,
    },
  ];
}

const str = (s: string) => (0xa0 | s.length).toString(16) + Buffer.from(s).toString('hex');
const bin = (h: string) => 'c4' + (h.length / 2).toString(16).padStart(2, '0') + h;
const bodyHex = (p: string, k = '10') => '86' + str('k') + k + str('f') + bin('8000200002000003') + str('to') + bin('8000200002000005') + str('s') + '05' + str('t') + '06' + str('p') + p;

const tx = base64ToBytes(vectors.generic_tx_docs.tx_base64);
const body = hexToBytes(vectors.generic_tx_docs.body_hex);

const rows: Row[] = [
  ['null', null, everyArg()],
  ['undefined', undefined, everyArg()],
  ['a number', 42, everyArg()],
  ['a bigint', 42n, everyArg()],
  ['a plain object', { body: 'x' }, everyArg()],
  ['an array of byte values', [0x80], everyArg()],
  ['an ArrayBuffer', new ArrayBuffer(4), everyArg()],
  textRow('empty text', '', { tx: 'BAD_INPUT_ENCODING', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'valid' }),
  textRow('garbage that is neither hex nor base64', '!!not base64!!', { tx: 'BAD_INPUT_ENCODING', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'BAD_INPUT_ENCODING' }),
  textRow('base64 of the docs tx with one character replaced by *', vectors.generic_tx_docs.tx_base64.replace('R', '*'), {
    tx: 'BAD_INPUT_ENCODING',
    address: 'ADDRESS_INVALID',
    txid: 'TXID_INVALID',
    base58: 'BAD_INPUT_ENCODING',
  }),
  textRow('base64 with an impossible length', 'g6Rib2R5x', { tx: 'BAD_INPUT_ENCODING', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'valid' }),
  textRow('non-ASCII text', 'é€😀', { tx: 'BAD_INPUT_ENCODING', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'BAD_INPUT_ENCODING' }),
  textRow('an address with a bad checksum (also hex: fixstr 10 with 9 bytes)', 'AA100000001677722413', {
    tx: 'MSGPACK_TRUNCATED',
    address: 'ADDRESS_CHECKSUM',
    txid: 'TXID_INVALID',
    base58: 'BAD_INPUT_ENCODING',
  }),
  // '-' is in the base64url alphabet, so as a container this text is read as base64 bytes
  textRow('a txid with a base58 character outside the alphabet', '26CmF99wJRUJHd0-c4n1', { tx: 'MSGPACK_TRUNCATED', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'BAD_INPUT_ENCODING' }),
  textRow('a txid with bytes after its three varints', '2NEpo7TZRRrLZSi2U-c4n1', { tx: 'BAD_INPUT_ENCODING', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'BAD_INPUT_ENCODING' }),
  textRow('hex of c6 ffffffff (bin 32 declaring 4 GiB)', 'c6ffffffff', { tx: 'MSGPACK_TRUNCATED', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'valid' }),
  textRow('1 MB of "A" (valid base64 of zero bytes)', 'A'.repeat(1 << 20), { tx: 'MSGPACK_TRAILING', address: 'ADDRESS_INVALID', txid: 'TXID_INVALID', base58: 'BAD_INPUT_ENCODING' }),
  bytesRow('empty bytes', new Uint8Array(0), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'),
  bytesRow('bin 32 declaring 4 GiB (c6 ffffffff)', hexToBytes('c6ffffffff'), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'),
  bytesRow('array 32 declaring 4 billion items (dd ffffffff)', hexToBytes('ddffffffff'), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'),
  bytesRow('map 32 declaring 4 billion entries (df ffffffff)', hexToBytes('dfffffffff'), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'),
  bytesRow('str 32 declaring 4 GiB (db ffffffff)', hexToBytes('dbffffffff'), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'),
  bytesRow('a container whose body declares 64 KiB (c5 ffff)', hexToBytes('83' + str('body') + 'c5ffff00'), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'),
  bytesRow('reserved byte c1', hexToBytes('c1'), 'MSGPACK_INVALID', 'MSGPACK_INVALID', 'MSGPACK_INVALID'),
  bytesRow('a map holding c1', hexToBytes('81a161c1'), 'MSGPACK_INVALID', 'MSGPACK_INVALID', 'MSGPACK_INVALID'),
  bytesRow('the docs tx plus one trailing byte', concatBytes(tx, new Uint8Array(1)), 'MSGPACK_TRAILING', 'MSGPACK_TRAILING', 'MSGPACK_TRAILING'),
  bytesRow('the docs body plus one trailing byte', concatBytes(body, new Uint8Array(1)), 'MSGPACK_TRAILING', 'MSGPACK_TRAILING', 'MSGPACK_TRAILING'),
  bytesRow('100 nested arrays', hexToBytes('91'.repeat(100) + '01'), 'MSGPACK_LIMIT', 'MSGPACK_LIMIT', 'MSGPACK_LIMIT'),
  bytesRow('the docs body given to decodeTx', body, 'TX_MISSING_KEY', 'valid', 'valid'),
  bytesRow('the docs tx given to decodeBody', tx, 'valid', 'BODY_MISSING_FIELD', 'valid'),
  bytesRow('a body with a float amount', hexToBytes(bodyHex('91' + '93' + '00' + bin('534b') + 'cb3ff0000000000000')), 'TX_MISSING_KEY', 'BODY_FLOAT_AMOUNT', 'valid'),
  bytesRow('a body with a 2-element payload item', hexToBytes(bodyHex('91' + '92' + '00' + bin('534b'))), 'TX_MISSING_KEY', 'BODY_BAD_PAYLOAD', 'valid'),
  bytesRow('a body with unknown kind 99', hexToBytes(bodyHex('90', '63')), 'TX_MISSING_KEY', 'BODY_UNKNOWN_KIND', 'valid'),
  bytesRow('a body that is an array', hexToBytes('9110'), 'TX_NOT_MAP', 'BODY_NOT_MAP', 'valid'),
  bytesRow('8 zero bytes (top bits 000)', new Uint8Array(8), 'MSGPACK_TRAILING', 'MSGPACK_TRAILING', 'MSGPACK_TRAILING'),
  bytesRow('a container with ver 3', hexToBytes('83' + str('body') + 'c40180' + str('sig') + '90' + str('ver') + '03'), 'TX_BAD_VERSION', 'BODY_MISSING_FIELD', 'valid'),
];

// Every strict prefix of a real container: the truncation can fall anywhere.
for (let n = 1; n < tx.length; n++) {
  rows.push(bytesRow(`the docs tx cut to ${n} bytes`, tx.subarray(0, n), 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED', 'MSGPACK_TRUNCATED'));
}

function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'valid';
  } catch (err) {
    if (!(err instanceof TpkitError)) return `non-TpkitError ${(err as Error)?.name}: ${(err as Error)?.message}`;
    return err.code;
  }
}

test(`${rows.length} bad inputs x ${Object.keys(decoders).length} decoders: each gives its stable code`, () => {
  const wrong: string[] = [];
  for (const [label, input, expect] of rows) {
    for (const name of Object.keys(decoders) as Decoder[]) {
      const got = outcome(() => decoders[name](input));
      if (got !== expect[name]) wrong.push(`${name}(${label}): expected ${expect[name]}, got ${got}`);
    }
  }
  assert.equal(wrong, []);
});

test('the table holds both kinds of cell: rejections, and inputs a decoder must accept', () => {
  const cells = rows.flatMap(([, , expect]) => Object.values(expect));
  assert.ok(cells.filter((c) => c === 'valid').length >= 10);
  assert.ok(cells.filter((c) => c !== 'valid').length > 3 * cells.filter((c) => c === 'valid').length);
});

test.run();
