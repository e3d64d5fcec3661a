// How a block lists each kind of stored transaction (the reference's prettify_tx): the fields
// of each body kind with addresses, keys and hashes as uppercase hex, payloads with `cur`, the
// registered address of a registration, each signature's key and time, and an Ethereum
// transaction as its hash and bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { chkeyBody } from '../../src/codec/body-chkey.js';
import { deployBody } from '../../src/codec/body-deploy.js';
import { genericBody, notifyBody } from '../../src/codec/body-generic.js';
import { registerBody } from '../../src/codec/body-register.js';
import { encodeTx } from '../../src/codec/container.js';
import { BSIG_TAG, encodeBsig, encodeTlv } from '../../src/crypto/bsig-tlv.js';
import { signBsig } from '../../src/crypto/bsig.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { txView, withReferenceAddresses } from '../../src/node/api/views.js';

const FROM = makeAddress({ group: 2, block: 3, wallet: 4 });
const TO = makeAddress({ group: 2, block: 3, wallet: 5 });
const KEY = generateSecretKey();
const PUB = publicKeyOf(KEY);
const T = 1_700_000_000_123;
const up = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

function stored(body: Uint8Array): Uint8Array {
  return encodeTx({ body, sigs: [signBsig(body, KEY, { timestamp: T })] });
}

test('a transfer: from, to, seq, t, payload with cur, the call and extra, the body and a signature with its key and time', () => {
  const body = genericBody({
    from: FROM,
    to: TO,
    seq: 7,
    timestamp: T,
    payload: [
      { purpose: 'transfer', currency: 'SK', amount: 10 },
      { purpose: 'srcfee', currency: 'FTT', amount: 2n },
    ],
    call: { method: 'set', args: [1, new Uint8Array([0xab, 0xcd])] },
    extra: { msg: 'hi' },
  });
  const view = txView(stored(body));
  assert.equal(Object.keys(view), ['kind', 'ver', 'from', 'to', 'seq', 't', 'payload', 'call', 'txext', 'body', 'sig']);
  assert.is(view.kind, 'generic');
  assert.is(view.ver, 2);
  assert.is(view.from, up(FROM));
  assert.is(view.to, up(TO));
  assert.is(Number(view.seq), 7);
  assert.is(Number(view.t), T);
  assert.equal(view.payload, [
    { purpose: 'transfer', cur: 'SK', amount: 10n },
    { purpose: 'srcfee', cur: 'FTT', amount: 2n },
  ]);
  assert.equal(view.call, { function: 'set', args: [1, '0xABCD'] });
  assert.equal(view.txext, { msg: 'hi' });
  assert.is(view.body, up(body));
  const [sig] = view.sig as any[];
  assert.equal(sig.extra, { pubkey: up(PUB), timestamp: T });
  assert.match(sig.signature, /^[0-9A-F]{128,150}$/);
});

test('a notify has a sender and no receiver; the reference form lowercases only what is there', () => {
  const view = txView(stored(notifyBody({ from: FROM, seq: 1, timestamp: T, payload: [] })));
  assert.is(view.kind, 'notify');
  assert.is(view.from, up(FROM));
  assert.not.ok('to' in view);
  assert.not.ok('call' in view || 'txext' in view);
  const ref = withReferenceAddresses({ ...view });
  assert.is(ref.from, `0x${up(FROM).toLowerCase()}`);
  assert.not.ok('to' in ref);
});

test('a registration: the keys hash and time, and once registered its address in hex and text', () => {
  const body = registerBody({ publicKeys: [PUB], timestamp: T, nonce: 0n });
  const pending = txView(stored(body));
  assert.is(pending.kind, 'register');
  assert.match(pending.keysh as string, /^[0-9A-F]{64}$/);
  assert.is(Number(pending.t), T);
  assert.not.ok('address' in pending || 'extdata' in pending);
  const text = addressToText(FROM);
  const done = txView(stored(body), text);
  assert.is(done.address, up(FROM));
  assert.equal(done.extdata, { 'addr.txt': text, addr: up(FROM) });
  assert.equal(withReferenceAddresses({ ...done }), done, 'no from or to to rewrite');
});

test('a key change lists the new keys; a deploy is from and to its sender with the code size', () => {
  const other = publicKeyOf(generateSecretKey());
  const ch = txView(stored(chkeyBody({ from: FROM, seq: 3, timestamp: T, publicKeys: [PUB, other] })));
  assert.is(ch.kind, 'chkey');
  assert.is(ch.from, up(FROM));
  assert.equal(ch.keys, [up(PUB), up(other)]);
  assert.not.ok('to' in ch);
  const code = new Uint8Array([0x60, 0x80, 0x60, 0x40, 0x52]);
  const dep = txView(stored(deployBody({ from: FROM, seq: 4, timestamp: T, payload: [], code })));
  assert.is(dep.kind, 'deploy');
  assert.is(dep.from, up(FROM));
  assert.is(dep.to, up(FROM));
  assert.is(Number(dep.seq), 4);
  assert.equal(dep.txext, { vm: 'evm', code: 5 });
});

test('a signature without a time has none in its view', () => {
  const body = notifyBody({ from: FROM, seq: 1, timestamp: T, payload: [] });
  const bsig = encodeBsig(new Uint8Array(64).fill(7), encodeTlv(BSIG_TAG.pubkey, PUB));
  const view = txView(encodeTx({ body, sigs: [bsig] }));
  assert.equal(view.sig, [{ signature: '07'.repeat(64), extra: { pubkey: up(PUB) } }]);
});

test('an Ethereum transaction: kind ether, its keccak hash as 0x lowercase, its bytes as uppercase hex', () => {
  const raw = new Uint8Array([0x02, 0xf8, 0x01, 0x80, 0xaa]);
  const view = txView(raw);
  assert.equal(view, { kind: 'ether', ver: 2, hash: `0x${Buffer.from(keccak_256(raw)).toString('hex')}`, body: '02F80180AA' });
});

test.run();
