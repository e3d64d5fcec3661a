// Transaction bodies: the published vectors decode, each builder's exact bytes and key order,
// random round trips both ways, and builder arguments refused by field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { makeAddress } from '../../src/codec/address.js';
import { PURPOSE_NAME } from '../../src/codec/constants.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { genericBody, notifyBody } from '../../src/codec/body-generic.js';
import { chkeyBody } from '../../src/codec/body-chkey.js';
import { REGISTER_NONCE_WIDTH, hasRegisterNonceTail, registerBody, setRegisterNonce } from '../../src/codec/body-register.js';
import type { Body, GenericBodyInput, PayloadItemInput } from '../../src/codec/body-types.js';
import { MsgFloat, type MsgValue } from '../../src/codec/msgpack-types.js';
import type { DecodedBodyVector } from '../helpers/vectors.js';
import { vectors } from '../helpers/vectors.js';
import { mulberry32, thrownError as error } from '../helpers/helpers.js';

/** The decoded body without the fields a builder does not take. */
function fieldsOf(body: Body): Record<string, unknown> {
  const { kind: _k, kindNumber: _n, raw: _r, ...rest } = body;
  return rest;
}

function compareToVector(body: Body, v: DecodedBodyVector): void {
  assert.is(body.kind, 'generic');
  if (body.kind !== 'generic') return;
  assert.is(body.kindNumber, v.k);
  assert.is(bytesToHex(body.from, true), v.f);
  assert.is(bytesToHex(body.to, true), v.to);
  assert.is(body.seq, BigInt(v.s));
  assert.is(body.timestamp, v.t);
  assert.equal(
    body.payload.map((p) => [p.purposeNumber, p.currency, Number(p.amount)]),
    v.p,
  );
  assert.equal(body.extra, v.e);
}

test('published docs body decodes to its decoded_body', () => {
  compareToVector(decodeBody(vectors.generic_tx_docs.body_hex), vectors.generic_tx_docs.decoded_body);
});

test('published tpnode body (str currency, keys sorted e f k p s t to) decodes to its decoded_body', () => {
  compareToVector(decodeBody(hexToBytes(vectors.generic_tx_tpnode.body_hex)), vectors.generic_tx_tpnode.decoded_body);
});

test('payload purposes read by name from tx_const.json, as the builders take them, with their numbers', () => {
  const body = decodeBody(vectors.generic_tx_docs.body_hex);
  assert.equal(body.kind === 'generic' && body.payload.map((p) => [p.purpose, p.purposeNumber]), [
    ['transfer', 0],
    ['srcfee', 1],
  ]);
  // a decoded payload passes back to the builder as it is
  if (body.kind === 'generic') assert.equal((decodeBody(genericBody(body)) as typeof body).payload, body.payload);
  assert.throws(() => genericBody({ ...(body as GenericBodyInput), payload: [{ purpose: 'transfer', purposeNumber: 1, currency: 'SK', amount: 1 }] }), /purposeNumber/);
});

test('docs body: same key order as ours (k f to s t p e), but currency is str there and bin here (2.8), so re-encoding differs in exactly those two headers', () => {
  const published = vectors.generic_tx_docs.body_hex;
  const decoded = decodeBody(published);
  assert.is(decoded.kind, 'generic');
  if (decoded.kind !== 'generic') return;
  assert.equal(
    decoded.raw.entries.map(([k]) => k.type === 'str' && k.value),
    ['k', 'f', 'to', 's', 't', 'p', 'e'],
  );
  const expected = published.replace('a2534b', 'c402534b').replace('a3464545', 'c403464545');
  assert.is.not(expected, published);
  assert.is(bytesToHex(genericBody(decoded)), expected);
});

test('tpnode body: its key order differs from ours, so re-encoding is compared by decoded values', () => {
  const decoded = decodeBody(vectors.generic_tx_tpnode.body_hex);
  const again = decodeBody(genericBody(decoded as GenericBodyInput));
  assert.equal(fieldsOf(again), fieldsOf(decoded));
});

test('published register body (nonce under the reference miner key "pow") decodes', () => {
  const body = decodeBody(vectors.register_tx.body_hex);
  assert.is(body.kind, 'register');
  if (body.kind !== 'register') return;
  assert.is(body.timestamp, 1530106238744);
  assert.is(bytesToHex(body.keysHash), '8ebe2577a7a590c773e9191e765906139ece7dc18b7334c8b35b54f7500908c0');
  assert.is(body.nonce, 0xabe9n);
  assert.equal(body.extra, {});
});

for (const [i, pow] of vectors.pow.entries()) {
  test(`published pow body ${i} (keys k t nonce h) decodes`, () => {
    const body = decodeBody(pow.body_hex);
    assert.is(body.kind, 'register');
    if (body.kind !== 'register') return;
    assert.is(body.timestamp, 1541067579755);
    assert.is(bytesToHex(body.keysHash), '957216f45873f7d09466610b887f1634359b000820bc91119e0efea70d2de64d');
    assert.is(body.nonce, [0n, 210n][i]);
    assert.not.ok('extra' in body);
  });
}

test('registerBody: k t h e nonce, t and nonce as cf + 8 bytes, nonce in the last 8 bytes', () => {
  const keys = vectors.keys_hash.public_keys.map((k) => hexToBytes(k));
  const body = registerBody({ publicKeys: keys, timestamp: 1541067579755, nonce: 0x0102030405060708n });
  const hex = bytesToHex(body);
  assert.is(hex, '84a16b11a174cf00000166cec9216b' + 'a168c420' + vectors.keys_hash.h.toLowerCase() + 'a56e6f6e6365cf0102030405060708');
  assert.is(REGISTER_NONCE_WIDTH, 8);
  assert.is(bytesToHex(body.subarray(body.length - REGISTER_NONCE_WIDTH)), '0102030405060708');
  const decoded = decodeBody(body);
  assert.is(decoded.kind === 'register' && decoded.nonce, 0x0102030405060708n);
  const nonceNode = decoded.raw.entries[3][1];
  assert.is(nonceNode.end, body.length);
  assert.is(nonceNode.offset, body.length - 9);
});

test('registerBody: with e, nonce still last; default nonce is 0; keysHash input works', () => {
  const h = hexToBytes(vectors.keys_hash.h);
  const body = registerBody({ keysHash: h, timestamp: 5, extra: { msg: 'hi' } });
  assert.is(bytesToHex(body), '85a16b11a174cf0000000000000005a168c420' + bytesToHex(h) + 'a16581a36d7367a26869a56e6f6e6365cf0000000000000000');
  assert.ok(hasRegisterNonceTail(body));
  setRegisterNonce(body, 2n ** 64n - 1n);
  const decoded = decodeBody(body);
  assert.is(decoded.kind === 'register' && decoded.nonce, 2n ** 64n - 1n);
  assert.equal(decoded.kind === 'register' && decoded.extra, { msg: 'hi' });
  assert.equal(registerBody({ keysHash: h, timestamp: 5, extra: { msg: 'hi' }, nonce: 2n ** 64n - 1n }), body);
  assert.not.ok(hasRegisterNonceTail(hexToBytes(vectors.pow[1].body_hex)));
  assert.is(error(() => setRegisterNonce(hexToBytes(vectors.pow[1].body_hex), 1n)).code, 'INVALID_ARGUMENT');
});

test('keysHash of the published keys is the published h (R1, used by registerBody)', () => {
  assert.is(bytesToHex(keysHash(vectors.keys_hash.public_keys.map((k) => hexToBytes(k))), true), vectors.keys_hash.h);
});

test('genericBody: exact bytes for a small transfer with call and extra', () => {
  const body = genericBody({
    from: 'AA010000003355443516',
    to: hexToBytes('8000200002000005'),
    seq: 5,
    timestamp: 1530106238743,
    payload: [
      { purpose: 'transfer', currency: 'SK', amount: 300 },
      { purpose: 1, currency: 'FEE', amount: 2n ** 40n },
    ],
    call: { method: 'go', args: [1, 'x'] },
    extra: { msg: 'hello' },
  });
  assert.is(
    bytesToHex(body),
    '88a16b10a166c4088000200002000003a2746fc4088000200002000005a17305a174cf0000016441705717' +
      'a1709293' +
      '00c402534bcd012c' +
      '9301c403464545cf0000010000000000' +
      'a16392a2676f9201a178' +
      'a16581a36d7367a568656c6c6f',
  );
});

test('notifyBody and chkeyBody: exact key order', () => {
  const from = hexToBytes('8000200002000003');
  assert.is(bytesToHex(notifyBody({ from, seq: 1, timestamp: 2, payload: [] })), '85a16b17a166c4088000200002000003a17301a17402a17090');
  const key = hexToBytes(vectors.public_keys[0].public_key);
  assert.is(bytesToHex(chkeyBody({ from, seq: 1, timestamp: 2, publicKeys: [key] })), '85a16b18a166c4088000200002000003a17402a17301a17991c421' + bytesToHex(key));
});

// --- properties ---------------------------------------------------------------

function randomUint(rnd: () => number): bigint {
  const bits = Math.floor(rnd() * 65);
  let v = 0n;
  for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(Math.floor(rnd() * 65536));
  return v & ((1n << BigInt(bits)) - 1n);
}

function randomAddress(rnd: () => number): Uint8Array {
  return makeAddress({ group: Math.floor(rnd() * 65536), block: Math.floor(rnd() * 2 ** 21), wallet: Math.floor(rnd() * 2 ** 24) });
}

const purposes = Object.keys(PURPOSE_NAME).map(Number).concat([4, 100, 1000]);

function randomGeneric(rnd: () => number): GenericBodyInput & { payload: PayloadItemInput[] } {
  const payload = Array.from({ length: Math.floor(rnd() * 4) }, () => {
    const purpose = purposes[Math.floor(rnd() * purposes.length)];
    const name = PURPOSE_NAME[purpose as keyof typeof PURPOSE_NAME];
    const item: PayloadItemInput = { purpose: name ?? purpose, purposeNumber: purpose, currency: ['SK', 'FEE', 'TEST', 'ÜNI'][Math.floor(rnd() * 4)], amount: randomUint(rnd) };
    if (name) item.purposeName = name;
    return item;
  });
  const input: GenericBodyInput & { payload: PayloadItemInput[] } = {
    from: randomAddress(rnd),
    to: randomAddress(rnd),
    seq: randomUint(rnd),
    timestamp: Math.floor(rnd() * 2 ** 45),
    payload,
  };
  if (rnd() < 0.3) input.call = { method: 'm' + Math.floor(rnd() * 100), args: [Math.floor(rnd() * 1000), 'a', [true, null], new MsgFloat(1.5)] };
  if (rnd() < 0.5) input.extra = { msg: 'x'.repeat(Math.floor(rnd() * 40)), n: Math.floor(rnd() * 2 ** 40), deep: { b: new Uint8Array([1, 2]) } };
  return input;
}

function expectedDecoded(x: ReturnType<typeof randomGeneric>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    from: x.from,
    to: x.to,
    seq: BigInt(x.seq),
    timestamp: Number(x.timestamp),
    payload: x.payload.map((p) => ({ ...p, amount: BigInt(p.amount) })),
  };
  if (x.call) out.call = x.call;
  if (x.extra) out.extra = x.extra;
  return out;
}

test('1000 random generic bodies: decodeBody(genericBody(x)) equals x and genericBody(decodeBody(b)) is b', () => {
  const rnd = mulberry32(21);
  for (let i = 0; i < 1000; i++) {
    const x = randomGeneric(rnd);
    const b = genericBody(x);
    const decoded = decodeBody(b);
    assert.is(decoded.kind, 'generic');
    assert.equal(fieldsOf(decoded), expectedDecoded(x), `case ${i}`);
    assert.equal(genericBody(decoded as GenericBodyInput), b, `case ${i}`);
  }
});

test('500 random notify, chkey and register bodies round-trip both ways', () => {
  const rnd = mulberry32(22);
  const key = hexToBytes(vectors.public_keys[0].public_key);
  for (let i = 0; i < 500; i++) {
    const { to: _to, ...n } = randomGeneric(rnd);
    const nb = notifyBody(n);
    const nd = decodeBody(nb);
    assert.is(nd.kind, 'notify');
    const { to: _t2, ...expected } = expectedDecoded({ ...n, to: new Uint8Array(8) });
    assert.equal(fieldsOf(nd), expected);
    assert.equal(notifyBody(nd as typeof n), nb);

    const c = { from: randomAddress(rnd), seq: randomUint(rnd), timestamp: Math.floor(rnd() * 2 ** 45), publicKeys: [key, key.map((b) => b ^ 1)] };
    const cb = chkeyBody(c);
    const cd = decodeBody(cb);
    assert.equal(fieldsOf(cd), c);
    assert.equal(chkeyBody(cd as typeof c), cb);

    const r = { keysHash: keysHash([key]), timestamp: Math.floor(rnd() * 2 ** 45), nonce: randomUint(rnd) };
    const rb = registerBody(r);
    const rd = decodeBody(rb);
    assert.equal(fieldsOf(rd), r);
    assert.equal(registerBody(rd as typeof r), rb);
  }
});

const F = '8000200002000003';
const TO = '8000200002000005';

// --- builder arguments ------------------------------------------------------------

const good: GenericBodyInput = { from: hexToBytes(F), to: hexToBytes(TO), seq: 1, timestamp: 2, payload: [{ purpose: 0, currency: 'SK', amount: 1 }] };
const item = (over: Partial<PayloadItemInput>) => ({ ...good, payload: [{ purpose: 0, currency: 'SK', amount: 1, ...over } as PayloadItemInput] });

const badArgs: [string, () => unknown, string][] = [
  ['a non-integer amount', () => genericBody(item({ amount: 1.5 })), 'INVALID_ARGUMENT'],
  ['a negative amount', () => genericBody(item({ amount: -1 })), 'INVALID_ARGUMENT'],
  ['an amount of 2^64', () => genericBody(item({ amount: 2n ** 64n })), 'INVALID_ARGUMENT'],
  ['an unsafe number amount', () => genericBody(item({ amount: 2 ** 60 })), 'INVALID_ARGUMENT'],
  ['an unknown purpose name', () => genericBody(item({ purpose: 'tip' as 'gas' })), 'INVALID_ARGUMENT'],
  ['a negative purpose', () => genericBody(item({ purpose: -1 })), 'INVALID_ARGUMENT'],
  ['a purposeName that disagrees', () => genericBody(item({ purpose: 0, purposeName: 'gas' })), 'INVALID_ARGUMENT'],
  ['an empty currency', () => genericBody(item({ currency: '' })), 'INVALID_ARGUMENT'],
  ['a currency that is bytes', () => genericBody(item({ currency: new Uint8Array(2) as unknown as string })), 'INVALID_ARGUMENT'],
  ['a payload that is not an array', () => genericBody({ ...good, payload: {} as unknown as [] }), 'INVALID_ARGUMENT'],
  ['a negative seq', () => genericBody({ ...good, seq: -1 }), 'INVALID_ARGUMENT'],
  ['a fractional timestamp', () => genericBody({ ...good, timestamp: 1.5 }), 'INVALID_ARGUMENT'],
  ['a from with a bad checksum', () => genericBody({ ...good, from: 'AA100000001677722413' }), 'ADDRESS_CHECKSUM'],
  ['a 7-byte to', () => genericBody({ ...good, to: new Uint8Array(7) }), 'ADDRESS_INVALID'],
  ['a to that is a number', () => genericBody({ ...good, to: 5 as unknown as string }), 'INVALID_ARGUMENT'],
  ['extra that is a Map', () => genericBody({ ...good, extra: new Map() as unknown as Record<string, MsgValue> }), 'INVALID_ARGUMENT'],
  ['extra holding a non-integer number', () => genericBody({ ...good, extra: { x: 0.5 } }), 'MSGPACK_UNSUPPORTED'],
  ['a call without args', () => genericBody({ ...good, call: { method: 'm' } as never }), 'INVALID_ARGUMENT'],
  ['null input', () => genericBody(null as unknown as GenericBodyInput), 'INVALID_ARGUMENT'],
  ['notify with a to', () => notifyBody({ ...good } as never), 'INVALID_ARGUMENT'],
  ['register with both publicKeys and keysHash', () => registerBody({ publicKeys: [hexToBytes(vectors.public_keys[0].public_key)], keysHash: new Uint8Array(32), timestamp: 1 }), 'INVALID_ARGUMENT'],
  ['register with neither', () => registerBody({ timestamp: 1 }), 'INVALID_ARGUMENT'],
  ['register with a 31-byte keysHash', () => registerBody({ keysHash: new Uint8Array(31), timestamp: 1 }), 'INVALID_ARGUMENT'],
  ['register with a negative nonce', () => registerBody({ keysHash: new Uint8Array(32), timestamp: 1, nonce: -1n }), 'INVALID_ARGUMENT'],
  ['chkey with a 32-byte key', () => chkeyBody({ from: hexToBytes(F), seq: 1, timestamp: 1, publicKeys: [new Uint8Array(32)] }), 'INVALID_ARGUMENT'],
  ['chkey with no keys', () => chkeyBody({ from: hexToBytes(F), seq: 1, timestamp: 1, publicKeys: [] }), 'INVALID_ARGUMENT'],
];

for (const [name, fn, code] of badArgs) {
  test(`builders reject ${name} with ${code}`, () => {
    assert.is(error(fn).code, code);
  });
}

test('builder errors name the field', () => {
  assert.is(error(() => genericBody({ ...good, payload: [good.payload[0], { purpose: 0, currency: 'SK', amount: 1.5 }] })).field, 'p[1].amount');
  assert.is(error(() => genericBody({ ...good, seq: -1 })).field, 's');
});

test('the nonce tail is the key "nonce" itself: a last key that merely ends in "nonce" is refused', () => {
  const zeros = '00'.repeat(8);
  // {k: 17, xnonce: cf 0}: "xnonce" ends with the bytes of "nonce"
  for (const key of ['786e6f6e6365', '6d796e6f6e6365', '6e6f6e6365']) {
    const fixstr = (0xa0 | (key.length / 2)).toString(16);
    const body = hexToBytes(`82a16b11${fixstr}${key}cf${zeros}`);
    const isNonce = key === '6e6f6e6365';
    assert.is(hasRegisterNonceTail(body), isNonce, key);
    if (isNonce) setRegisterNonce(body, 5n);
    else assert.is(error(() => setRegisterNonce(body, 5n)).code, 'INVALID_ARGUMENT', key);
  }
});

test.run();

test('generic `to` in its 20-byte form (12 zero bytes, then a ThePower address) decodes to the 8 bytes; other 20 bytes are BODY_BAD_FIELD', async () => {
  const { encodeMsgpack } = await import('../../src/codec/msgpack-write.js');
  const from = makeAddress({ group: 10, block: 1, wallet: 1 });
  const to = makeAddress({ group: 10, block: 1, wallet: 2 });
  const bodyWith = (toBytes: Uint8Array) =>
    encodeMsgpack(
      new Map<string, MsgValue>([
        ['k', 16],
        ['t', 1],
        ['f', from],
        ['to', toBytes],
        ['s', 1],
        ['p', []],
      ]),
    );
  const wide = new Uint8Array(20);
  wide.set(to, 12);
  const decoded = decodeBody(bodyWith(wide));
  assert.ok(decoded.kind === 'generic' && bytesToHex(decoded.to) === bytesToHex(to));
  const ethereum = wide.slice();
  ethereum[0] = 1;
  const notPower = wide.slice();
  notPower[12] = 0x40;
  for (const bad of [ethereum, notPower, new Uint8Array(19)]) {
    const err = error(() => decodeBody(bodyWith(bad)));
    assert.is(err.code, 'BODY_BAD_FIELD');
    assert.is(err.field, 'to');
  }
});
