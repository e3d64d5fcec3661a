// Body decoding of the forms other clients write (signed integer widths, str currency and
// addresses, bin keys, extra payload elements, other kinds) and the forms refused, each with its code and field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeDeployBody } from '../../src/codec/body-deploy-decode.js';
import type { OtherBody } from '../../src/codec/body-types.js';
import type { MsgValue } from '../../src/codec/msgpack-types.js';
import { thrownError as error } from '../helpers/helpers.js';

// --- liberal decoding ------------------------------------------------------------

const str = (s: string) => (s.length < 32 ? (0xa0 | s.length).toString(16) : 'd9' + s.length.toString(16).padStart(2, '0')) + Buffer.from(s).toString('hex');
const bin = (h: string) => 'c4' + (h.length / 2).toString(16).padStart(2, '0') + h;
const d3 = (n: bigint) => 'd3' + BigInt.asUintN(64, n).toString(16).padStart(16, '0');
const F = '8000200002000003';
const TO = '8000200002000005';

/** A generic body assembled from hex pieces, so tests can write forms our encoder never does. */
function genericHex(parts: Record<string, string>, order = Object.keys(parts)): string {
  return (0x80 | order.length).toString(16) + order.map((k) => (k.startsWith('bin:') ? bin(Buffer.from(k.slice(4)).toString('hex')) : str(k)) + parts[k]).join('');
}

const base = () => ({ k: '10', f: bin(F), to: bin(TO), s: '05', t: '06', p: '91' + '93' + '00' + bin('534b') + '07' });

test('decodes signed integer widths (d0-d3) for non-negative values, as other clients write bigints', () => {
  const hex = genericHex({ k: 'd010', f: bin(F), to: bin(TO), s: d3(5n), t: 'd200000006', p: '91' + '93' + 'd000' + bin('534b') + d3(2n ** 62n) });
  const body = decodeBody(hex);
  assert.is(body.kind, 'generic');
  if (body.kind !== 'generic') return;
  assert.equal([body.seq, body.timestamp, body.payload[0].purposeNumber, body.payload[0].amount], [5n, 6, 0, 2n ** 62n]);
});

test('decodes str currency and str addresses, bin map keys and any key order', () => {
  const parts = { ...base(), f: 'a8' + F, p: '91' + '93' + '00' + str('SK') + '07' };
  const body = decodeBody(genericHex(parts, ['p', 't', 'to', 'f', 's', 'k']));
  assert.equal(body.kind === 'generic' && [bytesToHex(body.from, true), body.payload[0].currency], [F, 'SK']);
  const binKeys = '86' + bin('6b') + '10' + bin('66') + bin(F) + bin('746f') + bin(TO) + bin('73') + '05' + bin('74') + '06' + bin('70') + '90';
  assert.is(decodeBody(binKeys).kind, 'generic');
});

test('payload items with more than 3 elements are accepted, the extras ignored (R8)', () => {
  const body = decodeBody(genericHex({ ...base(), p: '91' + '95' + '00' + bin('534b') + '07' + 'c0' + 'a178' }));
  assert.equal(body.kind === 'generic' && body.payload, [{ purpose: 'transfer', purposeNumber: 0, purposeName: 'transfer', currency: 'SK', amount: 7n }]);
});

test('unknown keys are kept in raw; unknown purposes have no name', () => {
  const body = decodeBody(genericHex({ ...base(), nb: 'ce60000000', p: '91' + '93' + '63' + bin('534b') + '07' }));
  assert.is(body.kind, 'generic');
  if (body.kind !== 'generic') return;
  assert.equal(body.payload[0], { purpose: 99, purposeNumber: 99, currency: 'SK', amount: 7n });
  assert.ok(body.raw.entries.some(([k]) => k.type === 'str' && k.value === 'nb'));
});

test('e given as an empty bin reads as an empty map; e with bin keys reads as text keys', () => {
  assert.equal(decodeBody(genericHex({ ...base(), e: 'c400' })).kind === 'generic' && (decodeBody(genericHex({ ...base(), e: 'c400' })) as { extra?: unknown }).extra, {});
  const body = decodeBody(genericHex({ ...base(), e: '82' + bin('6d7367') + str('hi') + str('n') + '05' }));
  assert.equal((body as { extra?: unknown }).extra, { msg: 'hi', n: 5 });
});

test('other kinds decode to their fields: deploy, tstore (21), lstore, patch, block', () => {
  for (const [k, name] of [
    [0x12, 'deploy'],
    [0x15, 'tstore'],
    [0x16, 'lstore'],
    [0x13, 'patch'],
    [0x14, 'block'],
  ] as const) {
    const body = decodeBody(genericHex({ k: k.toString(16), f: bin(F), x: '93010203' }));
    assert.is(body.kind, name);
    assert.is(body.kindNumber, k);
    if (body.kind === 'generic' || body.kind === 'register' || body.kind === 'notify' || body.kind === 'chkey') continue;
    assert.equal(body.fields, { k, f: hexToBytes(F), x: [1, 2, 3] } as Record<string, MsgValue>);
  }
});

test('deploy decodes as the SDK writes it: code and vm in e, constructor arguments in c, c: [] for none', () => {
  const e = '83' + str('code') + bin('6080') + str('vm') + str('evm') + str('deploy') + str('inplace');
  const p = '91' + '93' + '03' + bin('534b') + '0a';
  const deploy = (hex: string) => decodeDeployBody(decodeBody(hex) as OtherBody);
  const withArgs = deploy(genericHex({ k: '12', f: bin(F), s: '01', t: '05', p, c: '92' + str('0x0') + '91' + bin('00ff'), e }));
  assert.equal([withArgs.code, withArgs.vm, withArgs.args, withArgs.seq, withArgs.payload[0].purposeName], [hexToBytes('6080'), 'evm', hexToBytes('00ff'), 1n, 'gas']);
  const none = deploy(genericHex({ k: '12', f: bin(F), s: '01', t: '05', p, c: '90', e }));
  assert.is(none.args, undefined);
  assert.throws(
    () => deploy(genericHex({ ...base() })),
    (err: { field?: string }) => err.field === 'k',
  );
  const noCode = () => deploy(genericHex({ k: '12', f: bin(F), s: '01', t: '05', p, e: '81' + str('vm') + str('evm') }));
  assert.throws(noCode, (err: { field?: string }) => err.field === 'e.code');
});

// --- strict decoding ------------------------------------------------------------

const strict: [string, string, string, string | undefined][] = [
  ['a float amount', genericHex({ ...base(), p: '91' + '93' + '00' + bin('534b') + 'cb3ff0000000000000' }), 'BODY_FLOAT_AMOUNT', 'p[0].amount'],
  ['a float amount in the second item', genericHex({ ...base(), p: '92' + '9300' + bin('534b') + '07' + '9301' + bin('534b') + 'ca3f800000' }), 'BODY_FLOAT_AMOUNT', 'p[1].amount'],
  ['a float seq', genericHex({ ...base(), s: 'cb4014000000000000' }), 'BODY_FLOAT_AMOUNT', 's'],
  ['a float timestamp', genericHex({ ...base(), t: 'cb4014000000000000' }), 'BODY_FLOAT_AMOUNT', 't'],
  ['a float kind', genericHex({ ...base(), k: 'cb4030000000000000' }), 'BODY_FLOAT_AMOUNT', 'k'],
  ['a float purpose', genericHex({ ...base(), p: '91' + '93' + 'cb0000000000000000' + bin('534b') + '07' }), 'BODY_FLOAT_AMOUNT', 'p[0].purpose'],
  ['a negative amount', genericHex({ ...base(), p: '91' + '93' + '00' + bin('534b') + 'ff' }), 'BODY_BAD_FIELD', 'p[0].amount'],
  ['a negative seq', genericHex({ ...base(), s: d3(-5n) }), 'BODY_BAD_FIELD', 's'],
  ['a negative timestamp', genericHex({ ...base(), t: 'd0fe' }), 'BODY_BAD_FIELD', 't'],
  ['a string amount', genericHex({ ...base(), p: '91' + '93' + '00' + bin('534b') + str('7') }), 'BODY_BAD_FIELD', 'p[0].amount'],
  ['a 7-byte from', genericHex({ ...base(), f: bin(F.slice(2)) }), 'BODY_BAD_FIELD', 'f'],
  ['a 9-byte to', genericHex({ ...base(), to: bin(TO + '00') }), 'BODY_BAD_FIELD', 'to'],
  ['an integer from', genericHex({ ...base(), f: '05' }), 'BODY_BAD_FIELD', 'f'],
  ['a missing to', genericHex({ ...base(), to: '' }, ['k', 'f', 's', 't', 'p']), 'BODY_MISSING_FIELD', 'to'],
  ['a missing p', genericHex({ ...base() }, ['k', 'f', 'to', 's', 't']), 'BODY_MISSING_FIELD', 'p'],
  ['a missing k', genericHex({ ...base() }, ['f', 'to', 's', 't', 'p']), 'BODY_MISSING_FIELD', 'k'],
  ['a 2-element payload item', genericHex({ ...base(), p: '91' + '92' + '00' + bin('534b') }), 'BODY_BAD_PAYLOAD', 'p[0]'],
  ['a payload item that is not an array', genericHex({ ...base(), p: '91' + '07' }), 'BODY_BAD_PAYLOAD', 'p[0]'],
  ['p that is not an array', genericHex({ ...base(), p: '80' }), 'BODY_BAD_FIELD', 'p'],
  ['a currency that is an integer', genericHex({ ...base(), p: '91' + '93' + '00' + '05' + '07' }), 'BODY_BAD_FIELD', 'p[0].currency'],
  ['a currency that is not UTF-8', genericHex({ ...base(), p: '91' + '93' + '00' + bin('ff') + '07' }), 'BODY_BAD_FIELD', 'p[0].currency'],
  ['unknown kind 99', genericHex({ ...base(), k: '63' }), 'BODY_UNKNOWN_KIND', 'k'],
  ['kind 15 (below the table)', genericHex({ ...base(), k: '0f' }), 'BODY_UNKNOWN_KIND', 'k'],
  ['a body that is an array', '9110', 'BODY_NOT_MAP', undefined],
  ['a body that is a bin', bin('10'), 'BODY_NOT_MAP', undefined],
  ['a duplicate key', '87' + str('k') + '10' + str('f') + bin(F) + str('to') + bin(TO) + str('s') + '05' + str('t') + '06' + str('p') + '90' + str('s') + '06', 'BODY_BAD_FIELD', 's'],
  [
    'a duplicate key, once str once bin',
    '87' + str('k') + '10' + str('f') + bin(F) + str('to') + bin(TO) + str('s') + '05' + str('t') + '06' + str('p') + '90' + bin('73') + '06',
    'BODY_BAD_FIELD',
    's',
  ],
  ['a duplicate key inside e', genericHex({ ...base(), e: '82' + str('a') + '01' + str('a') + '02' }), 'BODY_BAD_FIELD', 'e.a'],
  ['a duplicate key nested in e', genericHex({ ...base(), e: '81' + str('a') + '82' + str('b') + '01' + str('b') + '02' }), 'BODY_BAD_FIELD', 'e.a'],
  ['e that is an array', genericHex({ ...base(), e: '90' }), 'BODY_BAD_FIELD', 'e'],
  ['e with an integer key', genericHex({ ...base(), e: '81' + '01' + '02' }), 'BODY_BAD_FIELD', 'e'],
  ['c with one element', genericHex({ ...base(), c: '91' + str('m') }), 'BODY_BAD_FIELD', 'c'],
  ['c whose args are not an array', genericHex({ ...base(), c: '92' + str('m') + '01' }), 'BODY_BAD_FIELD', 'c.args'],
  ['c whose method is an integer', genericHex({ ...base(), c: '92' + '01' + '90' }), 'BODY_BAD_FIELD', 'c.method'],
  ['a register h of 31 bytes', '83' + str('k') + '11' + str('t') + '05' + str('h') + bin('00'.repeat(31)), 'BODY_BAD_FIELD', 'h'],
  ['a register h as str', '83' + str('k') + '11' + str('t') + '05' + str('h') + 'd920' + '00'.repeat(32), 'BODY_BAD_FIELD', 'h'],
  ['a register body without t', '82' + str('k') + '11' + str('h') + bin('00'.repeat(32)), 'BODY_MISSING_FIELD', 't'],
  ['a chkey body with an empty y', '85' + str('k') + '18' + str('f') + bin(F) + str('t') + '01' + str('s') + '01' + str('y') + '90', 'BODY_BAD_FIELD', 'y'],
  ['a chkey key that is not bin', '85' + str('k') + '18' + str('f') + bin(F) + str('t') + '01' + str('s') + '01' + str('y') + '91' + '01', 'BODY_BAD_FIELD', 'y[0]'],
];

for (const [name, hex, code, field] of strict) {
  test(`decodeBody rejects ${name}: ${code}${field ? ` (field ${field})` : ''}`, () => {
    const err = error(() => decodeBody(hex));
    assert.is(err.code, code, err.message);
    assert.is(err.field, field);
  });
}

test.run();
