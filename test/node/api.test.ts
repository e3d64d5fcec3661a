// Every endpoint and every error answer of the local node, over HTTP on port 0.
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToBase64, bytesToHex, concatBytes } from '../../src/bytes.js';
import { addressToHex, addressToText, makeAddress } from '../../src/codec/address.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { encodeMsgpack } from '../../src/codec/msgpack-write.js';
import { MsgFloat, type MsgValue } from '../../src/codec/msgpack-types.js';
import { signBsig } from '../../src/crypto/bsig.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { publicKeyToPem } from '../../src/crypto/pem.js';
import { API_ERRORS } from '../../src/node/http/api-errors.js';
import { recordHash, type BlockRecord } from '../../src/node/ledger/block.js';
import { fee, minedRegisterBody, pay, register, registerBelow, sign, startTestNode, transfer, waitStatus, type TestNode } from '../helpers/node-helpers.js';
import { within } from '../helpers/helpers.js';

let node: TestNode;
let dev: { key: Uint8Array; address: Uint8Array };
let seq = 0;
const now = () => Date.now();

function b64(value: MsgValue): string {
  return bytesToBase64(encodeMsgpack(value));
}

function container(body: Uint8Array, sigs: Uint8Array[], ver: MsgValue = 2): string {
  return b64(
    new Map<string, MsgValue>([
      ['body', body],
      ['sig', sigs],
      ['ver', ver],
    ]),
  );
}

function goodTransfer(overrides: Partial<Parameters<typeof transfer>[0]> = {}): string {
  return transfer({ key: dev.key, from: dev.address, to: node.chain.accounts[1].address, seq: ++seq, t: now(), payload: [pay(1), fee(5)], ...overrides });
}

async function expectError(res: { status: number; body: any }, status: number, error: string, label: string) {
  assert.is(res.status, status, `${label}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  assert.is(res.body.ok, false, label);
  assert.is(res.body.error, error, `${label}: ${JSON.stringify(res.body)}`);
  assert.is(res.body.code, API_ERRORS[error as keyof typeof API_ERRORS]!.code, label);
  assert.is(res.body.result, status === 404 ? 'not_found' : 'error', label);
  assert.type(res.body.msg, 'string', label);
  assert.ok(res.body.msg.length > 0, label);
}

function ledgerFingerprint(): string {
  const parts = [...node.chain.wallets].map(([a, w]) => `${a}:${w.seq}:${[...w.amount].join(',')}:${w.pubkey ? bytesToHex(w.pubkey) : ''}`);
  return `${node.chain.height}|${node.chain.mempool.size}|${parts.sort().join(';')}`;
}

test.before(async () => {
  node = await startTestNode({ accounts: 2, difficulty: 8, limits: { maxRequestBytes: 8192, maxTxBytes: 4096, maxSignatures: 4, maxPending: 1000, maxBlockTxs: 1000 } });
  dev = { key: node.chain.accounts[0].secretKey, address: node.chain.accounts[0].address };
});

test.after(async () => {
  await node.close();
});

test('GET /api/address: the envelope of spec 2.2 with the fields of a plain wallet', async () => {
  const text = addressToText(dev.address);
  const { status, body, headers } = await node.get(`/api/address/${text}`);
  assert.is(status, 200);
  assert.is(headers.get('content-type'), 'application/json');
  assert.is(body.ok, true);
  assert.is(body.result, 'ok');
  assert.is(body.address, addressToHex(dev.address));
  assert.is(body.txtaddress, text);
  const info = body.info;
  // the fields a plain wallet has in the reference node; preblk only once it has changed twice
  assert.equal(Object.keys(info), ['amount', 'lastblk', 'lastblock', 'pubkey', 'seq', 't']);
  assert.is(info.pubkey, bytesToHex(publicKeyOf(dev.key), true));
  assert.match(info.lastblk, /^[0-9A-F]{64}$/);
  assert.is(typeof info.amount.SK, 'number');
  // hex form, without the /api prefix, and the PEM form of the key
  const hex = await node.get(`/address/${addressToHex(dev.address)}?pubkey=pem`);
  assert.is(hex.status, 200);
  assert.is(hex.body.txtaddress, text);
  assert.is(hex.body.info.pubkey, publicKeyToPem(publicKeyOf(dev.key)));
  const seqAnswer = await node.get(`/api/address/${text}/seq`);
  assert.is(seqAnswer.body.seq, info.seq);
  assert.is(seqAnswer.body.ok, true);
});

test('GET /api/address errors: 404/10003 not found, 400/10004 invalid address (spec part 7)', async () => {
  const missing = await node.get(`/api/address/${addressToText(makeAddress({ group: 10, block: 1, wallet: 9999 }))}`);
  await expectError(missing, 404, 'WALLET_NOT_FOUND', 'missing wallet');
  assert.equal({ code: missing.body.code, msg: missing.body.msg, result: missing.body.result }, { code: 10003, msg: 'Not found', result: 'not_found' });
  for (const bad of ['AA100000001677722413', 'hello', '0x12', '7000000000000001', 'AA10000000167772241']) {
    const res = await node.get(`/api/address/${bad}`);
    assert.is(res.status, 400, bad);
    assert.is(res.body.code, 10004, bad);
    assert.is(res.body.msg, 'Invalid address', bad);
    assert.is(res.body.result, 'error', bad);
    assert.ok(res.body.details, bad);
  }
  await expectError(await node.get(`/api/address/${addressToText(dev.address)}/nope`), 404, 'ROUTE_NOT_FOUND', 'unknown sub-resource');
});

test('POST /api/tx/new: JSON base64, JSON 0x hex and raw MessagePack are accepted', async () => {
  const a = await node.submit(goodTransfer());
  assert.is(a.status, 200);
  assert.equal(Object.keys(a.body).sort(), ['ok', 'result', 'txid']);
  assert.match(a.body.txid, /^[1-9A-HJ-NP-Za-km-z]+-tpkit$/);
  const hex = '0x' + bytesToHex(Buffer.from(goodTransfer(), 'base64'));
  assert.is((await node.post('/api/tx/new', JSON.stringify({ tx: hex }))).status, 200);
  const raw = Buffer.from(goodTransfer(), 'base64');
  const r = await node.post('/api/tx/new', raw, 'application/msgpack');
  assert.is(r.status, 200, JSON.stringify(r.body));
  const status = await waitStatus(node, r.body.txid);
  assert.is(status.res, 'ok');
});

test('GET /api/tx/status: null for pending, 404 TX_NOT_FOUND for unknown, both Res and res, 400 for a malformed txid', async () => {
  const slow = await startTestNode({ instant: false, blockTime: 3_600_000 });
  try {
    const a = slow.chain.accounts[0];
    const { body } = await slow.submit(transfer({ key: a.secretKey, from: a.address, to: slow.chain.accounts[1].address, seq: 1, t: now(), payload: [pay(1)] }));
    const pending = await slow.get(`/api/tx/status/${body.txid}`);
    assert.equal(pending.body, { res: null, Res: null, ok: true });
    await slow.chain.settle();
    const done = await slow.get(`/api/tx/status/${body.txid}`);
    assert.is(done.body.ok, true);
    assert.equal(done.body.res, done.body.Res);
    assert.is(done.body.res.res, 'ok');
    await expectError(await slow.get('/api/tx/status/26CmF99wJRUJHd1-c4n1'), 404, 'TX_NOT_FOUND', 'unknown txid');
  } finally {
    await slow.close();
  }
  await expectError(await node.get('/api/tx/status/not-a-txid!'), 400, 'TXID_INVALID', 'bad txid');
  await expectError(await node.get('/api/tx/status/0OIl-x'), 400, 'TXID_INVALID', 'bad base58');
});

test('GET /api/settings and subtrees', async () => {
  const all = await node.get('/api/settings');
  assert.is(all.body.ok, true);
  assert.is(all.body.result, 'ok');
  assert.is(all.body.settings.current.register.diff, 8);
  assert.equal(all.body.settings.current.fee.SK, { base: 1, baseextra: 64, kb: 1000 });
  assert.is(all.body.settings.current.fee.params.feeaddr, bytesToHex(node.chain.feeAddress, true));
  assert.equal(all.body.settings.current.allocblock.block, 1);
  const current = await node.get('/api/settings/current');
  assert.equal(current.body.settings, all.body.settings.current);
  const diff = await node.get('/api/settings/current/register/diff');
  assert.is(diff.body.settings, 8);
  const nothing = await node.get('/api/settings/current/nothing');
  assert.is(nothing.status, 200, 'a path to nothing is an empty object, as the reference answers');
  assert.equal(nothing.body.settings, {});
});

test('node status and blocks: heights, parents, hashes over the header', async () => {
  await node.chain.settle();
  const status = await node.get('/api/node/status');
  assert.is(status.body.ok, true);
  const head = status.body.status.blockchain;
  assert.is(head.chain, 1);
  assert.is(head.header.height, node.chain.height);
  assert.ok(head.header.height >= 2);
  const last = await node.get('/api/block/last');
  assert.is(last.body.block.hash, head.hash);
  const byHash = await node.get(`/api/block/${head.hash}`);
  assert.equal(byHash.body.block, last.body.block);
  const txids = Object.keys(last.body.block.txs);
  assert.ok(txids.length >= 1);
  const tx = last.body.block.txs[txids[0]];
  assert.is(tx.kind, 'generic');
  assert.is(tx.from, bytesToHex(dev.address, true));
  assert.ok(Array.isArray(tx.payload));
  assert.ok(Object.keys(last.body.block.bals).length >= 1);
  // parents chain back to the genesis, and each hash is the hash of its own header
  let hash = head.hash;
  for (let h = head.header.height; h >= 0; h--) {
    const info = await node.get(`/api/blockinfo/${hash}`);
    const block = info.body.block;
    assert.is(block.header.height, h);
    const byHeight = await node.get(`/api/blockn/${h}`);
    assert.is(byHeight.body.block.hash, hash);
    assert.is((await node.get(`/api/blockhash/${h}`)).body.blockhash, hash);
    const record: BlockRecord = { ...block, txs: block.txs_ids, registered: {}, bals: {} };
    assert.is(recordHash(record), hash, `block ${h} hash covers its header`);
    if (h === 0) assert.is(block.header.parent, '0'.repeat(64));
    hash = block.header.parent;
  }
  assert.is((await node.get('/api/block/genesis')).body.block.header.height, 0);
  await expectError(await node.get(`/api/block/${'0'.repeat(64)}`), 404, 'BLOCK_NOT_FOUND', 'unknown hash');
  await expectError(await node.get('/api/blockn/99999'), 404, 'BLOCK_NOT_FOUND', 'height too high');
  await expectError(await node.get('/api/blockn/abc'), 400, 'BAD_REQUEST_PARAM', 'bad height');
  await expectError(await node.get('/api/block/xyz'), 400, 'BAD_REQUEST_PARAM', 'bad block id');
  await expectError(await node.get('/api/blockhash/-1'), 400, 'BAD_REQUEST_PARAM', 'negative height');
});

test("a block answer shows a transaction's extra data (e) as JSON: floats as numbers, bytes as 0x hex, nested maps and lists", async () => {
  const t = now();
  const extra = { msg: 'rent', rate: new MsgFloat(2.5), n: 7, raw: new Uint8Array([1, 2]), nested: { list: [new MsgFloat(0.25, 32), 'x'] } };
  const body = genericBody({ from: dev.address, to: node.chain.accounts[1].address, seq: ++seq, timestamp: t, payload: [pay(1), fee(50)], extra });
  const sent = await node.submit(sign(body, [dev.key], t));
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  const status = await waitStatus(node, sent.body.txid);
  assert.is(status.ok, true, JSON.stringify(status));
  const tx = (await node.get(`/api/block/${status.block}`)).body.block.txs[sent.body.txid];
  assert.equal(tx.txext, { msg: 'rent', rate: 2.5, n: 7, raw: '0x0102', nested: { list: [0.25, 'x'] } });
});

test('where: this chain, another chain', async () => {
  const here = await node.get(`/api/where/${addressToText(dev.address)}`);
  assert.is(here.body.result, 'found');
  assert.is(here.body.chain, 1);
  const there = await node.get(`/api/where/${addressToText(makeAddress({ group: 10, block: 5, wallet: 1 }))}`);
  assert.is(there.body.result, 'other_chain');
  assert.is(there.body.chain, 5);
});

test('CORS on every answer, OPTIONS answered, 404 and 405', async () => {
  const pre = await fetch(`${node.url}/api/tx/new`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  assert.is(pre.status, 204);
  assert.is(pre.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  assert.match(pre.headers.get('access-control-allow-methods')!, /POST/);
  assert.match(pre.headers.get('access-control-allow-headers')!, /content-type/);
  for (const [path, init] of [
    ['/api/settings', {}],
    ['/api/nope', {}],
    ['/api/tx/new', { method: 'POST', body: 'x' }],
  ] as const) {
    const res = await fetch(node.url + path, init);
    assert.is(res.headers.get('access-control-allow-origin'), '*', path);
    await res.arrayBuffer();
  }
  await expectError(await node.get('/api/nope'), 404, 'ROUTE_NOT_FOUND', 'unknown route');
  const wrong = await node.get('/api/tx/new');
  await expectError(wrong, 405, 'METHOD_NOT_ALLOWED', 'GET on POST route');
  assert.match(wrong.headers.get('allow')!, /POST/);
  await expectError(await node.post('/api/settings', '{}'), 405, 'METHOD_NOT_ALLOWED', 'POST on GET route');
  await expectError(await node.get('/api/address/%E0%A4%A'), 400, 'BAD_REQUEST_PARAM', 'bad percent-encoding');
});

test('every bad submission: 4xx with a stable code; the ledger does not change', async () => {
  await node.chain.settle();
  const before = ledgerFingerprint();
  const other = generateSecretKey();
  const to = node.chain.accounts[1].address;
  const t = now();
  const body = genericBody({ from: dev.address, to, seq: 1000, timestamp: t, payload: [pay(1)] });
  const goodSig = signBsig(body, dev.key, { timestamp: t });
  const unknownSender = makeAddress({ group: 10, block: 1, wallet: 7777 });
  const regBody = minedRegisterBody(publicKeyOf(other), t, 8);
  const cases: [string, () => Promise<{ status: number; body: any }>, number, string][] = [
    ['not JSON', () => node.post('/api/tx/new', '{tx:'), 400, 'NOT_JSON'],
    ['empty body', () => node.post('/api/tx/new', ''), 400, 'NOT_JSON'],
    ['no tx', () => node.post('/api/tx/new', '{}'), 400, 'MISSING_TX'],
    ['tx not a string', () => node.post('/api/tx/new', '{"tx":5}'), 400, 'MISSING_TX'],
    ['JSON array', () => node.post('/api/tx/new', '[1]'), 400, 'MISSING_TX'],
    ['bad base64', () => node.submit('!!!!'), 400, 'BAD_BASE64'],
    ['bad hex', () => node.submit('0xzz'), 400, 'BAD_HEX'],
    ['not MessagePack', () => node.submit(bytesToBase64(Uint8Array.of(0xc1))), 400, 'MSGPACK_INVALID'],
    ['truncated MessagePack', () => node.submit(bytesToBase64(Uint8Array.of(0x83, 0xa4))), 400, 'MSGPACK_TRUNCATED'],
    ['trailing bytes', () => node.submit(bytesToBase64(concatBytes(Buffer.from(goodTransfer(), 'base64'), Uint8Array.of(0)))), 400, 'MSGPACK_TRAILING'],
    ['container not a map', () => node.submit(b64([1, 2, 3])), 400, 'TX_NOT_MAP'],
    ['container without sig', () => node.submit(b64({ body, ver: 2 })), 400, 'TX_MISSING_KEY'],
    ['body not bin', () => node.submit(b64({ body: 'x', sig: [goodSig], ver: 2 })), 400, 'TX_BAD_FIELD'],
    ['version 3', () => node.submit(container(body, [goodSig], 3)), 400, 'TX_BAD_VERSION'],
    ['body not a map', () => node.submit(container(encodeMsgpack([1]), [goodSig])), 400, 'BODY_NOT_MAP'],
    ['body without seq', () => node.submit(container(encodeMsgpack({ k: 16, f: dev.address, to, t, p: [] }), [goodSig])), 400, 'BODY_MISSING_FIELD'],
    ['negative amount', () => node.submit(container(encodeMsgpack({ k: 16, f: dev.address, to, s: 1, t, p: [[0, 'SK', -5]] }), [goodSig])), 400, 'BODY_BAD_FIELD'],
    ['unknown kind', () => node.submit(container(encodeMsgpack({ k: 99 }), [goodSig])), 400, 'BODY_UNKNOWN_KIND'],
    ['deploy without its contract (e)', () => node.submit(container(encodeMsgpack({ k: 18, f: dev.address, s: 1, t, p: [] }), [goodSig])), 400, 'BODY_MISSING_FIELD'],
    ['deploy for another vm', () => node.submit(container(encodeMsgpack({ k: 18, f: dev.address, s: 1, t, p: [], e: { code: Uint8Array.of(0x60), vm: 'wasm' } }), [goodSig])), 400, 'BODY_BAD_FIELD'],
    ['lstore', () => node.submit(container(encodeMsgpack({ k: 22, f: dev.address, s: 1, t, p: [] }), [goodSig])), 400, 'KIND_UNSUPPORTED'],
    ['no signature', () => node.submit(container(body, [])), 400, 'SIG_MISSING'],
    ['too many signatures', () => node.submit(container(body, Array(5).fill(goodSig))), 400, 'TOO_MANY_SIGNATURES'],
    ['malformed BSig', () => node.submit(container(body, [Uint8Array.of(0xff, 0x50, 1, 2)])), 400, 'BSIG_MALFORMED'],
    ['BSig without key', () => node.submit(container(body, [Uint8Array.of(0xff, 0x02, 0x30, 0x00)])), 400, 'BSIG_MISSING_FIELD'],
    [
      'signature over another body',
      () => node.submit(container(body, [signBsig(genericBody({ from: dev.address, to, seq: 1001, timestamp: t, payload: [] }), dev.key, { timestamp: t })])),
      400,
      'SIG_INVALID',
    ],
    ['signed by another key', () => node.submit(sign(body, [other], t)), 400, 'SENDER_KEY_MISMATCH'],
    ['unknown sender', () => node.submit(transfer({ key: other, from: unknownSender, to, seq: 1, t, payload: [pay(1)] })), 400, 'SENDER_UNKNOWN'],
    ['keyless sender', () => node.submit(transfer({ key: other, from: node.chain.feeAddress, to, seq: 1, t, payload: [pay(1)] })), 400, 'SENDER_KEY_MISMATCH'],
    ['destination on another chain', () => node.submit(goodTransfer({ to: makeAddress({ group: 10, block: 2, wallet: 1 }) })), 400, 'WRONG_CHAIN'],
    ['timestamp two hours old', () => node.submit(goodTransfer({ t: t - 7_200_000 })), 400, 'TIMESTAMP_OUT_OF_WINDOW'],
    ['timestamp an hour ahead', () => node.submit(goodTransfer({ t: now() + 3_660_000 })), 400, 'TIMESTAMP_OUT_OF_WINDOW'],
    ['register h of another key', () => node.submit(sign(regBody, [generateSecretKey()], t)), 400, 'REGISTER_KEYS_MISMATCH'],
    ['register below the difficulty', () => node.submit(registerBelow(other, t, 8)), 400, 'POW_TOO_LOW'],
    ['transaction too large', () => node.submit(goodTransfer({ payload: [pay(1), ...Array.from({ length: 400 }, (_, i) => pay(i, `C${i}`))] })), 413, 'TX_TOO_LARGE'],
    ['request too large', () => node.post('/api/tx/new', JSON.stringify({ tx: 'A'.repeat(9000) })), 413, 'REQUEST_TOO_LARGE'],
  ];
  for (const [label, call, status, error] of cases) {
    const res = await call();
    await expectError(res, status, error, label);
  }
  await node.chain.settle();
  assert.is(ledgerFingerprint(), before, 'no bad submission changed the ledger or the mempool');
  // the same registration mined to the difficulty is accepted
  assert.is((await node.submit(register(other, t, 8))).status, 200);
});

test('mutated and random containers never get a 5xx and never crash the node', async () => {
  const good = Buffer.from(goodTransfer(), 'base64');
  let served = 0;
  for (let i = 0; i < 300; i++) {
    const bytes = Uint8Array.from(good);
    const n = 1 + (i % 4);
    for (let k = 0; k < n; k++) bytes[(i * 7919 + k * 104729) % bytes.length] ^= 1 << ((i + k) % 8);
    const input = i % 10 === 0 ? crypto.getRandomValues(new Uint8Array(i % 97)) : bytes;
    const res = await node.submit(bytesToBase64(input));
    assert.ok(res.status < 500, `case ${i}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.status >= 400) assert.is(res.body.ok, false);
    served++;
  }
  assert.is(served, 300);
  assert.is((await node.get('/api/settings')).status, 200);
});

test('malformed HTTP gets a 400 and the server keeps serving', async () => {
  const port = Number(new URL(node.url).port);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GARBAGE /\r\n\r\n'));
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  assert.match(answer, /^HTTP\/1\.1 400/);
  assert.match(answer, /"ok":false/);
  assert.is((await node.get('/api/settings')).status, 200);
});

/** Writes `request` on a fresh connection and reads until the node closes it; cut and failed after a minute. */
async function exchange(request: string): Promise<string> {
  const port = Number(new URL(node.url).port);
  let socket: net.Socket | undefined;
  try {
    return await within(
      new Promise<string>((resolve, reject) => {
        socket = net.connect(port, '127.0.0.1', () => socket!.write(request));
        let data = '';
        socket.on('data', (d) => (data += d));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      }),
      60_000,
      `the answer to ${request.split('\r\n')[0]}`,
    );
  } finally {
    // A connection left open would hold the node's close.
    socket?.destroy();
  }
}

test('HEAD of a block (a streamed answer): the headers of its GET, no body, and the connection goes on to the next request', async () => {
  const hash = (await node.get('/api/node/status')).body.status.blockchain.hash;
  const text = await exchange(`HEAD /api/block/${hash} HTTP/1.1\r\nHost: localhost\r\n\r\nGET /api/settings HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  const [head, next, ...more] = text.split(/(?=HTTP\/1\.1 )/);
  assert.is(more.length, 0, text);
  assert.match(head, /^HTTP\/1\.1 200 /);
  assert.match(head, /content-type: application\/json/i);
  assert.ok(head.endsWith('\r\n\r\n'), 'no body after the headers');
  assert.match(next, /^HTTP\/1\.1 200 /);
  assert.match(next, /"ok":true/);
});

test('a declared body past the limit and the discard bound is refused at once: 413 with the sizes, and the connection closed', async () => {
  const declared = 8192 + 16 * 1024 * 1024 + 1;
  const text = await exchange(`POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"tx":"`);
  assert.match(text, /^HTTP\/1\.1 413 /);
  assert.match(text, /connection: close/i);
  const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  assert.equal([body.error, body.details], ['REQUEST_TOO_LARGE', `limit 8192 bytes, got ${declared}`]);
});

test('503 MEMPOOL_FULL when the pending limit is reached', async () => {
  const small = await startTestNode({ instant: false, blockTime: 3_600_000, limits: { maxRequestBytes: 8192, maxTxBytes: 4096, maxSignatures: 4, maxPending: 1, maxBlockTxs: 10 } });
  try {
    const a = small.chain.accounts[0];
    const to = small.chain.accounts[1].address;
    assert.is((await small.submit(transfer({ key: a.secretKey, from: a.address, to, seq: 1, t: now(), payload: [pay(1)] }))).status, 200);
    await expectError(await small.submit(transfer({ key: a.secretKey, from: a.address, to, seq: 2, t: now(), payload: [pay(1)] })), 503, 'MEMPOOL_FULL', 'full');
  } finally {
    await small.close();
  }
});

test.run();
