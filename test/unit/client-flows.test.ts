// transfer, the contract transactions and registerWallet against a scripted node: the arguments
// each refuses at its edge before anything is asked, the seq and fee they put in the body, the
// fee bound at the rate's base and one past, gas bought at the node's rate rounded up, the
// register difficulty read from the settings (0 when the node has none), and what they return.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, TxFailedError, createClient, registerWallet, transfer } from '../../src/client/index.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { DEFAULT_MAX_FEE, boundedAutoFee, feeRates, optionalSettings } from '../../src/client/fee.js';
import { DEFAULT_MAX_DIFFICULTY } from '../../src/client/register-wallet.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeTx } from '../../src/codec/container.js';
import { addressFromText, addressToText, makeAddress } from '../../src/codec/address.js';
import { encodeTxid } from '../../src/codec/txid.js';
import { closeSharedMinerPool } from '../../src/pow/pool.node.js';
import { estimateMining } from '../../src/pow/estimate.js';
import { rejection, thrownError } from '../helpers/helpers.js';

const FROM = addressToText(makeAddress({ group: 10, block: 1, wallet: 7 }));
const TO = addressToText(makeAddress({ group: 10, block: 1, wallet: 8 }));
const TXID = encodeTxid({ chain: 1, height: 5, timeNs: 1_700_000_000_000_000_000n, node: 'tpkit' });
const KEY = '11'.repeat(32);

interface NodeScript {
  seq?: number;
  fee?: unknown;
  gas?: unknown;
  register?: unknown;
  status?: unknown;
}

/** A node answering from `script` (settings 404 where the script has none); records every request. */
function node(script: NodeScript) {
  const calls: string[] = [];
  const reply = (body: unknown, status = 200) =>
    new Response(
      JSON.stringify(body, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
      { status, headers: { 'content-type': 'application/json' } },
    );
  const settings = (value: unknown) => (value === undefined ? reply({ ok: false, msg: 'Not found' }, 404) : reply({ ok: true, settings: value }));
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push(`${init.method} ${url.pathname}`);
    if (url.pathname.endsWith('/seq')) return reply({ ok: true, seq: script.seq ?? 0 });
    if (url.pathname === '/api/settings/current/fee') return settings(script.fee);
    if (url.pathname === '/api/settings/current/gas') return settings(script.gas);
    if (url.pathname === '/api/settings/current/register') return settings(script.register);
    if (url.pathname === '/api/tx/new') return reply({ ok: true, txid: TXID });
    if (url.pathname.startsWith('/api/tx/status/')) return reply({ ok: true, res: script.status ?? { ok: true, res: 'ok', block: 'B1' } });
    return reply({ ok: false }, 500);
  }) as typeof globalThis.fetch;
  return { client: createClient({ baseUrl: 'http://127.0.0.1:43280', fetch }), calls };
}

const payloadOf = (tx: Uint8Array) => decodeBody(decodeTx(tx).body) as unknown as { seq: bigint; payload: { purpose: string; currency: string; amount: bigint }[]; extra?: Record<string, unknown> };

test('transfer refuses an amount below 1, a fee or maxFee below 0, an empty currency, before the node is asked', async () => {
  const { client, calls } = node({});
  const base = { client, secretKey: KEY, from: FROM, to: TO, currency: 'SK', amount: 1n, wait: false } as const;
  for (const more of [{ amount: 0n }, { amount: -1n }, { amount: 1 as never }, { fee: -1n }, { fee: 'some' as never }, { maxFee: -1n }, { maxFee: 5 as never }, { currency: '' }]) {
    assert.is(
      (await rejection(transfer({ ...base, ...more }))).code,
      'INVALID_ARGUMENT',
      JSON.stringify(more, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
  }
  assert.equal(calls, []);
  const sent = await transfer({ ...base, maxFee: 0n });
  assert.is(sent.fee, 0n, 'a node without fees: maxFee 0 is enough');
  assert.equal(
    payloadOf(sent.tx).payload.map((p) => [p.purpose, p.amount]),
    [['transfer', 1n]],
  );
});

test("transfer: the seq is the node's + 1 unless given; a fee given is paid in the currency asked or the one sent; 0n pays none", async () => {
  const { client, calls } = node({ seq: 41 });
  const stages: string[] = [];
  const plans: unknown[] = [];
  const sent = await transfer({
    client,
    secretKey: KEY,
    from: FROM,
    to: TO,
    currency: 'FTT',
    amount: 9n,
    fee: 5n,
    message: 'rent',
    timestamp: 1_700_000_000_000,
    onStage: (s) => stages.push(s),
    beforeSigning: (p) => void plans.push(p),
  });
  assert.equal([sent.seq, sent.fee, sent.feeCurrency, sent.txid], [42n, 5n, 'FTT', TXID]);
  const body = payloadOf(sent.tx);
  assert.is(body.seq, 42n);
  assert.equal(
    body.payload.map((p) => [p.purpose, p.currency, p.amount]),
    [
      ['transfer', 'FTT', 9n],
      ['srcfee', 'FTT', 5n],
    ],
  );
  assert.equal(body.extra, { msg: 'rent' });
  assert.equal(plans, [{ seq: 42n, fee: 5n, feeCurrency: 'FTT' }]);
  assert.equal(stages, ['preparing', 'submitting', 'waiting']);
  assert.is(sent.status!.ok, true);
  assert.ok(calls.some((c) => c.startsWith('GET /api/tx/status/')));

  const other = await transfer({ client, secretKey: KEY, from: FROM, to: TO, currency: 'FTT', amount: 9n, fee: 5n, feeCurrency: 'SK', seq: 7n, wait: false });
  assert.equal([other.seq, other.feeCurrency, other.status], [7n, 'SK', undefined]);
  const none = await transfer({ client, secretKey: KEY, from: FROM, to: TO, currency: 'SK', amount: 9n, fee: 0n, wait: false, beforeSigning: (p) => void plans.push(p) });
  assert.equal([none.fee, none.feeCurrency], [0n, undefined]);
  assert.equal(plans.at(-1), { seq: 42n, fee: 0n });
  assert.not.ok('feeCurrency' in (plans.at(-1) as object));
});

test("transfer: a failed result is TxFailedError with the node's reason; a throwing beforeSigning sends nothing", async () => {
  const failed = await rejection(transfer({ client: node({ status: { error: true, res: 'insufficient_fund' } }).client, secretKey: KEY, from: FROM, to: TO, currency: 'SK', amount: 9n }));
  assert.instance(failed, TxFailedError);
  assert.is((failed as TxFailedError).reason, 'insufficient_fund');
  const { client, calls } = node({});
  const stopped = await rejection(transfer({ client, secretKey: KEY, from: FROM, to: TO, currency: 'SK', amount: 9n, beforeSigning: () => Promise.reject(new TxFailedError('x', 'balance too low')) }));
  assert.is(stopped.code, 'TX_FAILED');
  assert.not.ok(calls.includes('POST /api/tx/new'));
});

test('the fee bound: a base of exactly maxFee is paid, one past it is refused on the base alone (even one no body could carry)', () => {
  const encode = () => new Uint8Array(100);
  const flat = (base: bigint) => ({ base, baseextra: 1000n, kb: 0n });
  assert.is(boundedAutoFee(encode, [], 'SK', flat(500n), 500n), 500n);
  const over = thrownError(() => boundedAutoFee(encode, [], 'SK', flat(501n), 500n));
  assert.is(over.code, 'FEE_TOO_HIGH');
  assert.is(over.details, '501 SK or more, maxFee 500; nothing signed');
  assert.is(over.field, 'current.fee');
  let encoded = 0;
  const counting = () => (encoded++, new Uint8Array(100));
  assert.is(thrownError(() => boundedAutoFee(counting, [], 'SK', flat(2n ** 70n), DEFAULT_MAX_FEE)).code, 'FEE_TOO_HIGH');
  assert.is(encoded, 0, 'refused before any body is built');
  // The amount the body needs, past maxFee by one, is refused too.
  const sized = { base: 1n, baseextra: 0n, kb: 1024n };
  assert.is(boundedAutoFee(encode, [], 'SK', sized, 69n), 69n);
  assert.is(thrownError(() => boundedAutoFee(encode, [], 'SK', sized, 68n)).details, '69 SK or more, maxFee 68; nothing signed');
  assert.is(DEFAULT_MAX_FEE, 10n ** 12n);
});

test('fee rates: entries without a base or not objects are skipped; baseextra and kb default to 0', async () => {
  const rates = feeRates({ SK: { base: 2 }, A: 5, B: null, C: { kb: 3 }, params: { base: 1 } });
  assert.equal([...rates.entries()], [['SK', { base: 2n, baseextra: 0n, kb: 0n }]]);
  assert.equal([...feeRates('SK').entries()], []);
  const err = thrownError(() => (void 0, require_fee_currency(rates)));
  assert.is(err.details, '"XYZ" has no rate in current.fee (rates: SK)');
  const { client } = node({});
  assert.is(await optionalSettings(client, 'current/fee', undefined), undefined);
});

import { chooseFeeCurrency } from '../../src/client/fee.js';
function require_fee_currency(rates: ReturnType<typeof feeRates>) {
  return chooseFeeCurrency(rates, 'SK', 'XYZ');
}

test("contract transactions: gas bought at the node's rate, rounded up; SK preferred; a value adds a transfer; arguments checked first", async () => {
  const { client, calls } = node({ seq: 2, gas: { FTT: { tokens: 3, gas: 1000 }, SK: { tokens: 1, gas: 7 }, BAD: { tokens: 0, gas: 5 }, NUM: 4 } });
  const base = { client, secretKey: KEY, from: FROM, to: TO, data: '0xa9059cbb', wait: false } as const;
  const sk = await sendContractCall({ ...base, gas: 15n, fee: 0n });
  assert.equal([sk.gasCurrency, sk.gasOffered, sk.seq], ['SK', 3n, 3n], '15 gas at 7 a token: 3 tokens, rounded up');
  assert.equal(
    payloadOf(sk.tx).payload.map((p) => [p.purpose, p.currency, p.amount]),
    [['gas', 'SK', 3n]],
    'no value, no transfer item',
  );
  const ftt = await sendContractCall({ ...base, gas: 1000n, gasCurrency: 'FTT', value: 5n, fee: 0n });
  assert.equal([ftt.gasCurrency, ftt.gasOffered], ['FTT', 3n]);
  assert.equal(
    payloadOf(ftt.tx).payload.map((p) => [p.purpose, p.currency, p.amount]),
    [
      ['transfer', 'SK', 5n],
      ['gas', 'FTT', 3n],
    ],
  );
  const exact = await sendContractCall({ ...base, gas: 1001n, gasCurrency: 'FTT', fee: 0n });
  assert.is(exact.gasOffered, 4n, 'one gas past a whole token is a token more');
  const num = await sendContractCall({ ...base, gas: 9n, gasCurrency: 'NUM', fee: 0n });
  assert.is(num.gasOffered, 3n, 'a bare number is gas per token');
  assert.is((await sendContractCall({ ...base, fee: 0n })).gasOffered, 1_428_572n, 'default gas 10^7');
  const unknown = await rejection(sendContractCall({ ...base, gasCurrency: 'BAD', fee: 0n }));
  assert.is(unknown.code, 'FEE_UNKNOWN');
  assert.is(unknown.details, 'current.gas has FTT, SK, NUM; asked for BAD');
  const before = calls.length;
  for (const more of [{ gas: 0n }, { value: -1n }, { fee: -1n }, { maxFee: -1n }]) assert.is((await rejection(sendContractCall({ ...base, ...more }))).code, 'INVALID_ARGUMENT');
  assert.is(calls.length, before, 'refused before the node is asked');
  const withFee = await sendContractCall({ ...base, gas: 7n, fee: 11n });
  assert.equal([withFee.fee, withFee.feeCurrency], [11n, 'SK']);
  const unit = await sendContractCall({ ...base, client: node({ gas: { SK: 1 } }).client, fee: 0n });
  assert.is(unit.gasOffered, 10_000_000n, 'the default gas is 10^7');
  const noGas = await rejection(sendContractCall({ ...base, client: node({}).client, fee: 0n }));
  assert.is(noGas.details, 'current.gas has no rates');
  // A rate of 0 gas (bare or as an object) buys nothing: it is no rate, never a division by zero.
  const zeroRates = await rejection(sendContractCall({ ...base, client: node({ gas: { ZERO: 0, NOGAS: { tokens: 1, gas: 0 }, SK: 2 } }).client, gasCurrency: 'NOGAS', fee: 0n }));
  assert.is(zeroRates.code, 'FEE_UNKNOWN');
  assert.is(zeroRates.details, 'current.gas has SK; asked for NOGAS');
  // maxFee 0 is a bound like any other: no fee settings, nothing to pay, nothing refused.
  assert.is((await sendContractCall({ ...base, gas: 7n, maxFee: 0n })).fee, 0n);
  // The sender as 8 bytes, as the address codec gives it.
  const fromBytes = await sendContractCall({ ...base, from: addressFromText(FROM), fee: 0n });
  assert.is(fromBytes.seq, 3n);
});

test("a contract call that reverts is TxFailedError with the revert; a deploy is at the sender's address; returned data comes back as bytes", async () => {
  const reverted = await rejection(
    sendContractCall({ client: node({ gas: { SK: 1 }, status: { ok: false, res: 'revert', revert: 'Error(no)' } }).client, secretKey: KEY, from: FROM, to: TO, data: '0x', fee: 0n }),
  );
  assert.is((reverted as TxFailedError).reason, 'revert: Error(no)');
  const plain = await rejection(sendContractCall({ client: node({ gas: { SK: 1 }, status: { ok: false, res: 'bad_seq' } }).client, secretKey: KEY, from: FROM, to: TO, data: '0x', fee: 0n }));
  assert.is((plain as TxFailedError).reason, 'bad_seq');
  const called = await sendContractCall({ client: node({ gas: { SK: 1 }, status: { ok: true, res: 'ok', retval: '0x0102' } }).client, secretKey: KEY, from: FROM, to: TO, data: '0x', fee: 0n });
  assert.equal([...called.returnData!], [1, 2]);
  const deployed = await deployContract({ client: node({ gas: { SK: 1 } }).client, secretKey: KEY, from: '0x8001400001000007', code: '0x6000', fee: 0n, wait: false });
  assert.is(deployed.address, FROM);
});

test('registerWallet: difficulty 0 when the node has no register settings; a diff of 0 to 512 is a difficulty, -1 and 513 are not', async () => {
  assert.is(DEFAULT_MAX_DIFFICULTY, 28);
  try {
    const free = node({ status: { ok: true, res: 'AA100000001677722412', block: 'B9' } });
    const stages: unknown[] = [];
    const done = await registerWallet({ client: free.client, secretKeys: KEY, threads: 1, onStage: (s, d) => stages.push(d === undefined ? s : `${s} ${d}`) });
    assert.equal([done.address, done.difficulty, done.block, done.txid], ['AA100000001677722412', 0, 'B9', TXID]);
    assert.equal(stages, ['settings', 'mining 0', 'submitting', 'waiting']);
    for (const diff of [-1, 513, 'x', 1.5]) {
      const err = await rejection(registerWallet({ client: node({ register: { diff } }).client, secretKeys: KEY, maxDifficulty: 64 }));
      assert.is(err.code, 'BAD_RESPONSE', String(diff));
      assert.is(err.field, 'current.register.diff');
    }
    const high = await rejection(registerWallet({ client: node({ register: { diff: 512 } }).client, secretKeys: KEY, maxDifficulty: 64 }));
    assert.is(high.code, 'DIFFICULTY_TOO_HIGH', '512 is a difficulty, only too high');
    assert.match(high.message, /512 bits, maxDifficulty 64: .* h\) at 10 MH\/s$/);
    const quick = await rejection(registerWallet({ client: node({ register: { diff: 29 } }).client, secretKeys: KEY, hashRate: 1e9 }));
    assert.match(quick.message, /^The node asks for more proof of work than allowed: 29 bits, maxDifficulty 28: a median of 0 s \(95 % within 2 s\) at 1000 MH\/s$/);
    // A median of exactly one hour is said in hours.
    const hourly = (estimateMining(29, 1).hashes.median * 1000) / 3.6e6;
    assert.is(estimateMining(29, hourly).medianMs, 3.6e6);
    const hour = await rejection(registerWallet({ client: node({ register: { diff: 29 } }).client, secretKeys: KEY, hashRate: hourly }));
    assert.match(hour.message, /a median of 1\.0 h \(95 % within 4\.3 h\)/);
    const zero = await registerWallet({ client: node({ register: { diff: 0 }, status: { ok: true, res: 'ok', address: 'AA100000001677722412' } }).client, secretKeys: [KEY], threads: 1 });
    assert.equal([zero.difficulty, zero.address, zero.block], [0, 'AA100000001677722412', undefined]);
    // Register settings that name no diff ask for no proof of work either.
    for (const register of [{}, { other: 3 }]) {
      const named = node({ register, status: { ok: true, res: 'AA100000001677722412' } });
      const seen: unknown[] = [];
      const unnamed = await registerWallet({ client: named.client, secretKeys: KEY, threads: 1, onStage: (s, d) => seen.push(d === undefined ? s : `${s} ${d}`) });
      assert.is(unnamed.difficulty, 0, JSON.stringify(register));
      assert.equal(seen, ['settings', 'mining 0', 'submitting', 'waiting']);
    }
    // The bounds themselves: maxDifficulty 0 is allowed, a difficulty equal to maxDifficulty is
    // mined, any positive hash rate (below 1 too) is a rate, and a key is named by its place.
    assert.is((await registerWallet({ client: free.client, secretKeys: KEY, threads: 1, maxDifficulty: 0 })).difficulty, 0);
    const atMax = await registerWallet({ client: node({ register: { diff: 1 }, status: { ok: true, res: 'AA100000001677722412' } }).client, secretKeys: KEY, threads: 1, maxDifficulty: 1 });
    assert.is(atMax.difficulty, 1);
    assert.ok(atMax.mined.bits >= 1);
    const slow = await rejection(registerWallet({ client: node({ register: { diff: 2 } }).client, secretKeys: KEY, maxDifficulty: 1, hashRate: 0.5 }));
    assert.match(slow.message, /2 bits, maxDifficulty 1: .* at 5e-7 MH\/s$/);
    assert.is((await rejection(registerWallet({ client: free.client, secretKeys: [KEY, '00'.repeat(32)] }))).message, '"secretKeys[1]" is not a secp256k1 secret key: expected 1 <= key < curve order');
    assert.is((await rejection(registerWallet({ client: free.client, secretKeys: '00'.repeat(32) }))).message, '"secretKeys" is not a secp256k1 secret key: expected 1 <= key < curve order');
    const insecure = await rejection(
      registerWallet({ client: createClient({ baseUrl: 'http://node.example:43280', fetch: (() => Promise.reject(new Error('no request expected'))) as typeof globalThis.fetch }), secretKeys: KEY }),
    );
    assert.is(insecure.code, 'INSECURE_TRANSPORT', 'a registration is a transaction: refused over plain HTTP before any request');
    for (const maxDifficulty of [-1, 65, 2.5]) assert.is((await rejection(registerWallet({ client: free.client, secretKeys: KEY, maxDifficulty }))).code, 'INVALID_ARGUMENT', String(maxDifficulty));
    for (const hashRate of [0, -1, Infinity]) assert.is((await rejection(registerWallet({ client: free.client, secretKeys: KEY, hashRate }))).code, 'INVALID_ARGUMENT', String(hashRate));
    assert.is((await rejection(registerWallet({ client: free.client, secretKeys: [] }))).code, 'INVALID_ARGUMENT');
    const failed = await rejection(registerWallet({ client: node({ status: { error: true, res: 'bad_pow' } }).client, secretKeys: KEY, threads: 1 }));
    assert.is((failed as TxFailedError).reason, 'bad_pow');
    const noAddress = await rejection(registerWallet({ client: node({ status: { ok: true, res: 'ok' } }).client, secretKeys: KEY, threads: 1 }));
    assert.is(noAddress.code, 'BAD_RESPONSE');
    assert.is(noAddress.details, `${TXID}: "ok"`);
    const broken = await rejection(registerWallet({ client: node({ register: undefined }).client, secretKeys: KEY, threads: 1, pool: undefined, signal: AbortSignal.abort() }));
    assert.is(broken.code, 'ABORTED');
  } finally {
    await closeSharedMinerPool();
  }
});

test("optionalSettings: a 404 is no settings, any other refusal is the node's", async () => {
  const fetch = (async () => new Response('{"ok":false}', { status: 503 })) as unknown as typeof globalThis.fetch;
  const err = await rejection(optionalSettings(createClient({ baseUrl: 'http://h', fetch }), 'current/fee', undefined));
  assert.instance(err, ApiError);
});

test.run();
