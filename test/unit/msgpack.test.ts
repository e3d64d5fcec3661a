// MessagePack by example: each width's exact encoding, the node types the reader reports,
// offsets, map order, and every malformed input refused with its code before allocating.
// Random round-trips and the cross-check with @msgpack/msgpack: msgpack-random.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { TpkitError } from '../../src/errors.js';
import { decodeMsgpack, encodeMsgpack, msgpackToValue, MsgExt, MsgFloat, Uint64, type MsgValue } from '../../src/codec/msgpack.js';

function throwsCode(fn: () => unknown, code: string): TpkitError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, TpkitError, `expected a TpkitError, got ${String(err)}`);
    assert.is((err as TpkitError).code, code);
    return err as TpkitError;
  }
  assert.unreachable(`expected ${code}`);
  throw new Error('unreachable');
}

const hex = (value: MsgValue) => bytesToHex(encodeMsgpack(value));
const repeat = (s: string, n: number) => s.repeat(n);

// [value, exact expected encoding, node type the reader must report]
const widths: [string, MsgValue, string, string][] = [
  ['0', 0, '00', 'uint'],
  ['127', 127, '7f', 'uint'],
  ['128', 128, 'cc80', 'uint'],
  ['255', 255, 'ccff', 'uint'],
  ['256', 256, 'cd0100', 'uint'],
  ['65535', 65535, 'cdffff', 'uint'],
  ['65536', 65536, 'ce00010000', 'uint'],
  ['2^32-1', 2 ** 32 - 1, 'ceffffffff', 'uint'],
  ['2^32', 2 ** 32, 'cf0000000100000000', 'uint'],
  ['2^53-1', Number.MAX_SAFE_INTEGER, 'cf001fffffffffffff', 'uint'],
  ['2^63 (bigint)', 2n ** 63n, 'cf8000000000000000', 'uint'],
  ['2^64-1 (bigint)', 2n ** 64n - 1n, 'cfffffffffffffffff', 'uint'],
  ['127n (bigint takes the minimal form too)', 127n, '7f', 'uint'],
  ['2^31n', 2n ** 31n, 'ce80000000', 'uint'],
  ['2^32-1n', 2n ** 32n - 1n, 'ceffffffff', 'uint'],
  ['2^32n', 2n ** 32n, 'cf0000000100000000', 'uint'],
  ['-1', -1, 'ff', 'int'],
  ['-32', -32, 'e0', 'int'],
  ['-33', -33, 'd0df', 'int'],
  ['-128', -128, 'd080', 'int'],
  ['-129', -129, 'd1ff7f', 'int'],
  ['-32768', -32768, 'd18000', 'int'],
  ['-32769', -32769, 'd2ffff7fff', 'int'],
  ['-2^31', -(2 ** 31), 'd280000000', 'int'],
  ['-2^31-1', -(2 ** 31) - 1, 'd3ffffffff7fffffff', 'int'],
  ['-2^53+1', -Number.MAX_SAFE_INTEGER, 'd3ffe0000000000001', 'int'],
  ['-2^63 (bigint)', -(2n ** 63n), 'd38000000000000000', 'int'],
  ['-33n', -33n, 'd0df', 'int'],
  ['Uint64(0)', new Uint64(0n), 'cf0000000000000000', 'uint'],
  ['Uint64(5)', new Uint64(5), 'cf0000000000000005', 'uint'],
  ['float64 1.0', new MsgFloat(1), 'cb3ff0000000000000', 'float'],
  ['float32 1.5', new MsgFloat(1.5, 32), 'ca3fc00000', 'float'],
  ['nil', null, 'c0', 'nil'],
  ['false', false, 'c2', 'bool'],
  ['true', true, 'c3', 'bool'],
  ['empty str', '', 'a0', 'str'],
  ['str 31', repeat('a', 31), 'bf' + repeat('61', 31), 'str'],
  ['str 32', repeat('a', 32), 'd920' + repeat('61', 32), 'str'],
  ['str 255', repeat('a', 255), 'd9ff' + repeat('61', 255), 'str'],
  ['str 256', repeat('a', 256), 'da0100' + repeat('61', 256), 'str'],
  ['str 65535', repeat('a', 65535), 'daffff' + repeat('61', 65535), 'str'],
  ['str 65536', repeat('a', 65536), 'db00010000' + repeat('61', 65536), 'str'],
  ['str utf-8', 'é€😀', 'a9c3a9e282acf09f9880', 'str'],
  ['bin 0', new Uint8Array(0), 'c400', 'bin'],
  ['bin 255', new Uint8Array(255), 'c4ff' + repeat('00', 255), 'bin'],
  ['bin 256', new Uint8Array(256), 'c50100' + repeat('00', 256), 'bin'],
  ['bin 65535', new Uint8Array(65535), 'c5ffff' + repeat('00', 65535), 'bin'],
  ['bin 65536', new Uint8Array(65536), 'c600010000' + repeat('00', 65536), 'bin'],
  ['array 0', [], '90', 'array'],
  ['array 15', new Array(15).fill(1), '9f' + repeat('01', 15), 'array'],
  ['array 16', new Array(16).fill(1), 'dc0010' + repeat('01', 16), 'array'],
  ['array 65535', new Array(65535).fill(1), 'dcffff' + repeat('01', 65535), 'array'],
  ['array 65536', new Array(65536).fill(1), 'dd00010000' + repeat('01', 65536), 'array'],
  ['map 0', {}, '80', 'map'],
  ['map 1', { a: 1 }, '81a16101', 'map'],
  [
    'map 15',
    Object.fromEntries(Array.from({ length: 15 }, (_, i) => [String.fromCharCode(97 + i), i])),
    '8f' + Array.from({ length: 15 }, (_, i) => 'a1' + (97 + i).toString(16) + i.toString(16).padStart(2, '0')).join(''),
    'map',
  ],
  ['map 16', new Map(Array.from({ length: 16 }, (_, i) => [i, i])), 'de0010' + Array.from({ length: 16 }, (_, i) => i.toString(16).padStart(2, '0').repeat(2)).join(''), 'map'],
  ['fixext 1', new MsgExt(5, new Uint8Array([9])), 'd40509', 'ext'],
  ['fixext 16', new MsgExt(-1, new Uint8Array(16)), 'd8ff' + repeat('00', 16), 'ext'],
  ['ext 8', new MsgExt(1, new Uint8Array(3)), 'c70301000000', 'ext'],
  ['ext 16', new MsgExt(1, new Uint8Array(256)), 'c8010001' + repeat('00', 256), 'ext'],
];

for (const [name, value, expected, type] of widths) {
  test(`writes ${name} as ${expected.length > 24 ? expected.slice(0, 24) + '…' : expected} and reads it back as ${type}`, () => {
    assert.is(hex(value), expected);
    const node = decodeMsgpack(hexToBytes(expected), { maxItems: 200_000 });
    assert.is(node.type, type);
    assert.is(node.offset, 0);
    assert.is(node.end, expected.length / 2);
    assert.is(node.marker, parseInt(expected.slice(0, 2), 16));
  });
}

test('integers come back as bigint with their exact value, whatever the width', () => {
  for (const v of [0n, 127n, 128n, 2n ** 32n, 2n ** 64n - 1n, -1n, -33n, -(2n ** 63n)]) {
    const node = decodeMsgpack(encodeMsgpack(v));
    assert.ok(node.type === 'uint' || node.type === 'int');
    assert.is((node as { value: bigint }).value, v);
  }
  // A signed form holding a non-negative value is an int node (other clients write d3 for bigints).
  const signed = decodeMsgpack(hexToBytes('d30000000000000005'));
  assert.equal([signed.type, (signed as { value: bigint }).value], ['int', 5n]);
});

test('the reader tells float 1.0 from int 1 and str from bin', () => {
  assert.is(decodeMsgpack(hexToBytes('cb3ff0000000000000')).type, 'float');
  assert.is(decodeMsgpack(hexToBytes('01')).type, 'uint');
  assert.is(decodeMsgpack(hexToBytes('a3534b59')).type, 'str');
  assert.is(decodeMsgpack(hexToBytes('c403534b59')).type, 'bin');
});

test('every node knows its byte offset and end', () => {
  // {"k": 16, "n": Uint64(7)}
  const bytes = encodeMsgpack(
    new Map<string, MsgValue>([
      ['k', 16],
      ['n', new Uint64(7)],
    ]),
  );
  assert.is(bytesToHex(bytes), '82a16b10a16ecf0000000000000007');
  const node = decodeMsgpack(bytes);
  assert.is(node.type, 'map');
  if (node.type !== 'map') return;
  const [[k, kv], [n, nv]] = node.entries;
  assert.equal([k.offset, k.end, kv.offset, kv.end], [1, 3, 3, 4]);
  assert.equal([n.offset, n.end, nv.offset, nv.end, nv.marker], [4, 6, 6, 15, 0xcf]);
});

test('maps keep insertion order and accept string, bytes and integer keys', () => {
  const m = new Map<string | Uint8Array | number | bigint, MsgValue>([
    ['z', 1],
    [new Uint8Array([1]), 2],
    [3, 3],
    [-1n, 4],
  ]);
  assert.is(hex(m), '84a17a01c40101020303ff04');
  assert.is(hex({ b: 1, a: 2 }), '82a16201a16102');
});

const rejected: [string, () => unknown, string][] = [
  ['a non-integer number', () => encodeMsgpack(1.5), 'MSGPACK_UNSUPPORTED'],
  ['NaN', () => encodeMsgpack(NaN), 'MSGPACK_UNSUPPORTED'],
  ['Infinity', () => encodeMsgpack(Infinity), 'MSGPACK_UNSUPPORTED'],
  ['an unsafe integer number', () => encodeMsgpack(2 ** 53), 'MSGPACK_UNSUPPORTED'],
  ['2^64', () => encodeMsgpack(2n ** 64n), 'MSGPACK_UNSUPPORTED'],
  ['-2^63-1', () => encodeMsgpack(-(2n ** 63n) - 1n), 'MSGPACK_UNSUPPORTED'],
  ['undefined', () => encodeMsgpack(undefined as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['undefined inside an object', () => encodeMsgpack({ a: undefined } as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['a symbol', () => encodeMsgpack(Symbol('x') as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['a function', () => encodeMsgpack((() => 1) as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['a Date', () => encodeMsgpack(new Date() as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['an Int16Array', () => encodeMsgpack(new Int16Array(2) as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['a boolean map key', () => encodeMsgpack(new Map([[true, 1]]) as unknown as MsgValue), 'MSGPACK_UNSUPPORTED'],
  ['a lone surrogate', () => encodeMsgpack('a\ud800b'), 'MSGPACK_UNSUPPORTED'],
  ['a float32 that is not exact', () => encodeMsgpack(new MsgFloat(0.1, 32)), 'MSGPACK_UNSUPPORTED'],
  ['33 nested arrays', () => encodeMsgpack(nestedArrays(33)), 'MSGPACK_LIMIT'],
  [
    'a cyclic array',
    () => {
      const a: unknown[] = [];
      a.push(a);
      return encodeMsgpack(a as MsgValue);
    },
    'MSGPACK_LIMIT',
  ],
  ['Uint64(-1)', () => new Uint64(-1n), 'INVALID_ARGUMENT'],
  ['Uint64(2^64)', () => new Uint64(2n ** 64n), 'INVALID_ARGUMENT'],
  ['MsgExt type 128', () => new MsgExt(128, new Uint8Array(1)), 'INVALID_ARGUMENT'],
];

function nestedArrays(depth: number): MsgValue {
  let v: MsgValue = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

for (const [name, fn, code] of rejected) {
  test(`the writer rejects ${name} with ${code}`, () => {
    throwsCode(fn, code);
  });
}

test('the writer accepts 32 nested arrays and the reader reads them back', () => {
  const bytes = encodeMsgpack(nestedArrays(32));
  assert.is(bytes.length, 33);
  assert.is(decodeMsgpack(bytes).type, 'array');
});

const badBytes: [string, string, string][] = [
  ['empty input', '', 'MSGPACK_TRUNCATED'],
  ['reserved byte 0xc1', 'c1', 'MSGPACK_INVALID'],
  ['0xc1 inside an array', '9201c1', 'MSGPACK_INVALID'],
  ['trailing byte', '0100', 'MSGPACK_TRAILING'],
  ['two values', 'a161a162', 'MSGPACK_TRAILING'],
  ['uint 64 cut short', 'cf00000000', 'MSGPACK_TRUNCATED'],
  ['float 64 cut short', 'cb3ff0', 'MSGPACK_TRUNCATED'],
  ['str 8 without its length', 'd9', 'MSGPACK_TRUNCATED'],
  ['fixstr cut short', 'a3616263'.slice(0, 6), 'MSGPACK_TRUNCATED'],
  ['bin 32 declaring 4 GiB', 'c6ffffffff00', 'MSGPACK_TRUNCATED'],
  ['str 32 declaring 4 GiB', 'dbffffffff', 'MSGPACK_TRUNCATED'],
  ['ext 32 declaring 4 GiB', 'c9ffffffff01', 'MSGPACK_TRUNCATED'],
  ['array 32 declaring 4 billion items', 'ddffffffff', 'MSGPACK_TRUNCATED'],
  ['map 32 declaring 4 billion entries', 'dfffffffff0101', 'MSGPACK_TRUNCATED'],
  ['map 16 whose entries need more bytes than remain', 'de0003010101', 'MSGPACK_TRUNCATED'],
  ['fixmap with a key and no value', '81a161', 'MSGPACK_TRUNCATED'],
  ['33 nested arrays', '91'.repeat(33) + '01', 'MSGPACK_LIMIT'],
  ['33 nested maps', '81a0'.repeat(33) + '01', 'MSGPACK_LIMIT'],
];

for (const [name, input, code] of badBytes) {
  test(`the reader rejects ${name} with ${code}`, () => {
    throwsCode(() => decodeMsgpack(hexToBytes(input)), code);
  });
}

test('oversize declared lengths (4 GiB) fail as MSGPACK_TRUNCATED before anything is allocated', () => {
  const inputs = ['c6ffffffff', 'ddffffffff', 'dfffffffff', 'dbffffffff', 'c9ffffffff'].map(hexToBytes);
  const before = process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 1000; i++) for (const input of inputs) throwsCode(() => decodeMsgpack(input), 'MSGPACK_TRUNCATED');
  // One 4 GiB buffer would show here; the reader checks the length against what is left first.
  assert.ok(process.memoryUsage().arrayBuffers - before < 1 << 20, 'no buffer of the declared size');
});

test('the item limit is enforced, and counted before an array is allocated', () => {
  const bytes = encodeMsgpack(new Array(100).fill(0));
  assert.is(decodeMsgpack(bytes, { maxItems: 101 }).type, 'array');
  throwsCode(() => decodeMsgpack(bytes, { maxItems: 100 }), 'MSGPACK_LIMIT');
  throwsCode(
    () =>
      decodeMsgpack(
        encodeMsgpack([
          [1, 2],
          [3, 4],
        ]),
        { maxItems: 6 },
      ),
    'MSGPACK_LIMIT',
  );
  assert.is(
    decodeMsgpack(
      encodeMsgpack([
        [1, 2],
        [3, 4],
      ]),
      { maxItems: 7 },
    ).type,
    'array',
  );
});

test('the reader refuses non-bytes with INVALID_ARGUMENT', () => {
  for (const bad of [null, undefined, 'c0', 1, {}, [0xc0]]) throwsCode(() => decodeMsgpack(bad as unknown as Uint8Array), 'INVALID_ARGUMENT');
});

test('every strict prefix of a nested value is MSGPACK_TRUNCATED', () => {
  const bytes = encodeMsgpack({ a: [1, 300, -70000, 'xyz', new Uint8Array(3), { b: new MsgFloat(2.5) }], c: 2n ** 60n, d: null });
  for (let n = 0; n < bytes.length; n++) throwsCode(() => decodeMsgpack(bytes.subarray(0, n)), 'MSGPACK_TRUNCATED');
  decodeMsgpack(bytes);
});

test('invalid UTF-8 in a str is kept: value has U+FFFD, bytes are exact', () => {
  const node = decodeMsgpack(hexToBytes('a361ff62'));
  assert.is(node.type, 'str');
  if (node.type !== 'str') return;
  assert.is(node.value, 'a\ufffdb');
  assert.is(bytesToHex(node.bytes), '61ff62');
});

test('a leading byte-order mark in a str is kept', () => {
  const node = decodeMsgpack(hexToBytes('a4efbbbf41'));
  assert.is(node.type === 'str' && node.value, '\ufeffA');
  assert.is(hex('\ufeffA'), 'a4efbbbf41');
});

test('duplicate map keys stay in the tree; msgpackToValue refuses them', () => {
  const node = decodeMsgpack(hexToBytes('82a16101a16102'));
  assert.is(node.type === 'map' && node.entries.length, 2);
  throwsCode(() => msgpackToValue(node), 'MSGPACK_DUPLICATE_KEY');
  throwsCode(() => msgpackToValue(decodeMsgpack(hexToBytes('82c4016101c4016102'))), 'MSGPACK_DUPLICATE_KEY');
  throwsCode(() => msgpackToValue(decodeMsgpack(hexToBytes('820101cc0102'))), 'MSGPACK_DUPLICATE_KEY');
});

test('msgpackToValue: str-keyed maps become objects (even "__proto__"), others Maps', () => {
  const obj = msgpackToValue(
    decodeMsgpack(
      encodeMsgpack(
        new Map([
          ['__proto__', 1],
          ['x', 2],
        ]),
      ),
    ),
  ) as Record<string, MsgValue>;
  assert.equal(Object.keys(obj), ['__proto__', 'x']);
  assert.is(Object.getPrototypeOf(obj), Object.prototype);
  assert.is(hex(obj), '82a95f5f70726f746f5f5f01a17802');
  const map = msgpackToValue(decodeMsgpack(hexToBytes('82c4016101a16202')));
  assert.instance(map, Map);
  throwsCode(() => msgpackToValue(decodeMsgpack(hexToBytes('81c001'))), 'MSGPACK_UNSUPPORTED');
});

test.run();
