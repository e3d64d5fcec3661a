// The node as an attacker meets it: one table of bad inputs across the envelope, byte
// encodings, container, body, amounts, signatures, registration, seq and time, paths and raw
// HTTP. Every row asserts the answer (status and stable code, or the failure reason a block
// gives it), that the node still answers, and that a known wallet's balances and seq did not
// change.
import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToBase64, concatBytes } from '../../src/bytes.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { registerBody } from '../../src/codec/body-register.js';
import { encodeMsgpack } from '../../src/codec/msgpack-write.js';
import { MsgFloat, type MsgValue } from '../../src/codec/msgpack-types.js';
import { signBsig } from '../../src/crypto/bsig.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { API_ERRORS } from '../../src/node/http/api-errors.js';
import { fee, minedRegisterBody, pay, register, registerBelow, sign, startTestNode, transfer, waitStatus, type TestNode } from '../helpers/node-helpers.js';

type Answer = { status: number; body: any; reason?: string };
type Expect =
  | { status: number; error: keyof typeof API_ERRORS }
  /** Accepted, then failed in its block with this reason. */
  | { fails: string }
  /** Accepted and applied; the check says what must (not) have happened. */
  | { applied: (res: any) => Promise<void> }
  /** The client hung up: no answer is expected. */
  | { noAnswer: true };
type Row = [category: string, label: string, request: () => Promise<Answer | undefined>, expect: Expect];

let node: TestNode;
let port: number;
const DIFFICULTY = 8;

const b64 = (value: MsgValue) => bytesToBase64(encodeMsgpack(value));
const container = (body: Uint8Array, sigs: Uint8Array[], ver: MsgValue = 2) =>
  b64(
    new Map<string, MsgValue>([
      ['body', body],
      ['sig', sigs],
      ['ver', ver],
    ]),
  );
const rawTx = (bytes: Uint8Array) => bytesToBase64(bytes);

/** Sends bytes on a fresh socket and parses the one answer, or undefined if the node closes without one. */
function raw(request: string | Buffer, hangUpAfterMs?: number): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    let data = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
      if (hangUpAfterMs !== undefined) setTimeout(() => socket.destroy(), hangUpAfterMs);
    });
    // The answer is complete once its declared length has arrived; the socket may stay open.
    const complete = (): Answer | undefined => {
      const split = data.indexOf('\r\n\r\n');
      if (!data.startsWith('HTTP/1.1 ') || split < 0) return undefined;
      const length = Number(/content-length: *(\d+)/i.exec(data.slice(0, split))?.[1] ?? 0);
      if (data.length < split + 4 + length) return undefined;
      return { status: Number(data.slice(9, 12)), reason: data.slice(13, data.indexOf('\r\n')), body: JSON.parse(data.slice(split + 4, split + 4 + length)) };
    };
    socket.on('data', (d) => {
      data += d.toString('latin1');
      const answer = complete();
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('close', () => resolve(complete()));
    socket.on('error', () => {});
  });
}

const post = (tx: string) => () => node.submit(tx);
const postBody = (body: string | Uint8Array, type?: string) => () => node.post('/api/tx/new', body, type);
const get = (path: string) => () => node.get(path);

async function snapshot(address: Uint8Array): Promise<string> {
  const { status, body } = await node.get(`/api/address/${addressToText(address)}`);
  assert.is(status, 200);
  return JSON.stringify({ amount: body.info.amount, seq: body.info.seq, t: body.info.t });
}

test.before(async () => {
  node = await startTestNode({ accounts: 3, difficulty: DIFFICULTY, limits: { maxRequestBytes: 64 * 1024, maxTxBytes: 4096, maxSignatures: 4, maxPending: 100_000, maxBlockTxs: 1000 } });
  port = Number(new URL(node.url).port);
});

test.after(async () => {
  await node.close();
});

test('a table of bad inputs: each gets its typed answer, the node keeps answering, a known wallet is untouched', async () => {
  const [watched, spender, other] = node.chain.accounts;
  const to = other.address;
  const stranger = generateSecretKey();
  let t = Date.now();
  // Give the watched wallet a seq and a last timestamp, so replays have something to collide with.
  const setup = await node.submit(transfer({ key: watched.secretKey, from: watched.address, to, seq: 5, t: ++t, payload: [pay(1), fee(5)] }));
  assert.is((await waitStatus(node, setup.body.txid)).res, 'ok');
  const watchedT = t;
  let spenderSeq = 0;

  const body = genericBody({ from: watched.address, to, seq: 1000, timestamp: ++t, payload: [pay(1), fee(5)] });
  const goodSig = signBsig(body, watched.secretKey, { timestamp: t });
  const good = (seq: number | bigint, payload = [pay(1), fee(5)], at = ++t, target = to) => transfer({ key: watched.secretKey, from: watched.address, to: target, seq, t: at, payload });
  const goodBytes = Buffer.from(good(6), 'base64');
  const withKeyOf = (sig: Uint8Array, key: Uint8Array) => {
    const at = Buffer.from(sig).indexOf(Buffer.from(publicKeyOf(watched.secretKey)));
    const out = Uint8Array.from(sig);
    out.set(key, at);
    return out;
  };
  const badDer = Uint8Array.from(goodSig);
  badDer[2] = 0x31; // the DER SEQUENCE tag
  const regBody = minedRegisterBody(publicKeyOf(stranger), t, DIFFICULTY);
  const regSig = signBsig(regBody, stranger, { timestamp: t });
  const offCurve = concatBytes(Uint8Array.of(2), new Uint8Array(32).fill(0xff));
  const deepNesting = concatBytes(new Uint8Array(3000).fill(0x91), Uint8Array.of(0xc0));
  const duplicateKey = Uint8Array.of(0x82, 0xa3, 0x76, 0x65, 0x72, 0x02, 0xa3, 0x76, 0x65, 0x72, 0x02);
  const unknownSender = makeAddress({ group: 10, block: 1, wallet: 77_777 });
  const freshAddress = makeAddress({ group: 10, block: 1, wallet: 88_888 });
  const otherChain = makeAddress({ group: 10, block: 9, wallet: 1 });
  const watchedText = addressToText(watched.address);
  const bigPayload = Array.from({ length: 700 }, (_, i) => pay(i + 1, `C${i}`));
  const upload = (length: number, sent: string) => `POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${sent}`;
  const chunked = (sent: string) =>
    `POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${sent.length.toString(16)}\r\n${sent}\r\n0\r\n\r\n`;

  const rows: Row[] = [
    // the JSON envelope
    ['envelope', 'not JSON', postBody('{tx:'), { status: 400, error: 'NOT_JSON' }],
    ['envelope', 'empty body', postBody(''), { status: 400, error: 'NOT_JSON' }],
    ['envelope', 'no "tx"', postBody('{}'), { status: 400, error: 'MISSING_TX' }],
    ['envelope', '"tx" a number', postBody('{"tx":5}'), { status: 400, error: 'MISSING_TX' }],
    ['envelope', '"tx" empty', postBody('{"tx":""}'), { status: 400, error: 'MISSING_TX' }],
    ['envelope', '"tx" an object', postBody('{"tx":{"body":"x"}}'), { status: 400, error: 'MISSING_TX' }],
    ['envelope', 'a JSON array', postBody('[1,2]'), { status: 400, error: 'MISSING_TX' }],
    ['envelope', 'JSON null', postBody('null'), { status: 400, error: 'MISSING_TX' }],
    ['envelope', 'JSON text under a MessagePack type', postBody('{"tx":"AA=="}', 'application/msgpack'), { status: 400, error: 'MSGPACK_TRAILING' }],
    // byte encodings
    ['bytes', 'base64 with a bad character', post('!!!!'), { status: 400, error: 'BAD_BASE64' }],
    ['bytes', 'base64 with wrong padding', post('QQ='), { status: 400, error: 'BAD_BASE64' }],
    ['bytes', 'base64 of impossible length', post('QUJDR'), { status: 400, error: 'BAD_BASE64' }],
    ['bytes', 'hex with a bad digit', post('0xzz'), { status: 400, error: 'BAD_HEX' }],
    ['bytes', 'hex of odd length', post('0xabc'), { status: 400, error: 'BAD_HEX' }],
    ['bytes', 'non-ASCII text', post('éé'), { status: 400, error: 'BAD_BASE64' }],
    // the MessagePack container
    ['container', 'a byte that starts no value', post(rawTx(Uint8Array.of(0xc1))), { status: 400, error: 'MSGPACK_INVALID' }],
    ['container', 'truncated', post(rawTx(Uint8Array.of(0x83, 0xa4))), { status: 400, error: 'MSGPACK_TRUNCATED' }],
    ['container', 'trailing bytes', post(rawTx(concatBytes(goodBytes, Uint8Array.of(0)))), { status: 400, error: 'MSGPACK_TRAILING' }],
    ['container', 'nested 3000 deep', post(rawTx(deepNesting)), { status: 400, error: 'MSGPACK_LIMIT' }],
    ['container', 'a key twice', post(rawTx(duplicateKey)), { status: 400, error: 'TX_BAD_FIELD' }],
    ['container', 'an array, not a map', post(b64([1, 2, 3])), { status: 400, error: 'TX_NOT_MAP' }],
    ['container', 'no "sig"', post(b64({ body, ver: 2 })), { status: 400, error: 'TX_MISSING_KEY' }],
    ['container', '"body" a string', post(b64({ body: 'x', sig: [goodSig], ver: 2 })), { status: 400, error: 'TX_BAD_FIELD' }],
    ['container', 'version 3', post(container(body, [goodSig], 3)), { status: 400, error: 'TX_BAD_VERSION' }],
    ['container', 'larger than the transaction limit', post(good(7, bigPayload)), { status: 413, error: 'TX_TOO_LARGE' }],
    // the body
    ['body', 'an array, not a map', post(container(encodeMsgpack([1]), [goodSig])), { status: 400, error: 'BODY_NOT_MAP' }],
    ['body', 'no seq', post(container(encodeMsgpack({ k: 16, f: watched.address, to, t, p: [] }), [goodSig])), { status: 400, error: 'BODY_MISSING_FIELD' }],
    ['body', 'a 7-byte sender', post(container(encodeMsgpack({ k: 16, f: watched.address.slice(1), to, s: 9, t, p: [] }), [goodSig])), { status: 400, error: 'BODY_BAD_FIELD' }],
    ['body', 'unknown kind 99', post(container(encodeMsgpack({ k: 99 }), [goodSig])), { status: 400, error: 'BODY_UNKNOWN_KIND' }],
    ['body', 'deploy without its contract', post(container(encodeMsgpack({ k: 18, f: watched.address, s: 9, t, p: [] }), [goodSig])), { status: 400, error: 'BODY_MISSING_FIELD' }],
    ['body', 'lstore', post(container(encodeMsgpack({ k: 22, f: watched.address, s: 9, t, p: [] }), [goodSig])), { status: 400, error: 'KIND_UNSUPPORTED' }],
    ['body', 'sender on another chain', post(transfer({ key: watched.secretKey, from: otherChain, to, seq: 8, t: ++t, payload: [pay(1)] })), { status: 400, error: 'WRONG_CHAIN' }],
    ['body', 'destination on another chain', post(good(8, undefined, undefined, otherChain)), { status: 400, error: 'WRONG_CHAIN' }],
    // amounts
    ['amounts', 'negative', post(container(encodeMsgpack({ k: 16, f: watched.address, to, s: 9, t, p: [[0, 'SK', -5]] }), [goodSig])), { status: 400, error: 'BODY_BAD_FIELD' }],
    ['amounts', 'a float', post(container(encodeMsgpack({ k: 16, f: watched.address, to, s: 9, t, p: [[0, 'SK', new MsgFloat(1.5)]] }), [goodSig])), { status: 400, error: 'BODY_FLOAT_AMOUNT' }],
    ['amounts', 'a payload item of two elements', post(container(encodeMsgpack({ k: 16, f: watched.address, to, s: 9, t, p: [[0, 'SK']] }), [goodSig])), { status: 400, error: 'BODY_BAD_PAYLOAD' }],
    ['amounts', 'more than the balance', post(good(10, [pay(10n ** 18n), fee(5)])), { fails: 'insufficient_fund' }],
    ['amounts', 'a fee below the cost', post(good(11, [pay(1), fee(0)])), { fails: 'insufficient_fee' }],
    ['amounts', 'a fee in a currency without a rate', post(good(12, [pay(1), fee(5, 'NOPE')])), { fails: 'unsupported_fee_cur' }],
    ['amounts', 'a currency the sender lacks', post(good(13, [pay(1, 'NOPE'), fee(5)])), { fails: 'insufficient_fund' }],
    [
      'amounts',
      'zero of a currency to a wallet that lacks it creates no entry',
      post(transfer({ key: spender.secretKey, from: spender.address, to: watched.address, seq: ++spenderSeq, t: ++t, payload: [pay(0, 'ZERO'), fee(5)] })),
      { applied: async () => assert.not.ok('ZERO' in (await node.get(`/api/address/${watchedText}`)).body.info.amount) },
    ],
    [
      'amounts',
      'zero to an address that does not exist creates no wallet',
      post(transfer({ key: spender.secretKey, from: spender.address, to: freshAddress, seq: spenderSeq + 1, t: ++t, payload: [pay(0), fee(5)] })),
      { applied: async () => assert.is((await node.get(`/api/address/${addressToText(freshAddress)}`)).status, 404) },
    ],
    // signatures
    ['signatures', 'none', post(container(body, [])), { status: 400, error: 'SIG_MISSING' }],
    ['signatures', 'more than the limit', post(container(body, Array(5).fill(goodSig))), { status: 400, error: 'TOO_MANY_SIGNATURES' }],
    ['signatures', 'a BSig cut short', post(container(body, [Uint8Array.of(0xff, 0x50, 1, 2)])), { status: 400, error: 'BSIG_MALFORMED' }],
    ['signatures', 'a BSig without a key', post(container(body, [Uint8Array.of(0xff, 0x02, 0x30, 0x00)])), { status: 400, error: 'BSIG_MISSING_FIELD' }],
    ['signatures', 'not strict DER', post(container(body, [badDer])), { status: 400, error: 'BSIG_BAD_DER' }],
    [
      'signatures',
      'over another body',
      post(container(body, [signBsig(genericBody({ from: watched.address, to, seq: 1001, timestamp: t, payload: [] }), watched.secretKey, { timestamp: t })])),
      { status: 400, error: 'SIG_INVALID' },
    ],
    ['signatures', 'by another key', post(sign(body, [stranger], t)), { status: 400, error: 'SENDER_KEY_MISMATCH' }],
    ['signatures', 'by a keyless wallet', post(transfer({ key: stranger, from: node.chain.feeAddress, to, seq: 1, t: ++t, payload: [pay(1)] })), { status: 400, error: 'SENDER_KEY_MISMATCH' }],
    // registration
    ['register', 'below the difficulty', post(registerBelow(stranger, t, DIFFICULTY)), { status: 400, error: 'POW_TOO_LOW' }],
    ['register', '"h" of another key', post(sign(regBody, [generateSecretKey()], t)), { status: 400, error: 'REGISTER_KEYS_MISMATCH' }],
    [
      'register',
      'signature over another body',
      post(container(regBody, [signBsig(registerBody({ publicKeys: [publicKeyOf(stranger)], timestamp: t, nonce: 1n }), stranger, { timestamp: t })])),
      { status: 400, error: 'SIG_INVALID' },
    ],
    ['register', 'a key off the curve', post(container(regBody, [withKeyOf(signBsig(regBody, watched.secretKey, { timestamp: t }), offCurve)])), { status: 400, error: 'KEY_INVALID' }],
    ['register', '"h" of the wrong length', post(container(encodeMsgpack({ k: 17, t, h: keysHash([publicKeyOf(stranger)]).slice(1), nonce: 0 }), [regSig])), { status: 400, error: 'BODY_BAD_FIELD' }],
    ['register', 'a key that already has a wallet gets that wallet', post(register(watched.secretKey, ++t, DIFFICULTY)), { applied: async (res) => assert.is(res.res, watchedText) }],
    // seq and time
    ['seq/time', 'seq 2^63', post(good(1n << 63n)), { status: 400, error: 'BODY_BAD_FIELD' }],
    ['seq/time', 'seq 2^64 - 1', post(good((1n << 64n) - 1n)), { status: 400, error: 'BODY_BAD_FIELD' }],
    ['seq/time', 'seq already used', post(good(5)), { fails: 'bad_seq' }],
    ['seq/time', 'timestamp not after the last one', post(good(20, undefined, watchedT)), { fails: 'bad_timestamp' }],
    ['seq/time', 'timestamp two hours old', post(good(21, undefined, Date.now() - 7_200_000)), { status: 400, error: 'TIMESTAMP_OUT_OF_WINDOW' }],
    ['seq/time', 'timestamp an hour and a minute ahead', post(good(22, undefined, Date.now() + 3_660_000)), { status: 400, error: 'TIMESTAMP_OUT_OF_WINDOW' }],
    ['seq/time', 'timestamp in the year 275760', post(good(23, undefined, 8.64e15)), { status: 400, error: 'TIMESTAMP_OUT_OF_WINDOW' }],
    ['seq/time', 'an unknown sender', post(transfer({ key: stranger, from: unknownSender, to, seq: 1, t: ++t, payload: [pay(1)] })), { status: 400, error: 'SENDER_UNKNOWN' }],
    // paths
    ['paths', 'address that is not one', get('/api/address/garbage'), { status: 400, error: 'ADDRESS_INVALID' }],
    ['paths', 'address with a bad checksum', get(`/api/address/${watchedText.slice(0, -1)}${watchedText.endsWith('1') ? '2' : '1'}`), { status: 400, error: 'ADDRESS_CHECKSUM' }],
    ['paths', 'address without a wallet', get(`/api/address/${addressToText(unknownSender)}`), { status: 404, error: 'WALLET_NOT_FOUND' }],
    ['paths', 'txid that is not one', get('/api/tx/status/not-a-txid!'), { status: 400, error: 'TXID_INVALID' }],
    ['paths', 'txid never accepted', get('/api/tx/status/26CmF99wJRUJHd1-c4n1'), { status: 404, error: 'TX_NOT_FOUND' }],
    ['paths', 'height that is not a number', get('/api/blockn/abc'), { status: 400, error: 'BAD_REQUEST_PARAM' }],
    ['paths', 'height beyond the head', get('/api/blockn/99999999'), { status: 404, error: 'BLOCK_NOT_FOUND' }],
    ['paths', 'block id that is not a hash', get('/api/block/xyz'), { status: 400, error: 'BAD_REQUEST_PARAM' }],
    ['paths', 'bad percent-encoding', get('/api/address/%E0%A4%A'), { status: 400, error: 'BAD_REQUEST_PARAM' }],
    ['paths', 'unknown endpoint', get('/api/nope'), { status: 404, error: 'ROUTE_NOT_FOUND' }],
    ['paths', 'unknown address sub-path', get(`/api/address/${watchedText}/secret`), { status: 404, error: 'ROUTE_NOT_FOUND' }],
    ['paths', 'GET on the submit endpoint', get('/api/tx/new'), { status: 405, error: 'METHOD_NOT_ALLOWED' }],
    ['paths', 'dot segments out of the root', () => raw('GET /../../../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n'), { status: 404, error: 'ROUTE_NOT_FOUND' }],
    // raw HTTP
    ['HTTP', 'no Host header', () => raw('GET /api/node/status HTTP/1.1\r\n\r\n'), { status: 400, error: 'HTTP_MALFORMED' }],
    ['HTTP', 'a malformed request line', () => raw('GARBAGE\r\n\r\n'), { status: 400, error: 'HTTP_MALFORMED' }],
    ['HTTP', 'CONNECT', () => raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n'), { status: 405, error: 'METHOD_NOT_ALLOWED' }],
    ['HTTP', 'TRACE', () => raw('TRACE /api/settings HTTP/1.1\r\nHost: localhost\r\n\r\n'), { status: 405, error: 'METHOD_NOT_ALLOWED' }],
    ['HTTP', 'a Content-Length that is not a number', () => raw('POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n'), { status: 400, error: 'HTTP_MALFORMED' }],
    ['HTTP', 'a bad chunk size', () => raw('POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'), { status: 400, error: 'HTTP_MALFORMED' }],
    ['HTTP', 'headers past 16 KiB', () => raw(`GET /api/settings HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), { status: 400, error: 'HTTP_MALFORMED' }],
    ['HTTP', 'an HTTP/2 preface', () => raw('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), { status: 400, error: 'HTTP_MALFORMED' }],
    ['HTTP', 'a body over the limit', () => raw(upload(200_000, JSON.stringify({ tx: 'A'.repeat(199_991) }))), { status: 413, error: 'REQUEST_TOO_LARGE' }],
    ['HTTP', 'a chunked body (no length) over the limit', () => raw(chunked('x'.repeat(80_000))), { status: 413, error: 'REQUEST_TOO_LARGE' }],
    ['HTTP', 'a declared length over the limit, body sent in full', () => raw(upload(100_000, 'x'.repeat(100_000))), { status: 413, error: 'REQUEST_TOO_LARGE' }],
    ['HTTP', 'an upload abandoned halfway', () => raw(upload(1000, '{"tx":"'), 50), { noAnswer: true }],
  ];
  assert.ok(rows.length >= 60, `${rows.length} rows`);

  const before = await snapshot(watched.address);
  for (const [category, label, request, expect] of rows) {
    const name = `${category}: ${label}`;
    const answer = await request();
    if ('noAnswer' in expect) {
      assert.is(answer, undefined, name);
    } else if ('error' in expect) {
      assert.ok(answer, `${name}: an answer`);
      assert.is(answer.status, expect.status, `${name}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
      // An answer written raw to the socket has the status line Node would write.
      if (answer.reason !== undefined) assert.is(answer.reason, STATUS_CODES[answer.status], `${name}: the status line`);
      assert.is(answer.body.ok, false, name);
      assert.is(answer.body.error, expect.error, `${name}: ${JSON.stringify(answer.body)}`);
      assert.is(answer.body.code, (API_ERRORS[expect.error] ?? { code: 10009 }).code, name);
      assert.type(answer.body.msg, 'string', name);
    } else {
      assert.is(answer?.status, 200, `${name}: ${JSON.stringify(answer?.body)}`);
      const res = await waitStatus(node, answer!.body.txid);
      if ('fails' in expect) {
        assert.is(res.error, true, `${name}: ${JSON.stringify(res)}`);
        assert.is(res.res, expect.fails, name);
      } else {
        assert.is(res.ok, true, `${name}: ${JSON.stringify(res)}`);
        await expect.applied(res);
      }
    }
    assert.is((await node.get('/api/node/status')).status, 200, `${name}: the node still answers`);
    assert.is(await snapshot(watched.address), before, `${name}: the watched wallet is unchanged`);
  }
});

test.run();
