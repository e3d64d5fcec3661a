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
import { alice, bob, CHAIN, context, hex, ledger, NOW, stranger } from '../helpers/ledger-fixtures.js';
import { chkey, notify, pay, register, registerBelow, sign, transfer } from '../helpers/node-helpers.js';
import { genericBody, notifyBody } from '../../src/codec/body-generic.js';
import { chkeyBody } from '../../src/codec/body-chkey.js';
import { deployBody } from '../../src/codec/body-deploy.js';
import { registerBody } from '../../src/codec/body-register.js';
import { encodeTx } from '../../src/codec/container.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { encodeMsgpack } from '../../src/codec/msgpack-write.js';
import { signBsig } from '../../src/crypto/bsig.js';
import { createSigner } from '../../src/crypto/ecdsa.js';
import { secp256k1 } from '../../src/crypto/secp256k1.js';
import { TpkitError } from '../../src/errors.js';
import { powBits } from '../../src/pow/bits.js';
import { newWallet } from '../../src/node/ledger/wallet.js';
import { minedRegisterBody } from '../helpers/node-helpers.js';

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
  assert.equal(
    tx.body.payload.map((p) => [p.purpose, p.currency, p.amount]),
    [[0, 'SK', 5n]],
  );
  assert.equal(tx.signers, [publicKeyOf(alice.key)]);
  assert.match(tx.bodyHash, /^[0-9a-f]{64}$/);
  assert.is(validateSubmission(send(), ctx).bodyHash, tx.bodyHash, 'the same body, the same hash');
  assert.is.not(validateSubmission(send({ seq: 7 }), ctx).bodyHash, tx.bodyHash);
});

test('the timestamp window: one ms inside passes, its edge is refused, a restart skips it', () => {
  const edge = NOW - TIMESTAMP_WINDOW_MS;
  assert.is(validateSubmission(send({ t: edge + 1 }), ctx).body.kind, 'generic');
  assert.is(
    errorCode(() => validateSubmission(send({ t: edge }), ctx)),
    'TIMESTAMP_OUT_OF_WINDOW',
  );
  assert.is(
    errorCode(() => validateSubmission(send({ t: NOW + TIMESTAMP_WINDOW_MS }), ctx)),
    'TIMESTAMP_OUT_OF_WINDOW',
  );
  assert.is(validateSubmission(send({ t: edge }), ctx, { restoring: true }).body.kind, 'generic');
});

test('the sender must exist and have signed with its key', () => {
  assert.is(
    errorCode(() => validateSubmission(send({ key: stranger.key, from: stranger.address }), ctx)),
    'SENDER_UNKNOWN',
  );
  assert.is(
    errorCode(() => validateSubmission(send({ key: bob.key }), ctx)),
    'SENDER_KEY_MISMATCH',
  );
  assert.is(validateSubmission(base64ToBytes(notify({ key: alice.key, from: alice.address, seq: 6, t: NOW, payload: [] })), ctx).body.kind, 'notify');
  const change = validateSubmission(base64ToBytes(chkey({ key: alice.key, from: alice.address, seq: 6, t: NOW, newKey: bob.key })), ctx);
  assert.is(change.body.kind, 'chkey');
});

test('an address on another chain is WRONG_CHAIN', () => {
  const elsewhere = makeAddress({ group: 10, block: CHAIN + 1, wallet: 2 });
  assert.is(
    errorCode(() => validateSubmission(send({ to: elsewhere }), ctx)),
    'WRONG_CHAIN',
  );
});

test('size and signature limits, at their edges', () => {
  const raw = send();
  assert.is(validateSubmission(raw, context(wallets, { limits: { ...ctx.limits, maxTxBytes: raw.length } })).body.kind, 'generic');
  assert.is(
    errorCode(() => validateSubmission(raw, context(wallets, { limits: { ...ctx.limits, maxTxBytes: raw.length - 1 } }))),
    'TX_TOO_LARGE',
  );
  const body = genericBody({ from: alice.address, to: bob.address, seq: 6, timestamp: NOW, payload: [pay(1)] });
  const twice = base64ToBytes(sign(body, [alice.key, bob.key], NOW));
  assert.is(validateSubmission(twice, context(wallets, { limits: { ...ctx.limits, maxSignatures: 2 } })).signers.length, 1, 'only the sender key counts');
  assert.is(
    errorCode(() => validateSubmission(twice, context(wallets, { limits: { ...ctx.limits, maxSignatures: 1 } }))),
    'TOO_MANY_SIGNATURES',
  );
});

test('malformed containers are typed errors, never crashes', () => {
  for (const bad of [new Uint8Array(0), new Uint8Array([0xc1]), new Uint8Array([0x90]), base64ToBytes('gqR0eXBlAQ=='), send().subarray(0, 40)]) {
    const code = errorCode(() => validateSubmission(bad, ctx));
    assert.match(code, /^(MSGPACK_|TX_|BODY_|SIG_|BSIG_)/, `${bytesToHex(bad)} -> ${code}`);
  }
  assert.is(
    errorCode(() => validateSubmission(send({ seq: 2n ** 63n }), ctx)),
    'BODY_BAD_FIELD',
  );
});

test('register: the proof of work meets the difficulty, one bit short is POW_TOO_LOW, and difficulty 0 asks none', () => {
  const hard = context(wallets, { difficulty: 8 });
  const tx = validateSubmission(base64ToBytes(register(stranger.key, NOW, 8)), hard);
  assert.is(tx.body.kind, 'register');
  assert.equal(tx.signers, [publicKeyOf(stranger.key)]);
  assert.is(
    errorCode(() => validateSubmission(base64ToBytes(registerBelow(stranger.key, NOW, 8)), hard)),
    'POW_TOO_LOW',
  );
  assert.is(validateSubmission(base64ToBytes(registerBelow(stranger.key, NOW, 8)), ctx).body.kind, 'register');
});

test('prepareSubmission hands out the signature jobs; an invalid outcome is SIG_INVALID', () => {
  const prepared = prepareSubmission(send(), ctx);
  assert.is(prepared.jobs.length, 1);
  assert.is(
    errorCode(() => prepared.complete(['SIG_INVALID'])),
    'SIG_INVALID',
  );
  assert.equal(prepared.complete(['valid']).signers, [publicKeyOf(alice.key)]);
});

/** The error a call throws (a TpkitError), for its code, field and message. */
function thrown(fn: () => unknown): TpkitError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, TpkitError, `expected a TpkitError, got ${String(err)}`);
    return err as TpkitError;
  }
  throw new Error('accepted');
}

const signed = (body: Uint8Array, keys = [alice.key]) => base64ToBytes(sign(body, keys, NOW));
const elsewhere = makeAddress({ group: 10, block: CHAIN + 1, wallet: 1 });
const MAX_SEQ = 2n ** 63n - 1n;

/** One builder per kind that has a sender, signed by Alice. */
const senderKinds: Record<string, (o: { from?: Uint8Array; seq?: bigint; t?: number }) => Uint8Array> = {
  generic: (o) => signed(genericBody({ from: o.from ?? alice.address, to: bob.address, seq: o.seq ?? 6n, timestamp: o.t ?? NOW, payload: [pay(1)] })),
  notify: (o) => signed(notifyBody({ from: o.from ?? alice.address, seq: o.seq ?? 6n, timestamp: o.t ?? NOW, payload: [] })),
  chkey: (o) => signed(chkeyBody({ from: o.from ?? alice.address, seq: o.seq ?? 6n, timestamp: o.t ?? NOW, publicKeys: [publicKeyOf(bob.key)] })),
  deploy: (o) => signed(deployBody({ from: o.from ?? alice.address, seq: o.seq ?? 6n, timestamp: o.t ?? NOW, payload: [], code: new Uint8Array([0x60, 0x00]) })),
};

test('every kind with a sender checks the chain of "f", the window and the seq range, each with its code', () => {
  for (const [kind, build] of Object.entries(senderKinds)) {
    assert.is(validateSubmission(build({}), ctx).body.kind, kind);
    const wrong = thrown(() => validateSubmission(build({ from: elsewhere }), ctx));
    assert.equal([wrong.code, wrong.field], ['WRONG_CHAIN', 'f'], kind);
    const old = thrown(() => validateSubmission(build({ t: NOW - TIMESTAMP_WINDOW_MS }), ctx));
    assert.equal([old.code, old.field], ['TIMESTAMP_OUT_OF_WINDOW', 't'], kind);
    const seq = thrown(() => validateSubmission(build({ seq: MAX_SEQ + 1n }), ctx));
    assert.equal([seq.code, seq.field], ['BODY_BAD_FIELD', 's'], kind);
    const top = validateSubmission(build({ seq: MAX_SEQ }), ctx).body;
    assert.is('seq' in top && top.seq, MAX_SEQ, `${kind}: 2^63 - 1, the largest signed 64-bit seq, passes`);
  }
});

test('a deploy for another VM than "evm" is BODY_BAD_FIELD on e.vm', () => {
  const body = encodeMsgpack({ k: 18, f: alice.address, s: 6, t: NOW, p: [], e: { code: new Uint8Array([0x60, 0x00]), vm: 'wasm', deploy: 'inplace' } });
  const err = thrown(() => validateSubmission(signed(body), ctx));
  assert.equal([err.code, err.field], ['BODY_BAD_FIELD', 'e.vm']);
  assert.match(err.details ?? '', /"wasm"/);
});

test('a call is c = ["0x0", [calldata]]; any other c is kept as a bad call', () => {
  const data = new Uint8Array([0xa9, 0x05, 0x9c, 0xbb]);
  const withCall = (method: string, args: (Uint8Array | number)[]) =>
    validateSubmission(signed(genericBody({ from: alice.address, to: bob.address, seq: 6n, timestamp: NOW, payload: [], call: { method, args } })), ctx).body;
  const good = withCall('0x0', [data]);
  assert.ok(good.kind === 'generic');
  if (good.kind !== 'generic') return;
  assert.equal(good.call, data);
  assert.is(good.badCall, undefined);
  for (const [method, args] of [
    ['0x1', [data]],
    ['0x0', [data, data]],
    ['0x0', []],
    ['0x0', [5]],
  ] as const) {
    const body = withCall(method, [...args]);
    assert.ok(body.kind === 'generic' && body.badCall === true && body.call === undefined, `${method} ${args.length}`);
  }
  const none = validateSubmission(send(), ctx).body;
  assert.ok(none.kind === 'generic' && none.call === undefined && none.badCall === undefined, 'no c, no call');
});

test('a container with no signature is SIG_MISSING; an unsupported kind is refused before its signatures are read', () => {
  assert.is(
    errorCode(() => validateSubmission(encodeTx({ body: genericBody({ from: alice.address, to: bob.address, seq: 6, timestamp: NOW, payload: [] }), sigs: [] }), ctx)),
    'SIG_MISSING',
  );
  for (const k of [19, 20, 21, 22]) {
    const raw = encodeTx({ body: encodeMsgpack({ k, f: alice.address, s: 6, t: NOW, p: [] }), sigs: [new Uint8Array([1, 2, 3])] });
    assert.is(
      errorCode(() => validateSubmission(raw, ctx)),
      'KIND_UNSUPPORTED',
      `kind ${k}`,
    );
  }
});

/** A register body without the nonce key (what the official SDK sends), with `bits` of work by chance. */
function unminedRegister(key: Uint8Array, fits: (bits: number) => boolean): { raw: Uint8Array; bits: number } {
  for (let t = NOW; ; t++) {
    const body = encodeMsgpack({ k: 17, t, h: keysHash([publicKeyOf(key)]) });
    const bits = powBits(body);
    if (fits(bits)) return { raw: base64ToBytes(sign(body, [key], t)), bits };
  }
}

test('register proof of work: a body without a nonce is told so, at difficulty 1 too; work equal to the difficulty passes', () => {
  const zero = unminedRegister(stranger.key, (b) => b === 0);
  const noNonce = thrown(() => validateSubmission(zero.raw, context(wallets, { difficulty: 1 })));
  assert.is(noNonce.code, 'POW_TOO_LOW');
  assert.match(noNonce.message, /no proof of work \(no nonce/);
  assert.match(noNonce.details ?? '', /--difficulty 0/);
  const mined = thrown(() => validateSubmission(base64ToBytes(registerBelow(stranger.key, NOW, 4)), context(wallets, { difficulty: 4 })));
  assert.is(mined.code, 'POW_TOO_LOW');
  assert.match(mined.message, /below the difficulty/);
  assert.match(mined.details ?? '', /has 3 leading zero bits, the chain asks for 4/);
  const lucky = unminedRegister(stranger.key, (b) => b >= 1);
  assert.is(validateSubmission(lucky.raw, context(wallets, { difficulty: lucky.bits })).body.kind, 'register', 'no nonce, but enough work by chance');
  const body = minedRegisterBody(publicKeyOf(stranger.key), NOW, 6);
  const exact = powBits(body);
  assert.is(validateSubmission(base64ToBytes(sign(body, [stranger.key], NOW)), context(wallets, { difficulty: exact })).body.kind, 'register');
});

test('register with two signatures: the valid ones make the keys; a bad point fails it all; none valid is the first failure', () => {
  const body = registerBody({ publicKeys: [publicKeyOf(stranger.key)], timestamp: NOW, nonce: 0n });
  const prepared = () => prepareSubmission(signed(body, [bob.key, stranger.key]), ctx);
  assert.is(prepared().jobs.length, 2);
  assert.equal(prepared().complete(['SIG_INVALID', 'valid']).signers, [publicKeyOf(stranger.key)], 'a failed signature beside a valid one is ignored');
  const badPoint = thrown(() => prepared().complete(['valid', 'KEY_INVALID']));
  assert.equal([badPoint.code, badPoint.field], ['KEY_INVALID', 'sig[1]']);
  const none = thrown(() => prepared().complete(['SIG_INVALID', 'BSIG_BAD_DER']));
  assert.equal([none.code, none.field], ['SIG_INVALID', 'sig[0]']);
  assert.is(
    errorCode(() => prepared().complete(['valid', 'SIG_INVALID'])),
    'REGISTER_KEYS_MISMATCH',
    'h names the other key',
  );
});

/** Signs with the 65-byte (uncompressed) form of a key in the BSig, as older wallets do. */
function signedUncompressed(body: Uint8Array, key: Uint8Array): Uint8Array {
  const signer = createSigner(key);
  const sig = signBsig(body, { publicKey: secp256k1.getPublicKey(key, false), signDigest: (d) => signer.signDigest(d) }, { timestamp: NOW });
  return encodeTx({ body, sigs: [sig] });
}

test('a signature carrying the uncompressed key counts as its compressed key, for register and for a sender', () => {
  const reg = validateSubmission(signedUncompressed(registerBody({ publicKeys: [publicKeyOf(stranger.key)], timestamp: NOW, nonce: 0n }), stranger.key), ctx);
  assert.equal(reg.signers, [publicKeyOf(stranger.key)]);
  const body = genericBody({ from: alice.address, to: bob.address, seq: 6, timestamp: NOW, payload: [pay(1)] });
  assert.equal(validateSubmission(signedUncompressed(body, alice.key), ctx).signers, [publicKeyOf(alice.key)]);
  assert.is(
    errorCode(() => validateSubmission(signedUncompressed(body, bob.key), ctx)),
    'SENDER_KEY_MISMATCH',
  );
});

test('restoring after a key change: the transaction is kept without signers, for block time to call unverified', () => {
  const changed = ledger();
  const a = changed.get(hex(alice.address))!;
  changed.set(hex(alice.address), { ...a, pubkey: publicKeyOf(bob.key) });
  assert.is(
    errorCode(() => validateSubmission(send(), context(changed))),
    'SENDER_KEY_MISMATCH',
  );
  assert.equal(validateSubmission(send(), context(changed), { restoring: true }).signers, []);
  const keyless = new Map([[hex(alice.address), newWallet(null)]]);
  assert.is(
    errorCode(() => validateSubmission(send(), context(keyless))),
    'SENDER_KEY_MISMATCH',
  );
});

test.run();
