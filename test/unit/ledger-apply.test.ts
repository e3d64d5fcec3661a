// The block-time rules (ledger/apply.ts) called directly on a draft of the ledger: each
// outcome with the reference's reason, balances and fees to the unit, and a failed
// transaction that changes nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes } from '../../src/bytes.js';
import { makeAddress } from '../../src/codec/address.js';
import { feeCost } from '../../src/codec/fee.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { applyTx, BlockDraft, depositFees, MAX_WALLET_NUMBER, type ApplyContext } from '../../src/node/ledger/apply.js';
import { PURPOSE_GAS, PURPOSE_SRCFEE, PURPOSE_TRANSFER, TIMESTAMP_WINDOW_MS, type NodeTx } from '../../src/node/ledger/node-tx.js';
import { validateSubmission } from '../../src/node/ledger/validate.js';
import { admitted, alice, bob, CHAIN, context, hex, ledger, NOW, stranger } from '../helpers/ledger-fixtures.js';
import { chkey, fee, notify, pay, register, transfer } from '../helpers/node-helpers.js';

const FEE_ADDRESS = hex(makeAddress({ group: 10, block: CHAIN, wallet: 100 }));
const RATE = { base: 1n, baseextra: 64n, kb: 1000n };

function ctx(fees = new Map([['SK', RATE]])): ApplyContext {
  return { now: NOW, fees, allocAddress: (n) => makeAddress({ group: 10, block: CHAIN, wallet: n }) };
}

const send = (over: Partial<Parameters<typeof transfer>[0]> = {}, wallets = ledger()) =>
  admitted(transfer({ key: alice.key, from: alice.address, to: bob.address, seq: 6, t: NOW, payload: [pay(5)], ...over }), wallets);

function run(tx: NodeTx, wallets = ledger(), c = ctx(), allocLast = 2) {
  const draft = new BlockDraft(wallets, allocLast);
  return { draft, outcome: applyTx(draft, tx, c), wallets };
}

test('a transfer moves the amount, takes seq and t, and leaves the committed ledger alone', () => {
  const { draft, outcome, wallets } = run(send({}), ledger(), ctx(new Map()));
  assert.equal(outcome, { ok: true });
  const from = draft.read(hex(alice.address))!;
  assert.is(from.amount.get('SK'), 995n);
  assert.is(from.seq, 6n);
  assert.is(from.t, NOW);
  assert.is(draft.read(hex(bob.address))!.amount.get('SK'), 15n);
  assert.is(wallets.get(hex(alice.address))!.amount.get('SK'), 1000n, 'the draft works on copies');
});

test('order checks: a used seq is bad_seq, a timestamp not after the last is bad_timestamp, both change nothing', () => {
  for (const [over, reason] of [
    [{ seq: 5 }, 'bad_seq'],
    [{ seq: 4 }, 'bad_seq'],
    [{ t: NOW - 10_000 }, 'bad_timestamp'],
  ] as const) {
    const { draft, outcome } = run(send(over));
    assert.equal(outcome, { ok: false, reason }, JSON.stringify(over));
    assert.is(draft.changed.size, 0);
  }
  assert.equal(run(send({ seq: 6 })).outcome, { ok: true });
  assert.equal(run(send({ seq: 1000 })).outcome, { ok: true }, 'a seq may jump');
});

test('the window at block time: a transaction that aged out while pending is invalid_timestamp', () => {
  const tx = send();
  const later = { ...ctx(), now: NOW + TIMESTAMP_WINDOW_MS };
  assert.equal(run(tx, ledger(), later).outcome, { ok: false, reason: 'invalid_timestamp' });
  assert.equal(run(tx, ledger(), { ...later, now: NOW + TIMESTAMP_WINDOW_MS - 1 }).outcome, { ok: true });
});

test('the documented constants: |now - t| < 1 h (3 600 000 ms); purposes 0 transfer, 1 srcfee, 3 gas', () => {
  assert.is(TIMESTAMP_WINDOW_MS, 3_600_000);
  assert.equal([PURPOSE_TRANSFER, PURPOSE_SRCFEE, PURPOSE_GAS], [0, 1, 3]);
  const tx = send();
  assert.equal(run(tx, ledger(), { ...ctx(), now: NOW + 3_600_000 }).outcome, { ok: false, reason: 'invalid_timestamp' }, 'an hour later');
  assert.equal(run(tx, ledger(), { ...ctx(), now: NOW + 3_599_999 }).outcome, { ok: true }, 'a millisecond less');
});

test('balances: the whole balance may be spent, one unit more is insufficient_fund', () => {
  assert.equal(run(send({ payload: [pay(1000)] }), ledger(), ctx(new Map())).outcome, { ok: true });
  const { draft, outcome } = run(send({ payload: [pay(1001)] }), ledger(), ctx(new Map()));
  assert.equal(outcome, { ok: false, reason: 'insufficient_fund' });
  assert.is(draft.changed.size, 0);
  assert.equal(run(send({ payload: [pay(1, 'XYZ')] }), ledger(), ctx(new Map())).outcome, { ok: false, reason: 'insufficient_fund' });
});

test('a zero transfer creates neither the destination nor a currency entry', () => {
  const { draft, outcome } = run(send({ to: stranger.address, payload: [pay(0)] }), ledger(), ctx(new Map()));
  assert.equal(outcome, { ok: true });
  assert.is(draft.read(hex(stranger.address)), undefined);
  assert.ok(draft.read(hex(alice.address))!.amount.has('SK'));
  const moved = run(send({ to: stranger.address, payload: [pay(3)] }), ledger(), ctx(new Map()));
  assert.is(moved.draft.read(hex(stranger.address))!.amount.get('SK'), 3n);
  assert.is(moved.draft.read(hex(stranger.address))!.pubkey, null, 'a created wallet can receive only');
});

/** A transfer whose fee offer is exactly its own cost (the offer's size is part of the body). */
function exactFee(): { tx: NodeTx; cost: bigint } {
  let offer = 1n;
  for (;;) {
    const tx = send({ payload: [pay(5), fee(Number(offer))] });
    const cost = feeCost(tx.bodyLength, RATE);
    if (cost === offer) return { tx, cost };
    offer = cost;
  }
}

test('fees: the exact cost passes and is deposited once; one unit short, or an unknown currency, fails', () => {
  const offered = send({ payload: [pay(5), fee(1000)] });
  const cost = feeCost(offered.bodyLength, RATE);
  assert.ok(cost > 0n && cost < 1000n);
  const { outcome, draft } = run(offered);
  assert.equal(outcome, { ok: true });
  assert.is(draft.read(hex(alice.address))!.amount.get('SK'), 1000n - 5n - cost, 'the cost is charged, not the whole offer');
  assert.is(draft.feeTotals.get('SK'), cost);
  depositFees(draft, FEE_ADDRESS);
  assert.is(draft.read(FEE_ADDRESS)!.amount.get('SK'), cost);
  const exact = exactFee();
  assert.equal(run(exact.tx).outcome, { ok: true });
  const shortTx = send({ payload: [pay(5), fee(Number(exact.cost) - 1)] });
  assert.is(shortTx.bodyLength, exact.tx.bodyLength, 'one unit less, the same body length and cost');
  const short = run(shortTx);
  assert.equal(short.outcome, { ok: false, reason: 'insufficient_fee', cost: exact.cost });
  assert.is(short.draft.changed.size, 0, 'no fee taken from a failed transaction');
  assert.equal(run(send({ payload: [pay(5), fee(10, 'FEE')] })).outcome, { ok: false, reason: 'unsupported_fee_cur' });
  const none = new BlockDraft(ledger(), 2);
  depositFees(none, FEE_ADDRESS);
  assert.is(none.read(FEE_ADDRESS), undefined, 'no fees, no fee wallet');
});

test('notify pays its fee but moves nothing', () => {
  const tx = admitted(notify({ key: alice.key, from: alice.address, seq: 6, t: NOW, payload: [pay(500)] }));
  const { draft, outcome } = run(tx, ledger(), ctx(new Map()));
  assert.equal(outcome, { ok: true });
  assert.is(draft.read(hex(alice.address))!.amount.get('SK'), 1000n);
  assert.is(draft.read(hex(bob.address))!.amount.get('SK'), 10n);
});

test('chkey: the new key signs from then on; the old one is unverified', () => {
  const wallets = ledger();
  const change = admitted(chkey({ key: alice.key, from: alice.address, seq: 6, t: NOW - 1, newKey: stranger.key }), wallets);
  const draft = new BlockDraft(wallets, 2);
  assert.equal(applyTx(draft, change, ctx()), { ok: true });
  assert.equal(draft.read(hex(alice.address))!.pubkey, publicKeyOf(stranger.key));
  const old = send({ seq: 7 }, wallets);
  assert.equal(applyTx(draft, old, ctx(new Map())), { ok: false, reason: 'unverified' });
});

test('register: the next free number, skipping taken ones; the same key gets its wallet again; none past the last number', () => {
  const wallets = ledger();
  const tx = validateSubmission(base64ToBytes(register(stranger.key, NOW, 0)), context(wallets));
  tx.txid = 'r1';
  const draft = new BlockDraft(wallets, 0);
  const first = applyTx(draft, tx, ctx());
  assert.equal(first, { ok: true, address: makeAddress({ group: 10, block: CHAIN, wallet: 3 }) }, 'numbers 1 and 2 are taken');
  assert.is(draft.allocLast, 3);
  assert.equal(applyTx(draft, tx, ctx()), first, 'the same key, the same wallet');
  assert.is(draft.allocLast, 3);
  const full = new BlockDraft(wallets, MAX_WALLET_NUMBER);
  assert.equal(applyTx(full, tx, ctx()), { ok: false, reason: 'unallocable' });
});

test('an unknown sender at block time is no_src_addr_loaded', () => {
  const wallets = ledger();
  const tx = send({}, wallets);
  wallets.delete(hex(alice.address));
  assert.equal(run(tx, wallets).outcome, { ok: false, reason: 'no_src_addr_loaded' });
});

test('a chkey that fails its sender checks changes nothing: the old key stays', () => {
  const wallets = ledger();
  for (const [over, reason] of [
    [{ seq: 5 }, 'bad_seq'],
    [{ t: NOW - 10_000 }, 'bad_timestamp'],
  ] as const) {
    const change = admitted(chkey({ key: alice.key, from: alice.address, seq: 6, t: NOW, newKey: stranger.key, ...over }), wallets);
    const draft = new BlockDraft(wallets, 2);
    assert.equal(applyTx(draft, change, ctx()), { ok: false, reason });
    assert.is(draft.changed.size, 0);
    assert.equal(draft.read(hex(alice.address))!.pubkey, publicKeyOf(alice.key));
  }
});

test('a negative transfer amount is bad_amount and charges nothing', () => {
  const tx = send({ payload: [pay(5)] });
  if (tx.body.kind !== 'generic') throw new Error('a transfer');
  tx.body.payload[0].amount = -5n;
  const { draft, outcome } = run(tx, ledger(), ctx(new Map()));
  assert.equal(outcome, { ok: false, reason: 'bad_amount' });
  assert.is(draft.changed.size, 0);
});

test('a fee that costs nothing takes nothing and creates no currency entry, on the sender or the fee wallet', () => {
  const free = new Map([['FEE', { base: 0n, baseextra: 1_000_000n, kb: 0n }]]);
  const { draft, outcome } = run(send({ payload: [pay(5), fee(0, 'FEE')] }), ledger(), ctx(free));
  assert.equal(outcome, { ok: true });
  const from = draft.read(hex(alice.address))!;
  assert.equal([...from.amount], [['SK', 995n]]);
  depositFees(draft, FEE_ADDRESS);
  assert.equal([...(draft.read(FEE_ADDRESS)?.amount ?? new Map())], []);
});

test.run();
