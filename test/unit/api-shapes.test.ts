// The API's answer shapes as pure functions (docs/guide/node-api.md, spec 2.1/2.2 and the
// reference node's field names): the settings tree and its sub-paths, chain_nodes, the routes
// this node does not serve, the container read from POST tx/new, a wallet's view, a block's
// view of a stored wallet, MessagePack values as JSON, and the reference's address form.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TpkitError } from '../../src/errors.js';
import { defaultConfig } from '../../src/node/config/config.js';
import { settingsAt, settingsTree } from '../../src/node/api/chain-settings.js';
import { chainNodes } from '../../src/node/api/discovery.js';
import { addressSubPath, createUnservedRoutes } from '../../src/node/api/unserved-routes.js';
import { containerFromRequest } from '../../src/node/api/routes.js';
import { headerView, msgValueJson, storedWalletView, walletInfo, withAddress, withReferenceAddresses } from '../../src/node/api/views.js';
import { MsgExt, MsgFloat, Uint64 } from '../../src/codec/msgpack-types.js';
import { publicKeyToPem } from '../../src/crypto/pem.js';
import { hexToBytes } from '../../src/bytes.js';
import { toJson } from '../../src/node/base/json.js';
import type { RequestContext } from '../../src/node/http/server.js';
import type { BlockRecord } from '../../src/node/ledger/block.js';

function throwsCode(fn: () => unknown, code: string): TpkitError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, TpkitError);
    assert.is((err as TpkitError).code, code, (err as Error).message);
    return err as TpkitError;
  }
  throw assert.unreachable(`expected ${code}`);
}

test('settings: the reference layout, block time in seconds, fees per currency, the fee address as hex', () => {
  const config = defaultConfig();
  const fee = hexToBytes('8001400001000008');
  const tree = settingsTree({ config, feeAddress: fee, allocLast: 7 });
  assert.equal(settingsAt(tree, ['current', 'chain']), { blocktime: 1, minsig: 1, allowempty: 0 });
  assert.equal(settingsAt(tree, ['current', 'register']), { diff: 16 });
  assert.equal(settingsAt(tree, ['current', 'allocblock']), { group: 10, block: 1, last: 7 });
  assert.equal(settingsAt(tree, ['current', 'fee', 'params']), { feeaddr: '8001400001000008', notip: 1 });
  assert.equal(settingsAt(tree, ['current', 'fee', 'SK']), { base: 1n, baseextra: 64n, kb: 1000n });
  assert.equal(settingsAt(tree, ['current', 'gas']), { SK: { tokens: 1, gas: 1000 } });
  assert.is(settingsAt(tree, ['current', 'nosk']), 1);
  assert.equal(settingsAt(tree, ['chains']), [1]);
  assert.equal(settingsAt(tree, ['nodechain']), { tpkit: 1 });
  const instant = settingsTree({ config: { ...config, instant: true, blockTime: 5000, chain: 9, nodeName: 'n9', difficulty: 0, allocGroup: 3 }, feeAddress: fee, allocLast: 0 });
  assert.is(settingsAt(instant, ['current', 'chain', 'blocktime']), 0, 'instant blocks: no block time');
  assert.equal(settingsAt(instant, ['nodechain']), { n9: 9 });
  assert.equal(settingsAt(instant, ['current', 'allocblock']), { group: 3, block: 9, last: 0 });
  assert.equal(settingsAt(instant, ['current', 'register']), { diff: 0 });
  const slow = settingsTree({ config: { ...config, blockTime: 2500 }, feeAddress: fee, allocLast: 0 });
  assert.is(settingsAt(slow, ['current', 'chain', 'blocktime']), 2.5);
});

test('settingsAt: a path to nothing is undefined, never an inherited member or an array index', () => {
  const tree = { a: { b: [1, 2], c: null, d: 0 } };
  assert.equal(settingsAt(tree, []), tree);
  assert.is(settingsAt(tree, ['a', 'd']), 0);
  assert.is(settingsAt(tree, ['a', 'c']), null);
  assert.is(settingsAt(tree, ['a', 'c', 'x']), undefined);
  assert.is(settingsAt(tree, ['a', 'b', '0']), undefined);
  assert.is(settingsAt(tree, ['a', 'toString']), undefined);
  assert.is(settingsAt(tree, ['a', 'd', 'x']), undefined);
  assert.is(settingsAt(tree, ['x']), undefined);
});

test('chain_nodes: the node under its name, by the Host it was reached at and by its listening URL', () => {
  assert.equal(chainNodes('tpkit', { url: 'http://127.0.0.1:43280' }, 'localhost:43280'), { tpkit: { host: ['http://localhost:43280'], ip: ['http://127.0.0.1:43280'] } });
  assert.equal(chainNodes('n', { url: 'https://127.0.0.1:43380' }, 'localhost:43380'), { n: { host: ['https://localhost:43380'], ip: ['https://127.0.0.1:43380'] } });
  assert.equal(chainNodes('n', { url: 'http://[::1]:1' }, undefined), { n: { host: ['http://[::1]:1'], ip: ['http://[::1]:1'] } });
  assert.equal(chainNodes('n', { url: 'http://[::1]:1' }, ''), { n: { host: ['http://[::1]:1'], ip: ['http://[::1]:1'] } });
});

test('address sub-paths: lstore and verify (and below them) are 501; anything else 404', () => {
  const lstore = throwsCode(() => addressSubPath(['AA100000001677722412', 'lstore', 'k']), 'NOT_IMPLEMENTED');
  assert.is(lstore.message, 'Not implemented by this node: address/{address}/lstore: the local node keeps no LStore data or ledger proofs');
  assert.is(throwsCode(() => addressSubPath(['A', 'verify', 'x', 'y']), 'NOT_IMPLEMENTED').details, 'address/{address}/verify: the local node keeps no LStore data or ledger proofs');
  throwsCode(() => addressSubPath(['A', 'verify']), 'NOT_IMPLEMENTED');
  throwsCode(() => addressSubPath(['A', 'lstore']), 'NOT_IMPLEMENTED');
  assert.is(throwsCode(() => addressSubPath(['A', 'verifyx']), 'ROUTE_NOT_FOUND').details, '/api/address/A/verifyx');
  assert.is(throwsCode(() => addressSubPath(['A', 'other', 'x']), 'ROUTE_NOT_FOUND').details, '/api/address/A/other/x');
  assert.is(throwsCode(() => addressSubPath(['A']), 'ROUTE_NOT_FOUND').details, '/api/address/A');
  const routes = createUnservedRoutes();
  assert.is(routes.length, 1);
  assert.equal({ method: routes[0].method, prefix: routes[0].prefix, params: routes[0].params }, { method: 'GET', prefix: ['address'], params: 'rest' });
  throwsCode(() => routes[0].handler({ params: ['A', 'lstore', 'x'] } as RequestContext), 'NOT_IMPLEMENTED');
});

function ctx(body: string | Uint8Array, contentType?: string, format: 'json' | 'bin' = 'json'): RequestContext {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { method: 'POST', params: [], query: new URLSearchParams(), headers: contentType ? { 'content-type': contentType } : {}, body: bytes, format };
}

test('tx/new: raw MessagePack under a binary type or .bin; else JSON {"tx": base64 or 0x hex}', () => {
  const raw = Uint8Array.of(0x81, 0xa1, 0x61, 0x01);
  for (const type of ['application/msgpack', 'application/x-msgpack', 'application/vnd.msgpack', 'application/octet-stream', 'Application/MsgPack; q=1']) {
    assert.is(containerFromRequest(ctx(raw, type)), raw, type);
  }
  assert.is(containerFromRequest(ctx(raw, 'text/plain', 'bin')), raw);
  assert.equal([...containerFromRequest(ctx('{"tx":"AQID"}', 'application/json'))], [1, 2, 3]);
  assert.equal([...containerFromRequest(ctx('{"tx":"0x0a0B"}'))], [10, 11]);
  assert.equal([...containerFromRequest(ctx('{"tx":"0X0c"}'))], [12]);
  // A body that is a view into a larger buffer is read from its own bytes only.
  const big = Buffer.from('xxxx{"tx":"AQID"}yyyy');
  assert.equal([...containerFromRequest(ctx(big.subarray(4, big.length - 4)))], [1, 2, 3]);
});

test('tx/new: each bad envelope has its code and says what was wrong', () => {
  assert.is(throwsCode(() => containerFromRequest(ctx('')), 'NOT_JSON').details, 'empty body');
  assert.is(throwsCode(() => containerFromRequest(ctx('{tx:1}')), 'NOT_JSON').details, 'expected {"tx": "<base64 container>"}');
  const cases: [string, string][] = [
    ['{}', 'expected {"tx": "<base64 container>"}'],
    ['[1]', 'expected {"tx": "<base64 container>"}'],
    ['null', 'expected {"tx": "<base64 container>"}'],
    ['{"tx":[]}', '"tx" is an array'],
    ['{"tx":""}', '"tx" is empty'],
    ['{"tx":5}', '"tx" is number'],
    ['{"tx":null}', '"tx" is object'],
  ];
  for (const [body, details] of cases) {
    const err = throwsCode(() => containerFromRequest(ctx(body)), 'MISSING_TX');
    assert.is(err.details, details, body);
    assert.is(err.field, 'tx');
  }
  throwsCode(() => containerFromRequest(ctx('{"tx":"0xzz"}')), 'BAD_HEX');
  throwsCode(() => containerFromRequest(ctx('{"tx":"!!"}')), 'BAD_BASE64');
});

const ADDRESS = hexToBytes('8001400001000008');
const KEY = hexToBytes('02' + '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');

function wallet(over: Partial<Parameters<typeof walletInfo>[0]> = {}): Parameters<typeof walletInfo>[0] {
  return {
    pubkey: KEY,
    amount: new Map([
      ['SK', 2n ** 64n],
      ['FTT', 3n],
    ]),
    seq: 4n,
    t: 1700000000000,
    lastblk: new Uint8Array(32).fill(0xab),
    preblk: new Uint8Array(32),
    height: 12,
    ...over,
  };
}

test('walletInfo: the plain wallet fields in the reference order; preblk once there is one; the key in the asked format', () => {
  const info = walletInfo(wallet(), null);
  assert.is(
    toJson(info),
    `{"amount":{"SK":18446744073709551616,"FTT":3},"lastblk":"${'AB'.repeat(32)}","lastblock":{"tx":12},"pubkey":"${Buffer.from(KEY).toString('hex').toUpperCase()}","seq":4,"t":1700000000000}`,
  );
  const pre = new Uint8Array(32);
  pre[31] = 1;
  assert.is(walletInfo(wallet({ preblk: pre }), null).preblk, '00'.repeat(31) + '01');
  assert.is(walletInfo(wallet(), 'pem').pubkey, publicKeyToPem(KEY));
  assert.is(walletInfo(wallet(), 'b64').pubkey, Buffer.from(KEY).toString('base64'));
  assert.is(walletInfo(wallet(), 'hex').pubkey, Buffer.from(KEY).toString('hex').toUpperCase());
  assert.not.ok('pubkey' in walletInfo(wallet({ pubkey: null }), 'pem'));
  const contract = walletInfo(wallet(), null, { codeSize: 345, slots: 6 });
  assert.equal([contract.vm, contract.code, contract.state, contract.contract], ['evm', 345, 6, ['evm', 'EVM']]);
  assert.not.ok('vm' in info);
});

test('withAddress: the address as 0x hex and as text, and ok, beside the result', () => {
  assert.equal(withAddress(ADDRESS, { result: 'ok', seq: 1n }), { result: 'ok', seq: 1n, address: '0x8001400001000008', txtaddress: 'AA100000001677722412', ok: true });
});

test("a block's wallet entry: amounts and seq as integers, the key uppercase, lastblk the change before this block", () => {
  const stored = { pubkey: 'abcd', amount: { SK: '18446744073709551617' }, seq: '5', t: 9, lastblk: 'ff'.repeat(32), preblk: '00'.repeat(32) };
  assert.equal(storedWalletView(stored), { amount: { SK: 18446744073709551617n }, pubkey: 'ABCD', seq: 5n, t: 9 });
  assert.equal(storedWalletView({ ...stored, pubkey: null, preblk: '0a'.repeat(32) }), { amount: { SK: 18446744073709551617n }, seq: 5n, t: 9, lastblk: '0A'.repeat(32) });
});

test('MessagePack values as JSON: bytes as 0x uppercase hex, exact integers, extensions, nested maps', () => {
  assert.is(msgValueJson(null), null);
  assert.is(msgValueJson(true), true);
  assert.is(msgValueJson(1.5), 1.5);
  assert.is(msgValueJson(2n ** 70n), 2n ** 70n);
  assert.is(msgValueJson('s'), 's');
  assert.is(msgValueJson(Uint8Array.of(0xab, 1)), '0xAB01');
  assert.is(msgValueJson(new MsgFloat(0.25, 32)), 0.25);
  assert.is(msgValueJson(new Uint64(2n ** 63n)), 2n ** 63n);
  assert.equal(msgValueJson(new MsgExt(5, Uint8Array.of(0xcd))), { ext: 5, data: '0xCD' });
  assert.equal(
    msgValueJson([
      1,
      new Map<unknown, unknown>([
        [Uint8Array.of(1, 2), 'v'],
        [7, [Uint8Array.of(0xff)]],
      ]) as never,
      { k: Uint8Array.of(0) } as never,
    ]),
    [1, { '0x0102': 'v', '7': ['0xFF'] }, { k: '0x00' }],
  );
});

test("the reference's address form: from and to as 0x lowercase, the rest untouched", () => {
  const view = { kind: 'generic', from: '8001400001000008', to: 'ABCDEF0000000001', body: 'ABCD' };
  assert.equal(withReferenceAddresses(view), { kind: 'generic', from: '0x8001400001000008', to: '0xabcdef0000000001', body: 'ABCD' });
  assert.equal(withReferenceAddresses({ kind: 'register', address: 'AB' }), { kind: 'register', address: 'AB' });
});

test('headerView copies the header and its roots: changing the view leaves the record alone', () => {
  const record = { header: { height: 3, parent: 'P', roots: { txroot: 'T', balroot: 'B' } } } as unknown as BlockRecord;
  const view = headerView(record) as { roots: { txroot: string } };
  assert.equal(view, { height: 3, parent: 'P', roots: { txroot: 'T', balroot: 'B' } });
  view.roots.txroot = 'X';
  assert.is((record.header.roots as { txroot: string }).txroot, 'T');
});

test.run();
