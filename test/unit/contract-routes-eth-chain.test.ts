// The chain as the JSON-RPC handlers see it (ethChain) and the address/{a}/{sub} storage views,
// over a chain made of plain maps: blocks by height and hash with their transaction hashes,
// events of a height range, receipts with only their own transaction's events, the misses as
// undefined (never a throw), a view run at the head and the current second, and slot keys as the
// reference shows them (the number's bytes without leading zeros, slot 0 as one zero byte).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { createContractRoutes, ethChain, type ContractChain } from '../../src/node/api/contract-routes.js';
import { timeoutError } from '../../src/node/evm/evm-thread.js';
import { RpcError } from '../../src/node/evm/jsonrpc.js';
import { TpkitError } from '../../src/errors.js';
import type { JsonStream, RequestContext } from '../../src/node/http/server.js';
import type { BlockRecord } from '../../src/node/ledger/block.js';
import type { BlockLogs, StoredLog } from '../../src/node/evm/logs.js';
import { evmKey } from '../../src/node/evm/address.js';
import { slotKey } from '../../src/node/evm/state.js';
import { logsKey, receiptKey } from '../../src/node/store/keys.js';
import { silentLogger } from '../../src/node/base/log.js';

const hash = (n: number) => n.toString(16).toUpperCase().padStart(64, 'A');
const block = (height: number, txs: string[]): BlockRecord =>
  ({
    hash: hash(height),
    header: { chain: 1, height, parent: hash(height - 1), roots: { txroot: 'C'.repeat(64), balroot: 'D'.repeat(64), mean_time: '' }, ver: 2 },
    time: 1_700_000_000_000 + height,
    txs,
    failed: {},
    registered: {},
    bals: {},
  }) as BlockRecord;
const log = (txid: string, logIndex: number): StoredLog => ({ txid, txIndex: 0, logIndex, address: 'ab'.repeat(20), caller: 'cd'.repeat(20), topics: ['ef'.repeat(32)], data: '01' });

const blocks = [block(0, []), block(1, ['tx-a', 'tx-missing']), block(2, ['tx-b', 'tx-c']), block(3, ['tx-d'])];
const containers = new Map([
  ['tx-a', new Uint8Array([1, 2, 3])],
  ['tx-b', new Uint8Array([4])],
  ['tx-c', new Uint8Array([5, 6])],
  ['tx-d', new Uint8Array([0x85, 0])],
]);
const logsAt = new Map<number, BlockLogs>([
  [1, { height: 1, hash: hash(1), logs: [log('tx-a', 0)] }],
  [2, { height: 2, hash: hash(2), logs: [log('tx-b', 0), log('tx-c', 1), log('tx-b', 2)] }],
  [3, { height: 3, hash: hash(3), logs: [log('tx-d', 0)] }],
]);
const receipts = new Map([
  ['bb'.repeat(32), { hash: 'bb'.repeat(32), txid: 'tx-b', height: 2, index: 0, from: '11'.repeat(20), to: '22'.repeat(20), status: 1, gasUsed: '21000' }],
  ['99'.repeat(32), { hash: '99'.repeat(32), txid: 'tx-z', height: 9, index: 0, from: '11'.repeat(20), to: null, status: 1, gasUsed: '1' }],
  ['aa'.repeat(32), { hash: 'aa'.repeat(32), txid: 'tx-missing', height: 1, index: 1, from: '11'.repeat(20), to: null, status: 1, gasUsed: '1' }],
  ['dd'.repeat(32), { hash: 'dd'.repeat(32), txid: 'tx-d', height: 3, index: 0, from: '11'.repeat(20), to: null, status: 1, gasUsed: '1' }],
]);
const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const stored = new Map<string, Uint8Array>([...[...logsAt].map(([h, l]) => [logsKey(h), encode(l)] as const), ...[...receipts].map(([h, r]) => [receiptKey(h), encode(r)] as const)]);

const contractAddress = addressFromText('AA100000001677722412');
const contractKey = evmKey(contractAddress);
const slots = new Map([
  [slotKey(0n), new Uint8Array([0x44])],
  [slotKey(2n), new Uint8Array([0x0f, 0x42, 0x40])],
  [slotKey(0x1234n), new Uint8Array([1])],
]);
const viewRuns: { gasLimit: bigint; signal: AbortSignal | undefined }[] = [];
let viewFailure: Error | undefined;

const chain = {
  ethChainId: 1_000_000_001n,
  height: 3,
  contracts: {
    code: new Map([[contractKey, new Uint8Array([0x60, 0x00])]]),
    async *slots(key: string) {
      if (key === contractKey) yield* slots;
    },
    logHeightsIn: (from: number, to: number) => [...logsAt.keys()].filter((h) => h >= from && h <= to),
  },
  gasRates: new Map(),
  store: { get: async (key: string) => stored.get(key) },
  view: async (m: { gasLimit: bigint }, signal?: AbortSignal) => {
    if (viewFailure) throw viewFailure;
    viewRuns.push({ gasLimit: m.gasLimit, signal });
    return { result: 'return' };
  },
  evmLedger: () => ({}),
  blockAt: async (height: number) => blocks[height],
  blockByHash: async (h: string) => blocks.find((b) => b.hash === h.toUpperCase()),
  txContainer: async (txid: string) => containers.get(txid),
  mempool: { txidForBody: () => undefined, get: () => undefined, eth: { pendingNonce: () => 0n } },
  config: { minGasPrice: 1, limits: { maxLogResults: 10_000, maxLogBlockRange: 100_000, blockGasLimit: 30_000_000 } },
} as unknown as ContractChain;
const eth = ethChain(chain);

/** Every block an async iterable gives. */
async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

test('a block by height and by hash: lowercase hashes, and each transaction as the keccak of its container (empty when the container is gone)', async () => {
  const byHeight = await eth.block(1);
  assert.equal(byHeight, {
    height: 1,
    hash: hash(1).toLowerCase(),
    parent: hash(0).toLowerCase(),
    txroot: 'c'.repeat(64),
    balroot: 'd'.repeat(64),
    time: blocks[1].time,
    txHashes: [bytesToHex(keccak_256(new Uint8Array([1, 2, 3]))), ''],
  });
  assert.equal(await eth.block(hash(1).toLowerCase()), byHeight);
  assert.is((await eth.block(2))?.height, 2);
  assert.is(await eth.block(7), undefined);
  assert.is(await eth.block('ee'.repeat(32)), undefined);
});

test('logs(from, to): the stored events of the heights in the range, in order, block hashes lowercase', async () => {
  assert.equal(
    (await all(eth.logs(2, 3))).map((l) => [l.height, l.hash, l.logs.length]),
    [
      [2, hash(2).toLowerCase(), 3],
      [3, hash(3).toLowerCase(), 1],
    ],
  );
  assert.equal(
    (await all(eth.logs(1, 1))).map((l) => l.height),
    [1],
  );
  assert.equal(await all(eth.logs(4, 9)), []);
});

test('a receipt carries only its own transaction events, its block hash lowercase and its gas as a bigint', async () => {
  const r = await eth.receipt('bb'.repeat(32));
  assert.ok(r);
  assert.equal([r.txid, r.height, r.blockHash, r.gasUsed, r.status], ['tx-b', 2, hash(2).toLowerCase(), 21000n, 1]);
  assert.equal(
    r.logs.map((l) => [l.txid, l.logIndex]),
    [
      ['tx-b', 0],
      ['tx-b', 2],
    ],
  );
  assert.equal(
    (await eth.receipt('dd'.repeat(32)))?.logs.map((l) => l.txid),
    ['tx-d'],
  );
});

test('misses are undefined: an unknown hash, a receipt whose block is gone, a transaction whose container is gone or not Ethereum', async () => {
  assert.is(await eth.receipt('ee'.repeat(32)), undefined);
  assert.is(await eth.receipt('99'.repeat(32)), undefined, 'height 9 is above the head');
  assert.is(await eth.transaction('ee'.repeat(32)), undefined);
  assert.is(await eth.transaction('99'.repeat(32)), undefined, 'no container and no block');
  assert.is(await eth.transaction('aa'.repeat(32)), undefined, 'the block is there, the container is not');
  // tx-d's container starts as a MessagePack map (0x85): a tpkit container, not an Ethereum transaction.
  assert.is(await eth.transaction('dd'.repeat(32)), undefined);
});

test("a view goes to the chain's bounded view with the request's signal; a stopped or refused view is geth's -32000", async () => {
  viewRuns.length = 0;
  const hangUp = new AbortController();
  await ethChain(chain, hangUp.signal).view({ caller: '11'.repeat(20), data: new Uint8Array(0), value: 0n, gasLimit: 7n });
  assert.equal(viewRuns, [{ gasLimit: 7n, signal: hangUp.signal }]);
  for (const err of [timeoutError(5000), new TpkitError('EVM_BUSY', 'busy')]) {
    viewFailure = err;
    const refused = await eth.view({ caller: '11'.repeat(20), data: new Uint8Array(0), value: 0n, gasLimit: 1n }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof RpcError);
    assert.equal([refused.code, refused.message], [-32000, err.shortMessage]);
  }
  viewFailure = undefined;
  assert.is(timeoutError(5000).shortMessage, 'execution aborted (timeout = 5s)');
});

const { address, routes } = createContractRoutes(chain, silentLogger);
const context = (params: string[]) => ({ method: 'GET', params, query: new URLSearchParams(), headers: {}, body: new Uint8Array(0), format: 'json' }) as unknown as RequestContext;
const ask = async (sub: string, wallet = 'AA100000001677722412') => JSON.parse((await address(context([wallet, sub]))).json as string) as { [key: string]: unknown };
/** The text of a streamed answer, its chunks gathered. */
const streamed = async (json: unknown) => {
  const chunks: Buffer[] = [];
  await (json as JsonStream).stream(async (c) => void chunks.push(...c));
  return Buffer.concat(chunks).toString('utf8');
};
const refusal = async (answer: () => unknown) => {
  try {
    await answer();
  } catch (err) {
    return [(err as { code: string }).code, (err as { details: string }).details];
  }
  throw new Error('answered, expected a refusal');
};

test('statekeys and statejson name slots by their bytes without leading zeros: slot 0 is one zero byte', async () => {
  assert.equal((await ask('statekeys')).keys, ['0x00', '0x02', '0x1234']);
  assert.equal(await ask('statejson'), {
    [Buffer.from([0]).toString('base64')]: Buffer.from([0x44]).toString('base64'),
    [Buffer.from([2]).toString('base64')]: Buffer.from([0x0f, 0x42, 0x40]).toString('base64'),
    [Buffer.from([0x12, 0x34]).toString('base64')]: Buffer.from([1]).toString('base64'),
  });
});

test('address/{a}/{sub}: a wallet without code is WALLET_NOT_FOUND for every storage view; an unknown view is ROUTE_NOT_FOUND', async () => {
  for (const sub of ['code', 'state', 'statejson', 'statekeys']) {
    assert.equal(await refusal(() => ask(sub, 'AA010000003355443516')), ['WALLET_NOT_FOUND', 'no contract at AA010000003355443516'], sub);
  }
  assert.equal(await refusal(() => ask('storage')), ['ROUTE_NOT_FOUND', '/api/address/AA100000001677722412/storage']);
});

test('logs/{hash}: a known block (its hash may hold zeros) answers its events; bad ids are BAD_REQUEST_PARAM, unknown ones BLOCK_NOT_FOUND', async () => {
  const logs = routes.find((r) => r.prefix.join('/') === 'logs')!.handler;
  const events = async (id: string) => (JSON.parse(await streamed((await logs(context([id]))).json)) as { events: unknown[] }).events.length;
  assert.is(await events(hash(2)), 3);
  assert.is(await events('0x' + hash(0).toLowerCase()), 0, 'genesis, its hash ending in 0');
  assert.equal(await refusal(() => logs(context(['12']))), ['BAD_REQUEST_PARAM', 'expected a 64-digit hex hash, got "12"']);
  assert.equal(await refusal(() => logs(context(['e'.repeat(64)]))), ['BLOCK_NOT_FOUND', `no block ${'e'.repeat(64)}`]);
});

test('/jsonrpc: an answer over 1 MiB (a receipt of thousands of events) is streamed in chunks of at most 64 KiB, the bytes JSON.stringify writes; a small one is one string', async () => {
  // Routes of their own: the shared ones may still hold block 3's record as first read.
  const jsonrpc = createContractRoutes(chain, silentLogger).routes.find((r) => r.prefix.join('/') === 'jsonrpc')!.handler;
  const ask = (method: string, params: unknown[]) => jsonrpc({ ...context([]), method: 'POST', body: new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params })) });
  const small = await ask('eth_getTransactionReceipt', ['0x' + 'bb'.repeat(32)]);
  assert.is(typeof small.json, 'string');
  const before = stored.get(logsKey(3))!;
  // tx-d's block with 5,000 events of 100 bytes of data each: a receipt of about 2.4 MiB.
  const many = Array.from({ length: 5000 }, (_, i) => ({ ...log('tx-d', i), data: '5a'.repeat(100) }));
  stored.set(logsKey(3), encode({ height: 3, hash: hash(3), logs: many }));
  try {
    const big = await ask('eth_getTransactionReceipt', ['0x' + 'dd'.repeat(32)]);
    const chunks: Buffer[] = [];
    await (big.json as JsonStream).stream(async (c) => void chunks.push(...c));
    const text = Buffer.concat(chunks).toString('utf8');
    assert.ok(chunks.length > 16 && chunks.every((c) => c.length <= 64 * 1024), `${chunks.length} chunks`);
    const answer = JSON.parse(text) as { id: number; result: { logs: { data: string }[] } };
    assert.equal([answer.id, answer.result.logs.length, answer.result.logs[4999].data], [7, 5000, '0x' + '5a'.repeat(100)]);
    assert.is(text, JSON.stringify(answer), 'the bytes JSON.stringify writes');
  } finally {
    stored.set(logsKey(3), before);
  }
});

test.run();
