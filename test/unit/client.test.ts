// The client against scripted answers: exact integers, every kind of failure as a typed
// error, the HTTPS rule, status shapes, polling, and the fee amount search.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getEventListeners } from 'node:events';
import { ApiError, NetworkError, TxFailedError, UnknownTxError, autoFee, chooseFeeCurrency, createClient, feeRates, transfer } from '../../src/client/index.js';
import { isLoopbackHost } from '../../src/client/transport-policy.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeTx } from '../../src/codec/container.js';
import { feeCost } from '../../src/codec/fee.js';
import { makeAddress, addressToText } from '../../src/codec/address.js';
import { encodeTxid } from '../../src/codec/txid.js';
import { mulberry32, rejection, thrownError } from '../helpers/helpers.js';

type Script = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** A client whose fetch answers from `script` and records every request. */
function scripted(script: Script, options: { baseUrl?: string; allowInsecure?: boolean; timeoutMs?: number } = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ url: url.href, init });
    return script(url, init);
  }) as typeof globalThis.fetch;
  const client = createClient({ baseUrl: options.baseUrl ?? 'http://127.0.0.1:43280', fetch, allowInsecure: options.allowInsecure, timeoutMs: options.timeoutMs });
  return { client, calls };
}

const json = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } });
const ADDR = addressToText(makeAddress({ group: 10, block: 1, wallet: 7 }));
const OTHER = addressToText(makeAddress({ group: 10, block: 1, wallet: 8 }));
const TXID = encodeTxid({ chain: 1, height: 5, timeNs: 1_700_000_000_000_000_000n, node: 'tpkit' });
const TX = new Uint8Array([0x81, 0xa3, 0x76, 0x65, 0x72, 0x02]);
const never = (_url: URL, init: RequestInit) =>
  new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

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
    json(`{"result":"ok","info":{"amount":{"SK":${big},"FTT":5},"seq":9007199254740993,"t":1700000000000,"lastblk":"AB","preblk":"CD","pubkey":"02"},"address":"0x8001400001000007","txtaddress":"${ADDR}","ok":true}`),
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
  const { client } = scripted(() =>
    json('{"ok":false,"result":"not_found","code":10003,"msg":"Not found","error":"WALLET_NOT_FOUND","details":"no wallet"}', 404),
  );
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
  for (const host of ['example.com', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '0.0.0.0', '[::2]', '127.0.0.1.nip.io', '1270.0.0.1', '127.1000.0.1', '127.0.1000.1', '127.0.0.1000', '127.0.0']) assert.not.ok(isLoopbackHost(host), host);
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

test("a txid the node says it never saw is UnknownTxError (TX_NOT_FOUND, with the txid); another 404 stays an ApiError", async () => {
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

/**
 * Runs `fn` on a virtual clock: Date.now() moves only when a timer fires, by that timer's delay,
 * and timers fire at once. The waits a function asks for are then exact, whatever the load.
 * Timers of `realFrom` ms or more (each request's own time limit, cleared when it answers) stay real.
 */
async function onVirtualClock<T>(fn: (now: () => number) => Promise<T>, realFrom = 10_000): Promise<T> {
  const realNow = Date.now;
  const realSetTimeout = globalThis.setTimeout;
  let now = realNow();
  Date.now = () => now;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) =>
    ms >= realFrom ? realSetTimeout(callback, ms, ...args) : realSetTimeout(() => {
      now += ms;
      callback(...args);
    }, 0)) as typeof setTimeout;
  try {
    return await fn(() => now);
  } finally {
    Date.now = realNow;
    globalThis.setTimeout = realSetTimeout;
  }
}

test('waitForTx polls with growing intervals until included', async () => {
  await onVirtualClock(async (now) => {
    let n = 0;
    const times: number[] = [];
    const { client } = scripted(() => {
      times.push(now());
      return json(++n < 4 ? '{"res":null,"ok":true}' : '{"res":{"ok":true,"res":"ok","block":"AA"},"ok":true}');
    });
    const polls: number[] = [];
    const status = await client.waitForTx(TXID, { onPoll: (a) => polls.push(a) });
    assert.ok(status.ok);
    assert.equal(polls, [1, 2, 3, 4]);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.equal(gaps, [150, 225, 337.5], 'each wait 1.5 times the one before');
  });
});

test('waitForTx gives up at its timeout, not later: the last poll is at the limit', async () => {
  // 151: the first pause (150 ms) leaves 1 ms, still waited for and looked at once more.
  for (const timeoutMs of [151, 300, 1000, 5000]) {
    await onVirtualClock(async (now) => {
      const times: number[] = [];
      const { client } = scripted(() => (times.push(now()), json('{"res":null,"ok":true}')));
      const started = now();
      const timeout = await rejection(client.waitForTx(TXID, { timeoutMs }));
      assert.is(timeout.code, 'TIMEOUT');
      assert.match(timeout.message, new RegExp(TXID));
      assert.is(now() - started, timeoutMs, `gave up ${now() - started} ms after the start, limit ${timeoutMs}`);
      assert.is(times[times.length - 1] - started, timeoutMs, 'one last look at the limit');
    });
  }
});

test('waitForTx: abort ends the wait during a pause, without another poll', async () => {
  const controller = new AbortController();
  let polls = 0;
  const pending = scripted(() => {
    // Abort once the first answer is in, so the wait is in its first pause.
    if (++polls === 1) setTimeout(() => controller.abort(), 0);
    return json('{"res":null,"ok":true}');
  }).client;
  const seen: number[] = [];
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  const aborted = await rejection(pending.waitForTx(TXID, { signal: controller.signal, timeoutMs: 3_600_000, onPoll: (a) => seen.push(a) }));
  assert.is(aborted.code, 'ABORTED');
  assert.is(timers(), before, 'the aborted pause leaves no timer behind');
  assert.equal(seen, [1], 'no poll after the abort');
  assert.is(polls, 1);
});

test('the documented defaults: a request gives up after 15 s, waitForTx after 60 s', async () => {
  await onVirtualClock(async (now) => {
    const { client } = scripted(never);
    const started = now();
    const silent = await rejection(client.getSeq(ADDR));
    assert.is(silent.code, 'TIMEOUT');
    assert.match(silent.message, /within 15000 ms$/);
    assert.is(now() - started, 15_000);
  }, Infinity);
  await onVirtualClock(async (now) => {
    const { client } = scripted(() => json('{"res":null,"ok":true}'));
    const started = now();
    const late = await rejection(client.waitForTx(TXID));
    assert.is(late.code, 'TIMEOUT');
    assert.match(late.message, /not included within 60000 ms$/);
    assert.is(now() - started, 60_000);
  });
});

test('waitForTx: the pauses grow 1.5 times from 150 ms and stay at 2 s (docs/guide/client.md)', async () => {
  await onVirtualClock(async (now) => {
    let n = 0;
    const times: number[] = [];
    const { client } = scripted(() => (times.push(now()), json(++n < 11 ? '{"res":null,"ok":true}' : '{"res":{"ok":true,"res":"ok","block":"AA"},"ok":true}')));
    assert.ok((await client.waitForTx(TXID)).ok);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.equal(gaps, [150, 225, 337.5, 506.25, 759.375, 1139.0625, 1708.59375, 2000, 2000, 2000]);
  });
});

test('waitForTx: a signal aborted while a poll is answered ends the wait at once, with no pause and no other poll', async () => {
  await onVirtualClock(async (now) => {
    const controller = new AbortController();
    const { client } = scripted(() => {
      controller.abort();
      return json('{"res":null,"ok":true}');
    });
    const seen: number[] = [];
    const started = now();
    const aborted = await rejection(client.waitForTx(TXID, { signal: controller.signal, onPoll: (a) => seen.push(a) }));
    assert.is(aborted.code, 'ABORTED');
    assert.equal(seen, [1]);
    assert.is(now() - started, 0, 'no pause waited');
  });
});

test("waitForTx leaves no listener on the caller's signal once it returns, however many pauses it took", async () => {
  const controller = new AbortController();
  await onVirtualClock(async () => {
    let n = 0;
    const { client } = scripted(() => json(++n < 5 ? '{"res":null,"ok":true}' : '{"res":{"ok":true,"res":"ok","block":"AA"},"ok":true}'));
    assert.ok((await client.waitForTx(TXID, { signal: controller.signal })).ok);
    assert.is(n, 5);
  });
  assert.is(getEventListeners(controller.signal, 'abort').length, 0);
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
  assert.equal(body.payload.map((p) => p.purpose), ['transfer']);
  for (const status of [500, 405]) {
    const broken = node(status);
    const err = await rejection(send(broken.client));
    assert.instance(err, ApiError);
    assert.is((err as ApiError).status, status);
    assert.not.ok(broken.calls.some((c) => c.url.endsWith('/api/tx/new')), `${status}: nothing sent`);
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
    const input = { from, to, seq: BigInt(i + 1), timestamp: 1_700_000_000_000 + i, payload: [{ purpose: 'transfer' as const, currency: 'SK', amount: BigInt(i) * 1000n + 1n }], extra: i % 2 ? { msg: 'x'.repeat(i) } : undefined };
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
