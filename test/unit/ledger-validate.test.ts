// The submission checks (ledger/validate.ts) called directly, without HTTP: what passes, and
// each refusal with its code, at the edges of the window, the limits and the proof of work.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, bytesToHex } from '../../src/bytes.js';
import { makeAddress } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { TIMESTAMP_WINDOW_MS } from '../../src/node/ledger/node-tx.js';
import { prepareSubmission, validateSubmission } from '../../src/node/ledger/validate.js';
import { errorCode } from '../helpers/helpers.js';
import { alice, bob, CHAIN, context, ledger, NOW, stranger } from '../helpers/ledger-fixtures.js';
import { chkey, notify, pay, register, registerBelow, sign, transfer } from '../helpers/node-helpers.js';
import { genericBody } from '../../src/codec/body-generic.js';

const wallets = ledger();
const ctx = context(wallets);
const send = (over: Partial<Parameters<typeof transfer>[0]> = {}) => base64ToBytes(transfer({ key: alice.key, from: alice.address, to: bob.address, seq: 6, t: NOW, payload: [pay(5)], ...over }));

test('a signed transfer passes: its body, signer and body hash as the ledger needs them', () => {
  const tx = validateSubmission(send(), ctx);
  assert.is(tx.body.kind, 'generic');
  if (tx.body.kind !== 'generic') return;
  assert.equal(tx.body.from, alice.address);
  assert.equal(tx.body.to, bob.address);
  assert.is(tx.body.seq, 6n);
  assert.equal(tx.body.payload.map((p) => [p.purpose, p.currency, p.amount]), [[0, 'SK', 5n]]);
  assert.equal(tx.signers, [publicKeyOf(alice.key)]);
  assert.match(tx.bodyHash, /^[0-9a-f]{64}$/);
  assert.is(validateSubmission(send(), ctx).bodyHash, tx.bodyHash, 'the same body, the same hash');
  assert.is.not(validateSubmission(send({ seq: 7 }), ctx).bodyHash, tx.bodyHash);
});

test('the timestamp window: one ms inside passes, its edge is refused, a restart skips it', () => {
  const edge = NOW - TIMESTAMP_WINDOW_MS;
  assert.is(validateSubmission(send({ t: edge + 1 }), ctx).body.kind, 'generic');
  assert.is(errorCode(() => validateSubmission(send({ t: edge }), ctx)), 'TIMESTAMP_OUT_OF_WINDOW');
  assert.is(errorCode(() => validateSubmission(send({ t: NOW + TIMESTAMP_WINDOW_MS }), ctx)), 'TIMESTAMP_OUT_OF_WINDOW');
  assert.is(validateSubmission(send({ t: edge }), ctx, { restoring: true }).body.kind, 'generic');
});

test('the sender must exist and have signed with its key', () => {
  assert.is(errorCode(() => validateSubmission(send({ key: stranger.key, from: stranger.address }), ctx)), 'SENDER_UNKNOWN');
  assert.is(errorCode(() => validateSubmission(send({ key: bob.key }), ctx)), 'SENDER_KEY_MISMATCH');
  assert.is(validateSubmission(base64ToBytes(notify({ key: alice.key, from: alice.address, seq: 6, t: NOW, payload: [] })), ctx).body.kind, 'notify');
  const change = validateSubmission(base64ToBytes(chkey({ key: alice.key, from: alice.address, seq: 6, t: NOW, newKey: bob.key })), ctx);
  assert.is(change.body.kind, 'chkey');
});

test('an address on another chain is WRONG_CHAIN', () => {
  const elsewhere = makeAddress({ group: 10, block: CHAIN + 1, wallet: 2 });
  assert.is(errorCode(() => validateSubmission(send({ to: elsewhere }), ctx)), 'WRONG_CHAIN');
});

test('size and signature limits, at their edges', () => {
  const raw = send();
  assert.is(validateSubmission(raw, context(wallets, { limits: { ...ctx.limits, maxTxBytes: raw.length } })).body.kind, 'generic');
  assert.is(errorCode(() => validateSubmission(raw, context(wallets, { limits: { ...ctx.limits, maxTxBytes: raw.length - 1 } }))), 'TX_TOO_LARGE');
  const body = genericBody({ from: alice.address, to: bob.address, seq: 6, timestamp: NOW, payload: [pay(1)] });
  const twice = base64ToBytes(sign(body, [alice.key, bob.key], NOW));
  assert.is(validateSubmission(twice, context(wallets, { limits: { ...ctx.limits, maxSignatures: 2 } })).signers.length, 1, 'only the sender key counts');
  assert.is(errorCode(() => validateSubmission(twice, context(wallets, { limits: { ...ctx.limits, maxSignatures: 1 } }))), 'TOO_MANY_SIGNATURES');
});

test('malformed containers are typed errors, never crashes', () => {
  for (const bad of [new Uint8Array(0), new Uint8Array([0xc1]), new Uint8Array([0x90]), base64ToBytes('gqR0eXBlAQ=='), send().subarray(0, 40)]) {
    const code = errorCode(() => validateSubmission(bad, ctx));
    assert.match(code, /^(MSGPACK_|TX_|BODY_|SIG_|BSIG_)/, `${bytesToHex(bad)} -> ${code}`);
  }
  assert.is(errorCode(() => validateSubmission(send({ seq: 2n ** 63n }), ctx)), 'BODY_BAD_FIELD');
});

test('register: the proof of work meets the difficulty, one bit short is POW_TOO_LOW, and difficulty 0 asks none', () => {
  const hard = context(wallets, { difficulty: 8 });
  const tx = validateSubmission(base64ToBytes(register(stranger.key, NOW, 8)), hard);
  assert.is(tx.body.kind, 'register');
  assert.equal(tx.signers, [publicKeyOf(stranger.key)]);
  assert.is(errorCode(() => validateSubmission(base64ToBytes(registerBelow(stranger.key, NOW, 8)), hard)), 'POW_TOO_LOW');
  assert.is(validateSubmission(base64ToBytes(registerBelow(stranger.key, NOW, 8)), ctx).body.kind, 'register');
});

test('prepareSubmission hands out the signature jobs; an invalid outcome is SIG_INVALID', () => {
  const prepared = prepareSubmission(send(), ctx);
  assert.is(prepared.jobs.length, 1);
  assert.is(errorCode(() => prepared.complete(['SIG_INVALID'])), 'SIG_INVALID');
  assert.equal(prepared.complete(['valid']).signers, [publicKeyOf(alice.key)]);
});

test.run();
