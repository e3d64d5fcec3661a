// The client against scripted answers: exact integers, every kind of failure as a typed
// error, the HTTPS rule, status shapes and the fee amount search (its waits: client-polling.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, NetworkError, TxFailedError, UnknownTxError, autoFee, chooseFeeCurrency, createClient, feeRates, transfer } from '../../src/client/index.js';
import { isLoopbackHost } from '../../src/client/transport-policy.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeTx } from '../../src/codec/container.js';
import { feeCost } from '../../src/codec/fee.js';
import { makeAddress } from '../../src/codec/address.js';
import { mulberry32, rejection, thrownError } from '../helpers/helpers.js';

import { ADDR, OTHER, TX, TXID, json, never, scripted } from '../helpers/scripted-client.js';

test('createClient rejects what is not an http(s) URL, a fetch or a positive timeout', () => {
  assert.is(thrownError(() => createClient({ baseUrl: 'not a url' })).code, 'INVALID_ARGUMENT');
  assert.is(thrownError(() => createClient({ baseUrl: 'ftp://host/' })).code, 'INVALID_ARGUMENT');
  assert.is(thrownError(() => createClient({ baseUrl: 'http://h', fetch: 5 as any })).code, 'INVALID_ARGUMENT');
  assert.is(thrownError(() => createClient({ baseUrl: 'http://h', timeoutMs: 0 })).code, 'INVALID_ARGUMENT');
  assert.is(thrownError(() => createClient(null as any)).code, 'INVALID_ARGUMENT');
});

test('balances and seqs beyond 2^53 come back exact', async () => {
  const big = '18446744073709551617';
  const { client, calls } = scripted(() =>
    json(
      `{"result":"ok","info":{"amount":{"SK":${big},"FTT":5},"seq":9007199254740993,"t":1700000000000,"lastblk":"AB","preblk":"CD","pubkey":"02"},"address":"0x8001400001000007","txtaddress":"${ADDR}","ok":true}`,
    ),
  );
  const info = await client.getAddress(ADDR, { pubkey: 'pem' });
  assert.is(info.amount.SK, 18446744073709551617n);
  assert.is(info.amount.FTT, 5n);
  assert.is(info.seq, 9007199254740993n);
  assert.is(info.t, 1700000000000);
  assert.is(info.address, ADDR);
  assert.is(calls[0].url, `http://127.0.0.1:43280/api/address/${ADDR}?pubkey=pem`);
});

test('addresses given as 0x hex or bytes are sent in text form; bad ones never reach the network', async () => {
  const { client, calls } = scripted(() => json('{"result":"ok","seq":3,"ok":true}'));
  assert.is(await client.getSeq('0x8001400001000007'), 3n);
  assert.is(await client.getSeq(makeAddress({ group: 10, block: 1, wallet: 7 })), 3n);
  assert.ok(calls.every((c) => c.url.endsWith(`/api/address/${ADDR}/seq`)));
  assert.is((await rejection(client.getSeq('AA100000001677722413'))).code, 'ADDRESS_CHECKSUM');
  assert.is((await rejection(client.getAddress(new Uint8Array(7)))).code, 'INVALID_ARGUMENT');
  assert.is((await rejection(client.getTxStatus('no-dash-here!'))).code, 'TXID_INVALID');
  assert.is(calls.length, 2);
});

test('a base URL path prefix is kept and settings paths accept dots or slashes', async () => {
  const { client, calls } = scripted(() => json('{"result":"ok","settings":{"diff":12},"ok":true}'), { baseUrl: 'https://gw.example/node7/?x=1#y' });
  assert.equal(await client.getSettings('current.register'), { diff: 12 });
  await client.getSettings('current/register');
  await client.getSettings();
  assert.equal(
    calls.map((c) => c.url),
    ['https://gw.example/node7/api/settings/current/register', 'https://gw.example/node7/api/settings/current/register', 'https://gw.example/node7/api/settings'],
  );
});

test('node errors become ApiError with the status, numeric code, message and tpkit name', async () => {
  const { client } = scripted(() => json('{"ok":false,"result":"not_found","code":10003,"msg":"Not found","error":"WALLET_NOT_FOUND","details":"no wallet"}', 404));
  const err = await rejection(client.getAddress(ADDR));
  assert.instance(err, ApiError);
  const api = err as ApiError;
  assert.is(api.code, 'API_ERROR');
  assert.is(api.status, 404);
  assert.is(api.apiCode, 10003);
  assert.is(api.nodeError, 'WALLET_NOT_FOUND');
  assert.match(api.apiMessage, /^Not found \(no wallet\)$/);
  assert.match(api.message, /GET \/api\/address\/.*HTTP 404 code 10003/);
});

test('an ok:false answer with status 200, and a non-JSON error page, are ApiErrors too', async () => {
  const a = await rejection(scripted(() => json('{"ok":false,"msg":"nope"}')).client.nodeStatus());
  assert.is((a as ApiError).status, 200);
  assert.is((a as ApiError).apiMessage, 'nope');
  const b = await rejection(scripted(() => new Response('<html>Bad Gateway</html>', { status: 502 })).client.nodeStatus());
  assert.is(b.code, 'API_ERROR');
  assert.is((b as ApiError).status, 502);
  assert.match((b as ApiError).apiMessage, /Bad Gateway/);
});

test('a wallet that has not sent anything yet (no seq, t, blocks, key or amounts in its answer) reads as seq 0, t 0, empty fields', async () => {
  const { client } = scripted(() => json(`{"ok":true,"txtaddress":"${ADDR}","info":{}}`));
  const info = await client.getAddress(ADDR);
  assert.equal([info.address, info.seq, info.t, info.lastblk, info.preblk, info.pubkey, info.amount], [ADDR, 0n, 0, '', '', '', {}]);
});

test('answers that are not the specified JSON give BAD_RESPONSE naming the field', async () => {
  assert.is((await rejection(scripted(() => json('<html>')).client.nodeStatus())).code, 'BAD_RESPONSE');
  assert.is((await rejection(scripted(() => json('[1,2]')).client.nodeStatus())).code, 'BAD_RESPONSE');
  const missing = await rejection(scripted(() => json('{"ok":true,"txtaddress":"x"}')).client.getAddress(ADDR));
  assert.is(missing.code, 'BAD_RESPONSE');
  assert.is(missing.field, 'info');
  const badSeq = await rejection(scripted(() => json('{"ok":true,"seq":1.5}')).client.getSeq(ADDR));
  assert.is(badSeq.field, 'seq');
  const noTxid = await rejection(scripted(() => json('{"ok":true,"result":"ok"}')).client.submitTx(TX));
  assert.is(noTxid.field, 'txid');
});

test('an unreachable node is NETWORK_ERROR, a silent one TIMEOUT, a caller abort ABORTED', async () => {
  const refused = scripted(() => {
    throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:43280') });
  });
  const net = await rejection(refused.client.nodeStatus());
  assert.is(net.code, 'NETWORK_ERROR');
  assert.match(net.message, /ECONNREFUSED/);
  const slow = scripted(never, { timeoutMs: 50 });
  const timeout = await rejection(slow.client.nodeStatus());
  assert.is(timeout.code, 'TIMEOUT');
  const controller = new AbortController();
  const pending = rejection(scripted(never).client.nodeStatus({ signal: controller.signal }));
  setTimeout(() => controller.abort(), 20);
  assert.is((await pending).code, 'ABORTED');
  controller.abort();
  assert.is((await rejection(scripted(() => json('{}')).client.nodeStatus({ signal: controller.signal }))).code, 'ABORTED');
});

test('loopback hosts are recognised; nothing else is', () => {
  for (const host of ['localhost', 'LOCALHOST', 'wallet.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) assert.ok(isLoopbackHost(host), host);
  for (const host of ['example.com', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '0.0.0.0', '[::2]', '127.0.0.1.nip.io', '1270.0.0.1', '127.1000.0.1', '127.0.1000.1', '127.0.0.1000', '127.0.0'])
    assert.not.ok(isLoopbackHost(host), host);
});

test('transactions refuse plain HTTP to another host unless allowInsecure, before any request', async () => {
  const ok = () => json('{"result":"ok","txid":"T-x","ok":true}');
  const remote = scripted(ok, { baseUrl: 'http://node.example:43280' });
  const err = await rejection(remote.client.submitTx(TX));
  assert.is(err.code, 'INSECURE_TRANSPORT');
  assert.match(err.message, /https:\/\/|allowInsecure/);
  assert.is(remote.calls.length, 0);
  // reads stay allowed over HTTP
  await remote.client.getSettings().catch(() => undefined);
  assert.is(remote.calls.length, 1);
  assert.is(await scripted(ok, { baseUrl: 'http://node.example', allowInsecure: true }).client.submitTx(TX), 'T-x');
  assert.is(await scripted(ok, { baseUrl: 'https://node.example' }).client.submitTx(TX), 'T-x');
  const local = scripted(ok, { baseUrl: 'http://localhost:1' });
  assert.is(await local.client.submitTx('gaN2ZXIC'), 'T-x');
  assert.equal(JSON.parse(String(local.calls[0].init.body)), { tx: 'gaN2ZXIC' });
  assert.is(local.calls[0].init.method, 'POST');
});

test('status reads res or Res; null until included; failures carry the reason', async () => {
  const answers = [
    '{"res":null,"Res":null,"ok":true}',
    '{"Res":{"ok":true,"res":"ok","block":"ABCD"},"ok":true}',
    `{"res":{"ok":true,"res":"${ADDR}","address":"${ADDR}","block":"EF"},"ok":true}`,
    '{"res":{"error":true,"res":"bad_seq"},"ok":true}',
  ];
  const { client } = scripted(() => json(answers.shift()!));
  assert.is(await client.getTxStatus(TXID), null);
  const included = await client.getTxStatus(TXID);
  assert.ok(included?.ok);
  assert.is(included?.ok && included.block, 'ABCD');
  const registered = await client.getTxStatus(TXID);
  assert.is(registered?.ok && registered.address, ADDR);
  const failed = await client.getTxStatus(TXID);
  assert.equal(failed && !failed.ok && failed.reason, 'bad_seq');
});

test('a txid the node says it never saw is UnknownTxError (TX_NOT_FOUND, with the txid); another 404 stays an ApiError', async () => {
  const unknown = scripted(() => json('{"ok":false,"code":10007,"msg":"Transaction not found","error":"TX_NOT_FOUND"}', 404));
  const err = await rejection(unknown.client.getTxStatus(TXID));
  assert.instance(err, UnknownTxError);
  assert.is(err.code, 'TX_NOT_FOUND');
  assert.is((err as UnknownTxError).txid, TXID);
  const other = await rejection(scripted(() => json('{"ok":false,"code":10001,"msg":"No such endpoint","error":"ROUTE_NOT_FOUND"}', 404)).client.getTxStatus(TXID));
  assert.instance(other, ApiError);
  assert.not.instance(other, UnknownTxError);
});

test('a block answer without its block object is BAD_RESPONSE naming the path', async () => {
  const err = await rejection(scripted(() => json('{"ok":true}')).client.getBlock(5));
  assert.is(err.code, 'BAD_RESPONSE');
  assert.match(err.message, /no block/);
  assert.match(err.message, /\/api\/blockn\/5/);
  assert.equal(await scripted(() => json('{"ok":true,"block":{"hash":"AB"}}')).client.getBlock('last'), { hash: 'AB' });
});

test('fee rates come from current.fee; the fee currency is chosen as documented', () => {
  const rates = feeRates({ params: { feeaddr: '80', notip: 1 }, SK: { base: 1, baseextra: 64, kb: 1000 }, FTT: { base: '5', baseextra: 0, kb: 9007199254740993n } });
  assert.equal([...rates.keys()], ['SK', 'FTT']);
  assert.is(rates.get('FTT')!.kb, 9007199254740993n);
  assert.is(chooseFeeCurrency(rates, 'FTT'), 'FTT');
  assert.is(chooseFeeCurrency(rates, 'XYZ'), 'SK');
  assert.is(chooseFeeCurrency(rates, 'SK', 'FTT'), 'FTT');
  assert.is(thrownError(() => chooseFeeCurrency(rates, 'SK', 'XYZ')).code, 'FEE_UNKNOWN');
  assert.is(chooseFeeCurrency(feeRates(undefined), 'SK'), undefined);
});

test('a node without fee settings (current.fee answers 404) charges none: no srcfee item; any other failure there stops the transfer', async () => {
  const node = (feeStatus: number) =>
    scripted((url) => {
      if (url.pathname === '/api/settings/current/fee') return json(JSON.stringify({ ok: false, code: 10010, msg: 'No such endpoint' }), feeStatus);
      if (url.pathname.endsWith('/seq')) return json('{"ok":true,"result":"ok","seq":0}');
      if (url.pathname === '/api/tx/new') return json(JSON.stringify({ ok: true, result: 'ok', txid: TXID }));
      return json('{"ok":false}', 500);
    });
  const send = (client: ReturnType<typeof createClient>) => transfer({ client, secretKey: '11'.repeat(32), from: ADDR, to: OTHER, currency: 'SK', amount: 10n, wait: false });
  const free = node(404);
  const sent = await send(free.client);
  assert.is(sent.fee, 0n);
  assert.is(sent.feeCurrency, undefined);
  const body = decodeBody(decodeTx(sent.tx).body) as unknown as { payload: { purpose: string }[] };
  assert.equal(
    body.payload.map((p) => p.purpose),
    ['transfer'],
  );
  for (const status of [500, 405]) {
    const broken = node(status);
    const err = await rejection(send(broken.client));
    assert.instance(err, ApiError);
    assert.is((err as ApiError).status, status);
    assert.not.ok(
      broken.calls.some((c) => c.url.endsWith('/api/tx/new')),
      `${status}: nothing sent`,
    );
  }
});

test('a WebSocket that cannot even be constructed (a bad URL, a page policy) is NETWORK_ERROR naming the stream and the cause', async () => {
  const client = createClient({ baseUrl: 'http://127.0.0.1:43280' });
  class Refused {
    constructor() {
      throw new Error('blocked by policy');
    }
  }
  const err = await rejection(client.watchBlocks(() => {}, { WebSocket: Refused as never }));
  assert.instance(err, NetworkError);
  assert.is(err.message, 'Node unreachable: cannot open ws://127.0.0.1:43280/api/ws: blocked by policy');
  assert.is((err.cause as Error).message, 'blocked by policy');
});

test('autoFee is the smallest srcfee amount that covers the body carrying it', () => {
  const rnd = mulberry32(7);
  const from = makeAddress({ group: 10, block: 1, wallet: 1 });
  const to = makeAddress({ group: 10, block: 1, wallet: 2 });
  for (let i = 0; i < 200; i++) {
    const rate = { base: BigInt(Math.floor(rnd() * 300)), baseextra: BigInt(Math.floor(rnd() * 120)), kb: BigInt(Math.floor(rnd() * 2 ** (rnd() * 40))) };
    const input = {
      from,
      to,
      seq: BigInt(i + 1),
      timestamp: 1_700_000_000_000 + i,
      payload: [{ purpose: 'transfer' as const, currency: 'SK', amount: BigInt(i) * 1000n + 1n }],
      extra: i % 2 ? { msg: 'x'.repeat(i) } : undefined,
    };
    const fee = autoFee(input, 'SK', rate);
    const withFee = (amount: bigint) => genericBody({ ...input, payload: [...input.payload, { purpose: 'srcfee', currency: 'SK', amount }] });
    const body = withFee(fee);
    assert.ok(feeCost(body.length, rate) <= fee, `covers: rate ${JSON.stringify(rate, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
    if (fee > rate.base) assert.ok(feeCost(withFee(fee - 1n).length, rate) > fee - 1n, 'one less would not cover');
    const decoded = decodeBody(body);
    assert.is(decoded.kind, 'generic');
  }
});

test('TxFailedError carries the txid and reason', () => {
  const err = new TxFailedError(TXID, 'insufficient_fund');
  assert.is(err.code, 'TX_FAILED');
  assert.is(err.reason, 'insufficient_fund');
  assert.match(err.message, new RegExp(`${TXID}: insufficient_fund`));
});

test.run();
