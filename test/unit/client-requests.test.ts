// The client's request layer against scripted answers: what each request sends (path, method,
// headers, redirect mode), where its status and body are judged (the 400 and 500 edges, a
// redirect's 3xx range), the answer cap at and one past, the documented defaults (15 s per
// request, 64 MiB per answer, polls from 150 ms growing 1.5x to 2 s, a 60 s wait), and that
// a call leaves nothing behind on the caller's signal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getEventListeners } from 'node:events';
import { ApiError, NotANodeError, UnknownTxError, createClient } from '../../src/client/index.js';
import { DEFAULT_MAX_RESPONSE_BYTES, joinUrl, requestJson } from '../../src/client/http.js';
import { parseApiJson, toBigInt } from '../../src/client/api-json.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { encodeTxid } from '../../src/codec/txid.js';
import { rejection } from '../helpers/helpers.js';

type Script = (url: URL, init: RequestInit) => Response | Promise<Response>;

function scripted(script: Script, options: { baseUrl?: string; timeoutMs?: number; maxResponseBytes?: number } = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ url: url.href, init });
    return script(url, init);
  }) as typeof globalThis.fetch;
  const client = createClient({ baseUrl: options.baseUrl ?? 'http://127.0.0.1:43280', fetch, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes });
  return { client, calls, fetch };
}

const json = (body: string, status = 200, headers: Record<string, string> = {}) => new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
const ADDR = addressToText(makeAddress({ group: 10, block: 1, wallet: 7 }));
const TXID = encodeTxid({ chain: 1, height: 5, timeNs: 1_700_000_000_000_000_000n, node: 'tpkit' });

/** A body streamed in the chunks given, with no Content-Length. */
function streamed(chunks: Uint8Array[], status = 200): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

/** `{"ok":true,"pad":"xxx…"}` of exactly `bytes` bytes. */
function answerOf(bytes: number): string {
  const shell = '{"ok":true,"pad":""}';
  return `{"ok":true,"pad":"${'x'.repeat(bytes - shell.length)}"}`;
}

test('joinUrl keeps the base path without doubling slashes, and carries a query', () => {
  assert.is(joinUrl(new URL('https://gw.example/node7///'), '/api/x').href, 'https://gw.example/node7/api/x');
  assert.is(joinUrl(new URL('https://gw.example'), '/api/x?a=1&b=2').href, 'https://gw.example/api/x?a=1&b=2');
  assert.is(joinUrl(new URL('https://gw.example/p/'), '/api/x').search, '');
});

test('exact integers: 2^53 - 1 stays a number, 2^53 becomes a bigint; toBigInt takes integers and decimal text only', () => {
  assert.equal(parseApiJson('{"a":9007199254740991,"b":9007199254740992,"c":-9007199254740993,"d":1.5}'), { a: 9007199254740991, b: 9007199254740992n, c: -9007199254740993n, d: 1.5 });
  assert.is(toBigInt(7), 7n);
  assert.is(toBigInt(-7), -7n);
  assert.is(toBigInt(5n), 5n);
  assert.is(toBigInt('-12'), -12n);
  for (const bad of [1.5, Number.NaN, 2 ** 60, '1.0', '0x10', '', null, undefined, {}]) assert.is(toBigInt(bad), undefined, String(bad));
});

test('a read sends accept only and follows redirects; a write sends its JSON and stops at a redirect', async () => {
  const { client, calls } = scripted((url) => json(url.pathname === '/api/tx/new' ? '{"ok":true,"txid":"T-1"}' : '{"ok":true,"seq":1}'));
  await client.getSeq(ADDR);
  await client.submitTx('gaN2ZXIC');
  assert.is(calls[0].init.method, 'GET');
  assert.equal(calls[0].init.headers, { accept: 'application/json' });
  assert.is(calls[0].init.body, undefined);
  assert.is(calls[0].init.redirect, 'follow');
  assert.is(calls[1].init.method, 'POST');
  assert.equal(calls[1].init.headers, { accept: 'application/json', 'content-type': 'application/json' });
  assert.is(calls[1].init.body, '{"tx":"gaN2ZXIC"}');
  assert.is(calls[1].init.redirect, 'manual');
});

test('a write answered 300 or 399 is refused as a redirect, naming where it pointed; 200 and 400 are answers', async () => {
  for (const status of [300, 301, 307, 399]) {
    const { client } = scripted(() => new Response('', { status, headers: { location: 'https://elsewhere.example/x' } }));
    const err = await rejection(client.submitTx('gaN2ZXIC'));
    assert.is(err.code, 'REDIRECT_REFUSED', String(status));
    assert.is(err.details, `POST /api/tx/new to http://127.0.0.1:43280: HTTP ${status} to https://elsewhere.example/x`);
  }
  const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers() } as unknown as Response;
  const err = await rejection(scripted(() => opaque).client.submitTx('gaN2ZXIC'));
  assert.is(err.code, 'REDIRECT_REFUSED');
  assert.is(err.details, 'POST /api/tx/new to http://127.0.0.1:43280: HTTP redirect');
  assert.is(await scripted(() => json('{"ok":true,"txid":"T-2"}')).client.submitTx('gaN2ZXIC'), 'T-2');
  const refused = await rejection(scripted(() => json('{"ok":false,"msg":"bad tx"}', 400)).client.submitTx('gaN2ZXIC'));
  assert.instance(refused, ApiError);
  // A read answered with a 3xx that fetch did not follow is no redirect refusal.
  const read = await rejection(scripted(() => json('{"ok":true}', 302)).client.nodeStatus());
  assert.is(read.code, 'BAD_RESPONSE');
});

test('status 400 with an ok body is an ApiError; 399 is not', async () => {
  const at400 = await rejection(scripted(() => json('{"ok":true,"result":"odd"}', 400)).client.getSettings());
  assert.instance(at400, ApiError);
  assert.is((at400 as ApiError).status, 400);
  assert.is((at400 as ApiError).apiMessage, 'odd');
  assert.equal(await scripted(() => json('{"ok":true,"settings":{"a":1}}', 399)).client.getSettings(), { a: 1 });
});

test('an answer that is not JSON: a gateway page at 500 and above stands for the node, below 500 it is another server', async () => {
  const at500 = await rejection(scripted(() => new Response('<html><title>Bad  Gateway</title></html>', { status: 500, headers: { 'content-type': 'text/html' } })).client.nodeStatus());
  assert.instance(at500, ApiError);
  assert.is((at500 as ApiError).status, 500);
  assert.is((at500 as ApiError).apiMessage, 'an HTML page instead of JSON ("Bad Gateway")');
  const at499 = await rejection(scripted(() => new Response('<html><title>Bad Gateway</title></html>', { status: 499, headers: { 'content-type': 'text/html' } })).client.nodeStatus());
  assert.instance(at499, NotANodeError);
  assert.is((at499 as NotANodeError).origin, 'http://127.0.0.1:43280');
  assert.is(at499.details, 'GET /api/node/status: HTTP 499, an HTML page instead of JSON ("Bad Gateway")');
  const text = await rejection(scripted(() => new Response('  hello there  ', { status: 200 })).client.nodeStatus());
  assert.is(text.details, 'GET /api/node/status: HTTP 200, text instead of JSON: "hello there"');
  const empty = await rejection(scripted(() => new Response('', { status: 200 })).client.nodeStatus());
  assert.is(empty.details, 'GET /api/node/status: HTTP 200, an empty answer instead of JSON');
  const words = await rejection(scripted(() => new Response('<p>It  <b>works</b></p>', { status: 200 })).client.nodeStatus());
  assert.is(words.details, 'GET /api/node/status: HTTP 200, an HTML page instead of JSON ("It works")');
});

test('an API error takes msg, else result, else the text, else the status; details are added once', async () => {
  const message = async (body: string, status = 404) => ((await rejection(scripted(() => json(body, status)).client.getSettings())) as ApiError).apiMessage;
  assert.is(await message('{"ok":false,"msg":"Not found","result":"not_found"}'), 'Not found');
  assert.is(await message('{"ok":false,"result":"not_found"}'), 'not_found');
  assert.is(await message('{"ok":false,"msg":"No wallet x","details":"x"}'), 'No wallet x');
  assert.is(await message('{"ok":false,"msg":"Not found","details":"no wallet"}'), 'Not found (no wallet)');
  assert.is(await message('[1]'), '[1]');
  assert.is(await message(`"${'y'.repeat(300)}"`), `"${'y'.repeat(199)}`);
  const err = (await rejection(scripted(() => json('{"ok":false,"code":"x","error":5}', 503)).client.getSettings())) as ApiError;
  assert.is(err.apiCode, undefined);
  assert.is(err.nodeError, undefined);
  assert.is(err.message, 'Node refused GET /api/settings: HTTP 503: {"ok":false,"code":"x","error":5}');
});

test('a node that names TX_NOT_FOUND stops getTxStatus and waitForTx with UnknownTxError; other refusals stay ApiErrors', async () => {
  const unknown = () => json('{"ok":false,"code":10003,"msg":"Not found","error":"TX_NOT_FOUND"}', 404);
  const err = await rejection(scripted(unknown).client.getTxStatus(TXID));
  assert.instance(err, UnknownTxError);
  assert.is((err as UnknownTxError).txid, TXID);
  const { client, calls } = scripted(unknown);
  assert.instance(await rejection(client.waitForTx(TXID)), UnknownTxError);
  assert.is(calls.length, 1);
  const other = await rejection(scripted(() => json('{"ok":false,"error":"NODE_INTERNAL"}', 500)).client.getTxStatus(TXID));
  assert.instance(other, ApiError);
});

test('the answer cap: exactly maxResponseBytes is read, announced or streamed; one byte more is refused', async () => {
  const cap = 1000;
  for (const announce of [true, false]) {
    const at = answerOf(cap);
    const answer = (text: string) => (announce ? json(text, 200, { 'content-length': String(text.length) }) : streamed([new TextEncoder().encode(text.slice(0, 600)), new TextEncoder().encode(text.slice(600))]));
    const ok = await requestJson({ baseUrl: new URL('http://127.0.0.1:1'), fetch: async () => answer(at), timeoutMs: 60_000, maxResponseBytes: cap }, '/api/x');
    assert.is((ok.pad as string).length, cap - 20);
    const over = await rejection(requestJson({ baseUrl: new URL('http://127.0.0.1:1'), fetch: async () => answer(answerOf(cap + 1)), timeoutMs: 60_000, maxResponseBytes: cap }, '/api/x'));
    assert.is(over.code, 'RESPONSE_TOO_LARGE');
    assert.is(over.details, announce ? 'GET /api/x: Content-Length 1001, maxResponseBytes 1000' : 'GET /api/x: 1001 bytes so far, maxResponseBytes 1000');
  }
  // Chunks are joined in order, multi-byte text across a chunk edge included.
  const euro = new TextEncoder().encode('{"s":"€€","ok":true}');
  const joined = await requestJson({ baseUrl: new URL('http://h'), fetch: async () => streamed([euro.slice(0, 7), euro.slice(7, 9), euro.slice(9)]), timeoutMs: 60_000, maxResponseBytes: euro.length }, '/api/x');
  assert.is(joined.s, '€€');
  assert.is(DEFAULT_MAX_RESPONSE_BYTES, 64 * 1024 * 1024);
});

test('maxResponseBytes: 1 is a valid cap, 0, fractions and unsafe integers are not', async () => {
  const { client } = scripted(() => json('{}'), { maxResponseBytes: 1 });
  assert.is((await rejection(client.nodeStatus())).code, 'RESPONSE_TOO_LARGE');
  for (const bad of [0, -1, 1.5, 2 ** 53]) {
    let code: string | undefined;
    try {
      createClient({ baseUrl: 'http://h', maxResponseBytes: bad });
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    assert.is(code, 'INVALID_ARGUMENT', String(bad));
  }
});

test('a signal aborted before the call is ABORTED with no request made; a settled call leaves no listener on the signal', async () => {
  const { client, calls } = scripted(() => json('{"ok":true,"seq":4}'));
  const err = await rejection(client.getSeq(ADDR, { signal: AbortSignal.abort() }));
  assert.is(err.code, 'ABORTED');
  assert.is(err.message, `Operation aborted: GET /api/address/${ADDR}/seq aborted`);
  assert.is(calls.length, 0);
  const signal = new AbortController().signal;
  assert.is(await client.getSeq(ADDR, { signal }), 4n);
  await rejection(scripted(() => json('{"ok":false}', 500)).client.getSeq(ADDR, { signal }));
  await rejection(scripted(() => Promise.reject(new TypeError('fetch failed'))).client.getSeq(ADDR, { signal }));
  assert.is(getEventListeners(signal, 'abort').length, 0);
});

/** setTimeout that records each delay and runs its callback at once: a time limit passes at once. */
async function withInstantTimers<T>(fn: (delays: number[], fired: number[]) => Promise<T>): Promise<T> {
  const real = globalThis.setTimeout;
  const delays: number[] = [];
  const fired: number[] = [];
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
    delays.push(ms);
    return real(() => {
      fired.push(ms);
      callback(...args);
    }, 0);
  }) as typeof setTimeout;
  try {
    return await fn(delays, fired);
  } finally {
    globalThis.setTimeout = real;
  }
}

const never = (_url: URL, init: RequestInit) =>
  new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

test('a request is given 15 s by default (the timeoutMs documented), or the timeoutMs the client was made with', async () => {
  await withInstantTimers(async (delays) => {
    const err = await rejection(scripted(never).client.nodeStatus());
    assert.is(err.code, 'TIMEOUT');
    assert.is(err.details, 'GET /api/node/status got no answer from http://127.0.0.1:43280 within 15000 ms');
    assert.equal(delays, [15_000]);
  });
  await withInstantTimers(async (delays) => {
    assert.is((await rejection(scripted(never, { timeoutMs: 1 }).client.nodeStatus())).code, 'TIMEOUT');
    assert.equal(delays, [1]);
  });
});

test('waitForTx: polls at 150 ms growing 1.5x up to 2 s, and gives up after 60 s by default', async () => {
  await withInstantTimers(async (delays, fired) => {
    const { client, calls } = scripted(() => json('{"res":null,"ok":true}'));
    const signal = new AbortController().signal;
    const pausesOver: number[] = [];
    const realNow = Date.now;
    let now = realNow();
    // Each pause moves the clock by its length; the 15 s request limits are not pauses.
    Date.now = () => now;
    const polls: number[] = [];
    try {
      const pending = client.waitForTx(TXID, { signal, onPoll: (n) => {
        polls.push(n);
        pausesOver.push(fired.filter((d) => d !== 15_000).length);
        const last = delays.filter((d) => d !== 15_000).at(-1);
        if (polls.length > 1 && last !== undefined) now += last;
      } });
      const err = await rejection(pending);
      assert.is(err.code, 'TIMEOUT');
      assert.is(err.details, `${TXID} not included within 60000 ms`);
      assert.is((err as { txid?: string }).txid, TXID);
    } finally {
      Date.now = realNow;
    }
    const pauses = delays.filter((d) => d !== 15_000);
    assert.equal(pauses.slice(0, 9), [150, 225, 337.5, 506.25, 759.375, 1139.0625, 1708.59375, 2000, 2000]);
    assert.is(pauses.reduce((a, b) => a + b, 0), 60_000, 'the pauses add up to the limit: the last one is cut to it');
    assert.is(calls.length, polls.length);
    assert.is(polls.length, pauses.length + 1);
    assert.equal(pausesOver, polls.map((n) => n - 1), 'each poll after the pause before it is over');
    assert.is(getEventListeners(signal, 'abort').length, 0, 'no listener left by the pauses');
  });
});

test('getBlock: a height is /api/blockn, a hash /api/block without 0x; 15 digits at most; addr kept in text form; no block is BAD_RESPONSE', async () => {
  const { client, calls } = scripted(() => json('{"ok":true,"block":{"hash":"AB"}}'));
  const hash = 'ab'.repeat(32);
  assert.equal(await client.getBlock(7), { hash: 'AB' });
  await client.getBlock('999999999999999');
  await client.getBlock(`0x${hash}`, { addr: '0x8001400001000007' });
  await client.getBlock('last');
  await client.getBlock('genesis');
  assert.equal(calls.map((c) => c.url.replace('http://127.0.0.1:43280', '')), [
    '/api/blockn/7',
    '/api/blockn/999999999999999',
    `/api/block/${hash}?addr=${ADDR}`,
    '/api/block/last',
    '/api/block/genesis',
  ]);
  for (const bad of ['1000000000000000', 'ab'.repeat(31), 'head', '-1']) assert.is((await rejection(client.getBlock(bad))).code, 'INVALID_ARGUMENT', bad);
  assert.is(calls.length, 5);
  const none = await rejection(scripted(() => json('{"ok":true,"block":null}')).client.getBlock('last'));
  assert.is(none.code, 'BAD_RESPONSE');
  assert.is(none.details, '/api/block/last');
});

test('executeCall posts the view as the spec has it: call 0x0, the data as one hex argument, gas and value as decimal text', async () => {
  const { client, calls } = scripted(() => json('{"ok":true,"result":"revert","bin":"0x08c3","gas_used":21000,"decode":"Error(no)"}'));
  const view = await client.executeCall({ to: new Uint8Array([0x80, 0x01, 0x40, 0x00, 0x01, 0x00, 0x00, 0x07]), data: '0xA9059CBB', from: ADDR, gas: 5n, value: 0n });
  assert.equal(JSON.parse(String(calls[0].init.body)), { call: '0x0', args: ['0xa9059cbb'], to: '0x8001400001000007', from: ADDR, gas: '5', value: '0' });
  assert.is(calls[0].url, 'http://127.0.0.1:43280/api/execute/call');
  assert.is(view.result, 'revert');
  assert.equal([...view.data], [0x08, 0xc3]);
  assert.is(view.gasUsed, 21000n);
  assert.is(view.reason, 'Error(no)');
  await client.executeCall({ to: 'AA100000001677722412', data: new Uint8Array([1]) });
  assert.equal(JSON.parse(String(calls[1].init.body)), { call: '0x0', args: ['0x01'], to: 'AA100000001677722412' });
  const bad = await rejection(scripted(() => json('{"ok":true,"result":"return","bin":"0x1"}')).client.executeCall({ to: 'AA100000001677722412', data: '0x' }));
  assert.is(bad.field, 'bin');
  const odd = await rejection(scripted(() => json('{"ok":true,"result":"done"}')).client.executeCall({ to: 'AA100000001677722412', data: '0x' }));
  assert.is(odd.field, 'result');
  const plain = await scripted(() => json('{"ok":true,"result":"error","error":"out of gas"}')).client.executeCall({ to: 'AA100000001677722412', data: '0x' });
  assert.equal([plain.data.length, plain.gasUsed, plain.reason], [0, 0n, 'out of gas']);
});

test('answers read into typed values: wallet defaults, a failed status with block and revert, a node status', async () => {
  const bare = await scripted(() => json(`{"ok":true,"txtaddress":"${ADDR}","info":{}}`)).client.getAddress(ADDR);
  assert.equal([bare.hex, bare.amount, bare.seq, bare.t, bare.lastblk, bare.preblk, bare.pubkey], ['', {}, 0n, 0, '', '', '']);
  const badAmount = await rejection(scripted(() => json(`{"ok":true,"txtaddress":"${ADDR}","info":{"amount":{"SK":"x"}}}`)).client.getAddress(ADDR));
  assert.is(badAmount.field, 'info.amount.SK');
  assert.is(badAmount.details, `GET /api/address/${ADDR}: "info.amount.SK" expected an integer, got string`);
  const noAddress = await rejection(scripted(() => json('{"ok":true,"txtaddress":null,"info":{}}')).client.getAddress(ADDR));
  assert.is(noAddress.details, `GET /api/address/${ADDR}: "txtaddress" expected a string, got null`);

  const statuses = [
    '{"ok":true,"res":{"ok":false,"reason":"revert","block":"B1","revert":"Error(x)"}}',
    '{"ok":true,"res":{"error":true}}',
    '{"ok":true,"res":{"ok":true,"res":"ok","retval":"0x01"}}',
    '{"ok":true,"res":{"ok":true,"res":5}}',
    '{"ok":true,"res":[1]}',
  ];
  const { client } = scripted(() => json(statuses.shift()!));
  assert.equal(await client.getTxStatus(TXID), { ok: false, reason: 'revert', raw: { ok: false, reason: 'revert', block: 'B1', revert: 'Error(x)' }, block: 'B1', revert: 'Error(x)' });
  assert.equal(await client.getTxStatus(TXID), { ok: false, reason: 'error', raw: { error: true } });
  assert.equal(await client.getTxStatus(TXID), { ok: true, res: 'ok', raw: { ok: true, res: 'ok', retval: '0x01' }, retval: '0x01' });
  assert.is((await rejection(client.getTxStatus(TXID))).field, 'res.res');
  assert.is((await rejection(client.getTxStatus(TXID))).field, 'res');

  const status = (body: unknown) => scripted(() => json(JSON.stringify(body))).client.nodeStatus();
  const s = await status({ ok: true, status: { nodename: 'n1', tpkit: { blocks: 'on-demand' }, blockchain: { chain: 3, hash: 'AB', header: { height: 9 } } } });
  assert.equal([s.chain, s.height, s.hash, s.nodename, s.blocks], [3, 9, 'AB', 'n1', 'on-demand']);
  const t = await status({ ok: true, status: { tpkit: { blocks: 'sometimes' }, blockchain: { chain: 3, header: { chain: 4, height: 0 } } } });
  assert.equal([t.chain, t.hash, t.nodename, t.blocks], [4, '', undefined, undefined]);
  assert.is((await rejection(status({ ok: true, status: { blockchain: { header: null } } }))).field, 'status.blockchain.header');
});

test.run();
