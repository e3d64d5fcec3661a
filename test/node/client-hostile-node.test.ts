// The client against a node that lies or attacks: an endless answer, a size it announces, a
// redirect of a submission to another host, a difficulty nobody can mine, fees of a fortune.
// Each is refused with its own code, before anything is mined, signed or sent on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getEventListeners } from 'node:events';
import { createClient, DifficultyTooHighError, registerWallet, transfer } from '../../src/client/index.js';
import { sendContractCall } from '../../src/client/contract.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeTx } from '../../src/codec/container.js';
import { closeSharedMinerPool } from '../../src/pow/pool.node.js';
import { rejection } from '../helpers/helpers.js';
import { TpkitError } from '../../src/errors.js';
import { TxFailedError } from '../../src/client/client-errors.js';
import { ADDR, KEY, OTHER, TXID, eventually, hostile, sendJson, type Handler } from '../helpers/hostile-node.js';

test('an endless answer is abandoned past maxResponseBytes with RESPONSE_TOO_LARGE, and the connection closed', async () => {
  const node = await hostile((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    res.write('{"ok":true,"pad":"');
    const pump = () => {
      while (res.write(chunk)) if (res.destroyed) return;
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  try {
    const client = createClient({ baseUrl: node.url, maxResponseBytes: 256 * 1024 });
    const err = await rejection(client.nodeStatus());
    assert.is(err.code, 'RESPONSE_TOO_LARGE');
    assert.match(err.message, /maxResponseBytes 262144/);
    await eventually(() => node.closed() === 1, 10_000, 'the endless answer stops being read');
  } finally {
    await node.close();
  }
});

test('an announced Content-Length past the cap is refused before its body is read', async () => {
  const node = await hostile((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1 << 30) });
    res.write('{"ok":true');
  });
  try {
    const err = await rejection(createClient({ baseUrl: node.url, maxResponseBytes: 1000 }).nodeStatus());
    assert.is(err.code, 'RESPONSE_TOO_LARGE');
    assert.match(err.message, /Content-Length 1073741824/);
  } finally {
    await node.close();
  }
});

test('an announced Content-Length past the cap: the answer is cancelled, not left to hold its connection', async () => {
  const node = await hostile((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1 << 30) });
    res.write('{"ok":true');
  });
  try {
    const answers: Response[] = [];
    const spy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      answers.push(res);
      return res;
    };
    const err = await rejection(createClient({ baseUrl: node.url, maxResponseBytes: 1000, fetch: spy }).nodeStatus());
    assert.is(err.code, 'RESPONSE_TOO_LARGE');
    // Unread and uncancelled, the answer would hold its socket until garbage collection.
    assert.ok(answers[0].bodyUsed, 'the body was cancelled');
    await eventually(() => node.closed() === 1, 60_000, 'the node sees the connection closed');
  } finally {
    await node.close();
  }
});

test('an answer of exactly maxResponseBytes is read; one byte more is not', async () => {
  const body = JSON.stringify({ ok: true, seq: 4, pad: 'x'.repeat(500) });
  const node = await hostile((_req, res) => {
    // Chunked, so the cap is met while reading, not from a header.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(body.slice(0, 100));
    res.end(body.slice(100));
  });
  try {
    assert.is(await createClient({ baseUrl: node.url, maxResponseBytes: body.length }).getSeq(ADDR), 4n);
    assert.is((await rejection(createClient({ baseUrl: node.url, maxResponseBytes: body.length - 1 }).getSeq(ADDR))).code, 'RESPONSE_TOO_LARGE');
  } finally {
    await node.close();
  }
});

test('the default cap is 64 MiB: one byte more is refused', async () => {
  const cap = 64 * 1024 * 1024;
  const node = await hostile((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < cap + 1 && !res.destroyed) {
        const piece = sent + chunk.length > cap + 1 ? chunk.subarray(0, cap + 1 - sent) : chunk;
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  try {
    const err = await rejection(createClient({ baseUrl: node.url }).nodeStatus());
    assert.is(err.code, 'RESPONSE_TOO_LARGE');
    assert.match(err.message, /67108865 bytes so far, maxResponseBytes 67108864/);
  } finally {
    await node.close();
  }
});

test('maxResponseBytes must be a positive integer', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, '10' as unknown as number]) {
    assert.throws(
      () => createClient({ baseUrl: 'http://127.0.0.1:1', maxResponseBytes: bad }),
      (e: { code?: string }) => e.code === 'INVALID_ARGUMENT',
    );
  }
});

test('a submission answered by a redirect is refused with REDIRECT_REFUSED; the other host never sees the transaction', async () => {
  const thief = await hostile((_req, res) => sendJson(res, { ok: true, result: 'ok', txid: TXID }));
  const node = await hostile((req, res) => {
    if (req.method === 'POST') {
      res.writeHead(307, { location: `${thief.url}/api/tx/new` });
      res.end();
    } else sendJson(res, { ok: true, result: 'ok', seq: 2 });
  });
  try {
    const client = createClient({ baseUrl: node.url });
    const err = await rejection(client.submitTx(new Uint8Array([0x81, 0xa3, 0x76, 0x65, 0x72, 0x02])));
    assert.is(err.code, 'REDIRECT_REFUSED');
    assert.match(err.message, /HTTP 307 to http:\/\/127\.0\.0\.1:\d+\/api\/tx\/new/);
    assert.equal(thief.requests, []);
  } finally {
    await node.close();
    await thief.close();
  }
});

test("a submission refused with 400 is the node's refusal (ApiError), not a redirect", async () => {
  const node = await hostile((_req, res) => sendJson(res, { ok: false, code: 10010, msg: 'bad tx', error: 'TX_BAD_FIELD' }, 400));
  try {
    const err = await rejection(createClient({ baseUrl: node.url }).submitTx(new Uint8Array([0x81, 0xa3, 0x76, 0x65, 0x72, 0x02])));
    assert.is(err.code, 'API_ERROR');
    assert.is((err as unknown as { status: number }).status, 400);
  } finally {
    await node.close();
  }
});

test('a read that is redirected is still followed: it changes nothing', async () => {
  const target = await hostile((_req, res) => sendJson(res, { ok: true, result: 'ok', seq: 9 }));
  const node = await hostile((req, res) => {
    res.writeHead(302, { location: `${target.url}${req.url}` });
    res.end();
  });
  try {
    assert.is(await createClient({ baseUrl: node.url }).getSeq(ADDR), 9n);
    assert.is(target.requests.length, 1);
  } finally {
    await node.close();
    await target.close();
  }
});

/** A node that asks for `diff` bits and accepts any registration, allocating OTHER. */
function registrar(diff: number): Handler {
  return (req, res) => {
    if (req.url === '/api/settings/current/register') return sendJson(res, { ok: true, result: 'ok', settings: { diff } });
    if (req.url === '/api/tx/new') return sendJson(res, { ok: true, result: 'ok', txid: TXID });
    if (req.url?.startsWith('/api/tx/status/')) return sendJson(res, { ok: true, result: 'ok', res: { ok: true, res: 'ok', address: OTHER, block: 'AB' } });
    sendJson(res, { ok: false, code: 404, msg: 'no' }, 404);
  };
}

test("a registration that fails in its block throws TxFailedError with the txid and the node's reason", async () => {
  const node = await hostile((req, res) => {
    if (req.url?.startsWith('/api/tx/status/')) return sendJson(res, { ok: true, result: 'ok', res: { ok: false, res: 'bad_pow', block: 'AB' } });
    registrar(0)(req, res);
  });
  try {
    const err = await rejection(registerWallet({ client: createClient({ baseUrl: node.url }), secretKeys: KEY, threads: 1 }));
    assert.ok(err instanceof TxFailedError, String(err));
    assert.is((err as TxFailedError).txid, TXID);
    assert.is((err as TxFailedError).reason, 'bad_pow');
    assert.match(err.message, new RegExp(`${TXID}: bad_pow`));
  } finally {
    await node.close();
    await closeSharedMinerPool();
  }
});

test('a node asking for 40 bits gets DIFFICULTY_TOO_HIGH with the expected time, before any mining or submission', async () => {
  const node = await hostile(registrar(40));
  const stages: string[] = [];
  try {
    const err = await rejection(registerWallet({ client: createClient({ baseUrl: node.url }), secretKeys: KEY, onStage: (s) => stages.push(s) }));
    assert.instance(err, DifficultyTooHighError);
    assert.is(err.code, 'DIFFICULTY_TOO_HIGH');
    const e = err as DifficultyTooHighError;
    assert.is(e.difficulty, 40);
    assert.is(e.maxDifficulty, 28);
    // ln 2 · 2^40 hashes at 10 MH/s: about 21 hours.
    assert.ok(Math.abs(e.expected.medianMs / 3_600_000 - 21.2) < 0.1, String(e.expected.medianMs));
    assert.match(err.message, /40 bits, maxDifficulty 28: a median of 21\.2 h/);
    assert.equal(stages, ['settings']);
    assert.equal(node.requests, ['GET /api/settings/current/register']);
  } finally {
    await node.close();
  }
});

test('a difficulty at maxDifficulty is mined, one above it is not; maxDifficulty is checked before the node is asked', async () => {
  const easy = await hostile(registrar(3));
  try {
    const client = createClient({ baseUrl: easy.url });
    const done = await registerWallet({ client, secretKeys: KEY, maxDifficulty: 3, threads: 1 });
    assert.is(done.address, OTHER);
    assert.is(done.difficulty, 3);
    assert.is((await rejection(registerWallet({ client, secretKeys: KEY, maxDifficulty: 2 }))).code, 'DIFFICULTY_TOO_HIGH');
    const before = easy.requests.length;
    for (const bad of [-1, 65, 2.5, '8' as unknown as number]) {
      assert.is((await rejection(registerWallet({ client, secretKeys: KEY, maxDifficulty: bad }))).code, 'INVALID_ARGUMENT');
    }
    for (const bad of [0, -5, Number.NaN, Infinity]) {
      assert.is((await rejection(registerWallet({ client, secretKeys: KEY, hashRate: bad }))).code, 'INVALID_ARGUMENT');
    }
    assert.is(easy.requests.length, before, 'a bad maxDifficulty never reaches the node');
  } finally {
    await easy.close();
    await closeSharedMinerPool();
  }
});

/** A node with wallet seq 0 and the given current.fee that accepts any transaction. */
function feeNode(fee: unknown): Handler {
  return (req, res) => {
    if (req.url === '/api/settings/current/fee') return sendJson(res, { ok: true, result: 'ok', settings: fee });
    if (req.url?.endsWith('/seq')) return sendJson(res, { ok: true, result: 'ok', seq: 0 });
    if (req.url === '/api/tx/new') return sendJson(res, { ok: true, result: 'ok', txid: TXID });
    sendJson(res, { ok: false, code: 404, msg: 'no' }, 404);
  };
}

const send = (url: string, more: { maxFee?: bigint; fee?: bigint; beforeSigning?: () => Promise<void> } = {}) =>
  transfer({ client: createClient({ baseUrl: url }), secretKey: KEY, from: ADDR, to: OTHER, currency: 'SK', amount: 10n, wait: false, ...more });

test('a fee of 9·10^17 from the settings is refused with FEE_TOO_HIGH; nothing is signed or sent', async () => {
  for (const rate of [{ base: 900_000_000_000_000_000n }, { base: 1, baseextra: 0, kb: 900_000_000_000_000_000n }]) {
    const body = `{"ok":true,"result":"ok","settings":{"SK":{"base":${rate.base},"baseextra":${rate.baseextra ?? 64},"kb":${rate.kb ?? 1000}}}}`;
    const node = await hostile((req, res) => (req.url === '/api/settings/current/fee' ? sendJson(res, body) : feeNode(null)(req, res)));
    try {
      const err = await rejection(send(node.url));
      assert.is(err.code, 'FEE_TOO_HIGH');
      assert.match(err.message, /maxFee 1000000000000/);
      assert.not.ok(node.requests.includes('POST /api/tx/new'));
    } finally {
      await node.close();
    }
  }
});

test('a contract call gets the same fee bound: FEE_TOO_HIGH from absurd settings, nothing sent', async () => {
  const fee = '{"ok":true,"result":"ok","settings":{"SK":{"base":900000000000000000,"baseextra":64,"kb":1000}}}';
  const node = await hostile((req, res) => {
    if (req.url === '/api/settings/current/fee') return sendJson(res, fee);
    if (req.url === '/api/settings/current/gas') return sendJson(res, { ok: true, result: 'ok', settings: { SK: 1000 } });
    feeNode(null)(req, res);
  });
  try {
    const call = sendContractCall({ client: createClient({ baseUrl: node.url }), secretKey: KEY, from: ADDR, to: OTHER, data: '0x', wait: false });
    assert.is((await rejection(call)).code, 'FEE_TOO_HIGH');
    assert.not.ok(node.requests.includes('POST /api/tx/new'));
  } finally {
    await node.close();
  }
});

test("the fee bound is the caller's: at maxFee it is paid, one below it is refused", async () => {
  const node = await hostile(feeNode({ SK: { base: 5000, baseextra: 10_000, kb: 0 } }));
  try {
    const paid = await send(node.url, { maxFee: 5000n });
    assert.is(paid.fee, 5000n);
    assert.is((await rejection(send(node.url, { maxFee: 4999n }))).code, 'FEE_TOO_HIGH');
    assert.is((await rejection(send(node.url, { maxFee: -1n }))).code, 'INVALID_ARGUMENT');
    // A check before signing that fails later (async) stops the transfer: nothing is sent.
    const posts = node.requests.filter((r) => r === 'POST /api/tx/new').length;
    const refusedLater = await rejection(send(node.url, { beforeSigning: async () => Promise.reject(new TpkitError('PRECHECK_FAILED', 'no')) }));
    assert.is(refusedLater.code, 'PRECHECK_FAILED');
    assert.is(node.requests.filter((r) => r === 'POST /api/tx/new').length, posts);
    // A fee of 0n given by the caller: no srcfee item at all, as documented.
    const free = await send(node.url, { fee: 0n });
    assert.is(free.fee, 0n);
    assert.is(free.feeCurrency, undefined);
    const body = decodeBody(decodeTx(free.tx).body) as unknown as { payload: { purpose: string }[] };
    assert.not.ok(body.payload.some((p) => p.purpose === 'srcfee'));
  } finally {
    await node.close();
  }
});

test('a transfer to a plain-HTTP node elsewhere is refused with INSECURE_TRANSPORT before the node is asked anything', async () => {
  // .invalid never resolves: asking it anything would end in NODE_UNREACHABLE instead.
  const client = createClient({ baseUrl: 'http://tpkit-test.invalid:1234' });
  const err = await rejection(transfer({ client, from: ADDR, to: OTHER, currency: 'SK', amount: 5n, fee: 0n, secretKey: KEY }));
  assert.is(err.code, 'INSECURE_TRANSPORT');
  assert.match(err.message, /http:\/\/tpkit-test\.invalid:1234 is not this machine/);
});

test('a contract call to a plain-HTTP node elsewhere is refused with INSECURE_TRANSPORT before the node is asked anything', async () => {
  const client = createClient({ baseUrl: 'http://tpkit-test.invalid:1234' });
  const err = await rejection(sendContractCall({ client, secretKey: KEY, from: ADDR, to: OTHER, data: new Uint8Array([1, 2, 3, 4]) }));
  assert.is(err.code, 'INSECURE_TRANSPORT');
});

test('a transfer with no currency is refused before the node is asked anything', async () => {
  const node = await hostile((_req, res) => sendJson(res, { ok: true }));
  try {
    const client = createClient({ baseUrl: node.url });
    for (const currency of ['', 5 as unknown as string]) {
      const err = await rejection(transfer({ client, from: ADDR, to: OTHER, currency, amount: 5n, fee: 0n, secretKey: KEY }));
      assert.is(err.code, 'INVALID_ARGUMENT');
      assert.match(err.message, /"currency" expected a non-empty string/);
    }
    assert.equal(node.requests, []);
  } finally {
    await node.close();
  }
});

test("waitForTx leaves no listener on the caller's signal after its polls: a long-lived signal does not gather one per poll", async () => {
  let polls = 0;
  const node = await hostile((req, res) => {
    if (req.url?.startsWith('/api/tx/status/')) return sendJson(res, ++polls < 4 ? { ok: true, result: 'ok', res: null } : { ok: true, result: 'ok', res: { ok: true, res: 'ok', block: 'AB' } });
    sendJson(res, { ok: false, code: 404, msg: 'no' }, 404);
  });
  try {
    const signal = new AbortController().signal;
    const status = await createClient({ baseUrl: node.url }).waitForTx(TXID, { signal });
    assert.is(status.ok, true);
    assert.is(polls, 4, 'three sleeps between four polls');
    assert.is(getEventListeners(signal, 'abort').length, 0);
  } finally {
    await node.close();
  }
});

test('watchTx with a signal aborted already rejects at once and opens no stream', async () => {
  let opened = 0;
  class CountingSocket {
    constructor() {
      opened += 1;
    }
    send() {}
    close() {}
    addEventListener() {}
  }
  const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
  // The bug waits for ever with nothing pending: a deadline fails it here, by name.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('watchTx waited for an aborted signal')), 5000)));
  try {
    const err = await rejection(Promise.race([client.watchTx(TXID, { signal: AbortSignal.abort(), WebSocket: CountingSocket as never }), deadline]));
    assert.is(err.code, 'ABORTED');
    assert.is(opened, 0);
  } finally {
    clearTimeout(timer);
  }
});

test.run();
