// The JSON-RPC answers field by field over a chain whose every answer the test sets (no EVM):
// the request envelope (ids, notifications, batches and their limit), block tags and the head,
// the shapes of blocks, events, receipts and transactions as Ethereum clients read them, the
// messages eth_call and eth_estimateGas hand to the EVM, and each error code with its message
// (docs/guide/contracts.md, the JSON-RPC 2.0 specification, geth's answers).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TpkitError, ValidationError } from '../../src/errors.js';
import { handleJsonRpc, intrinsicGas, RpcError, type EthBlock, type EthChain, type EthReceipt, type EthTransaction } from '../../src/node/evm/jsonrpc.js';
import type { BlockLogs, StoredLog } from '../../src/node/evm/logs.js';
import type { EvmRun } from '../../src/node/evm/runner.js';
import { emptyChanges, type EvmAccount } from '../../src/node/evm/state.js';

const A = 'aa'.repeat(20);
const B = 'bb'.repeat(20);
const topic = (b: number) => b.toString(16).padStart(2, '0').repeat(32);
type Message = Parameters<EthChain['view']>[0];

/** A chain of `head + 1` blocks whose answers the tests set. */
class FakeChain implements EthChain {
  ethChainId = 1_000_000_005n;
  head = 3;
  price = 0n;
  accounts = new Map<string, EvmAccount>();
  codes = new Map<string, Uint8Array>();
  slots = new Map<string, Uint8Array>();
  events: BlockLogs[] = [];
  views: Message[] = [];
  /** What a view answers. */
  onView: (m: Message) => EvmRun = () => ({ end: 'return', returnData: new Uint8Array([1, 2]), gasUsed: 0n, logs: [], changes: emptyChanges() });
  onSend: (raw: Uint8Array) => Promise<string> = async () => 'ee'.repeat(32);
  receipts = new Map<string, EthReceipt>();
  transactions = new Map<string, EthTransaction>();
  logRanges: [number, number][] = [];
  logLimits?: { results: number; blocks: number };
  blockReads = 0;

  blockOf(height: number): EthBlock {
    return {
      height,
      hash: height.toString(16).padStart(64, 'a'),
      parent: (height - 1).toString(16).padStart(64, 'a'),
      txroot: '11'.repeat(32),
      balroot: '22'.repeat(32),
      time: 1_700_000_000_999 + height * 1000,
      txHashes: [topic(0xc0 + height), topic(0xd0 + height)],
    };
  }
  height() {
    return this.head;
  }
  async block(ref: number | string) {
    this.blockReads++;
    for (let h = 0; h <= this.head; h++) if (ref === h || ref === this.blockOf(h).hash) return this.blockOf(h);
    return undefined;
  }
  ledger() {
    return { account: (k: string) => this.accounts.get(k), code: (k: string) => this.codes.get(k), storage: (k: string, s: string) => this.slots.get(`${k}:${s}`) };
  }
  async view(m: Message) {
    this.views.push(m);
    return this.onView(m);
  }
  gasPrice() {
    return this.price;
  }
  async *logs(from: number, to: number) {
    this.logRanges.push([from, to]);
    yield* this.events.filter((b) => b.height >= from && b.height <= to);
  }
  pendingNonce(key: string) {
    return (this.accounts.get(key)?.nonce ?? 0n) + (this.waiting.get(key) ?? 0n);
  }
  /** Transactions of an account waiting in order for a block. */
  waiting = new Map<string, bigint>();
  sendRawTransaction(raw: Uint8Array) {
    return this.onSend(raw);
  }
  async receipt(hash: string) {
    return this.receipts.get(hash);
  }
  async transaction(hash: string) {
    return this.transactions.get(hash);
  }
}

let chain: FakeChain;
type Answer = { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code: number; message: string; data?: string } };
const rpc = async (method: string, params?: unknown) => (await handleJsonRpc(chain, { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })) as Answer;
const fresh = () => {
  chain = new FakeChain();
};
const log = (height: number, i: number, over: Partial<StoredLog> = {}): StoredLog => ({
  txid: `t${height}`,
  txIndex: i % 2,
  logIndex: i,
  address: A,
  caller: B,
  topics: [topic(height)],
  data: 'ab',
  ...over,
});

test('constant and chain answers: ids, versions, price, height, and no accounts', async () => {
  fresh();
  chain.price = 3n;
  const answers: [string, unknown][] = [
    ['eth_chainId', '0x3b9aca05'],
    ['net_version', '1000000005'],
    ['web3_clientVersion', 'tpkit'],
    ['eth_blockNumber', '0x3'],
    ['eth_gasPrice', '0x3'],
    ['eth_maxPriorityFeePerGas', '0x3'],
    ['eth_accounts', []],
    ['eth_syncing', false],
  ];
  for (const [method, result] of answers) assert.equal(await rpc(method), { jsonrpc: '2.0', id: 1, result }, method);
});

test('account reads: balance and nonce in hex, zero for an unknown account; code "0x" when there is none; a storage slot as one word', async () => {
  fresh();
  chain.accounts.set(A, { balance: 255n, nonce: 7n });
  chain.codes.set(A, new Uint8Array([0x60, 0x01]));
  chain.slots.set(`${A}:${(10).toString(16).padStart(64, '0')}`, new Uint8Array([1, 2]));
  assert.is((await rpc('eth_getBalance', ['0x' + A, 'latest'])).result, '0xff');
  assert.is((await rpc('eth_getBalance', ['0x' + B])).result, '0x0', 'no tag: the head');
  assert.is((await rpc('eth_getTransactionCount', ['0x' + A, 'pending'])).result, '0x7');
  chain.waiting.set(A, 2n);
  assert.is((await rpc('eth_getTransactionCount', ['0x' + A, 'pending'])).result, '0x9', '"pending" counts the transactions waiting in order');
  assert.is((await rpc('eth_getTransactionCount', ['0x' + A, 'latest'])).result, '0x7', '"latest" does not');
  assert.is((await rpc('eth_getTransactionCount', ['0x' + B, 'latest'])).result, '0x0');
  assert.is((await rpc('eth_getCode', ['0x' + A, 'safe'])).result, '0x6001');
  assert.is((await rpc('eth_getCode', ['0x' + B, 'finalized'])).result, '0x');
  assert.is((await rpc('eth_getStorageAt', ['0x' + A, '0xa', 'latest'])).result, '0x' + '00'.repeat(30) + '0102');
  const bad = await rpc('eth_getBalance', ['0x1234', 'latest']);
  assert.equal(bad.error, { code: -32602, message: 'expected 0x and 40 hex digits, 0x and 16 hex digits, or a ThePower address, got "0x1234"' });
  assert.equal((await rpc('eth_getStorageAt', ['0x' + A, '0x' + '1'.repeat(65)])).error, { code: -32602, message: `"slot" expected a hex quantity, got "0x${'1'.repeat(65)}"` });
});

test('block tags: the head by name, number or {blockNumber}; earliest is 0; above the head is -32602; older state is -32000', async () => {
  fresh();
  for (const tag of ['latest', 'pending', 'safe', 'finalized', null, '0x3', { blockNumber: '0x3' }]) {
    assert.is((await rpc('eth_getBalance', ['0x' + A, tag])).result, '0x0', JSON.stringify(tag));
  }
  assert.equal((await rpc('eth_getBalance', ['0x' + A, '0x4'])).error, { code: -32602, message: '"block": block 4 is above the head 3' });
  assert.equal((await rpc('eth_getCode', ['0x' + A, 'earliest'])).error, { code: -32000, message: 'state at block 0 is not kept: this node answers for the head (3) only' });
  assert.equal((await rpc('eth_getTransactionCount', ['0x' + A, '0x2'])).error, { code: -32000, message: 'state at block 2 is not kept: this node answers for the head (3) only' });
  assert.equal((await rpc('eth_getBalance', ['0x' + A, 'soon'])).error, { code: -32602, message: '"block" expected a hex quantity, got "soon"' });
  chain.head = 0;
  assert.is((await rpc('eth_getCode', ['0x' + A, 'earliest'])).result, '0x', 'earliest is the head of a chain of one block');
});

test('a block as Ethereum clients read it; earliest, a number, the head; null for a hash no block has', async () => {
  fresh();
  chain.price = 7n;
  const b = chain.blockOf(2);
  const answer = await rpc('eth_getBlockByNumber', ['0x2', false]);
  assert.equal(answer.result, {
    number: '0x2',
    hash: '0x' + b.hash,
    parentHash: '0x' + b.parent,
    nonce: '0x0000000000000000',
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
    logsBloom: '0x' + '0'.repeat(512),
    transactionsRoot: '0x' + '11'.repeat(32),
    stateRoot: '0x' + '22'.repeat(32),
    receiptsRoot: '0x' + '11'.repeat(32),
    miner: '0x' + '0'.repeat(40),
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: '0x0',
    gasLimit: '0x5f5e100',
    gasUsed: '0x0',
    baseFeePerGas: '0x7',
    timestamp: '0x' + (1_700_000_002).toString(16),
    mixHash: '0x' + '0'.repeat(64),
    transactions: ['0x' + topic(0xc2), '0x' + topic(0xd2)],
    uncles: [],
  });
  assert.is(((await rpc('eth_getBlockByNumber', ['earliest'])).result as { number: string }).number, '0x0');
  assert.is(((await rpc('eth_getBlockByNumber', ['latest'])).result as { number: string }).number, '0x3');
  assert.is(((await rpc('eth_getBlockByNumber', [])).result as { number: string }).number, '0x3', 'no tag: the head');
  assert.is(((await rpc('eth_getBlockByHash', ['0x' + b.hash])).result as { number: string }).number, '0x2');
  assert.is((await rpc('eth_getBlockByHash', ['0x' + 'ff'.repeat(32)])).result, null);
  assert.equal((await rpc('eth_getBlockByHash', ['0xabc'])).error, { code: -32602, message: '"hash" expected 0x and an even number of hex digits' });
  assert.equal((await rpc('eth_getBlockByNumber', ['0x9'])).error, { code: -32602, message: '"block": block 9 is above the head 3' });
});

test('baseFeePerGas is the least price the node takes (eth_gasPrice), not a fixed 0: Hardhat Ignition reads 0 as free gas and sends fees of 0', async () => {
  fresh();
  for (const price of [1n, 1_000n]) {
    chain.price = price;
    const block = (await rpc('eth_getBlockByNumber', ['latest', true])).result as { baseFeePerGas: string };
    assert.is(block.baseFeePerGas, (await rpc('eth_gasPrice')).result, `at ${price}`);
  }
});

test('eth_getLogs: each event with its block, transaction and positions, dated by its block; ranges clamped to the head', async () => {
  fresh();
  chain.events = [
    { height: 1, hash: chain.blockOf(1).hash.toUpperCase(), logs: [log(1, 0), log(1, 1, { topics: [topic(1), topic(9)], data: '' })] },
    { height: 3, hash: chain.blockOf(3).hash.toUpperCase(), logs: [log(3, 0, { address: B })] },
  ];
  const all = (await rpc('eth_getLogs', [{ fromBlock: 'earliest' }])).result as Record<string, unknown>[];
  assert.equal(all[1], {
    address: '0x' + A,
    topics: ['0x' + topic(1), '0x' + topic(9)],
    data: '0x',
    blockNumber: '0x1',
    blockHash: '0x' + chain.blockOf(1).hash,
    transactionHash: '0x' + topic(0xd1),
    transactionIndex: '0x1',
    logIndex: '0x1',
    removed: false,
    blockTimestamp: '0x' + (1_700_000_001).toString(16),
  });
  assert.equal(
    all.map((l) => [l.blockNumber, l.logIndex, l.address]),
    [
      ['0x1', '0x0', '0x' + A],
      ['0x1', '0x1', '0x' + A],
      ['0x3', '0x0', '0x' + B],
    ],
  );
  assert.is(chain.blockReads, 2, 'one block read per block with matching events');
  chain.logRanges = [];
  assert.is(((await rpc('eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x9' }])).result as unknown[]).length, 1, 'toBlock past the head: up to the head');
  assert.is(((await rpc('eth_getLogs', [{}])).result as unknown[]).length, 1, 'no range: the head alone');
  assert.is(((await rpc('eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x3' }])).result as unknown[]).length, 1, 'the head by number');
  assert.is(((await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1' }])).result as unknown[]).length, 2, 'the first block by number');
  assert.equal(chain.logRanges, [
    [2, 3],
    [3, 3],
    [3, 3],
    [1, 1],
  ]);
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x9', toBlock: '0x10' }])).result, [], 'a range past the head holds nothing');
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x9' }])).result, []);
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x1' }])).error, { code: -32602, message: '"toBlock" 1 is below "fromBlock" 3' });
  assert.equal((await rpc('eth_getLogs', [{ blockHash: '0x' + chain.blockOf(3).hash }])).result, [
    {
      address: '0x' + B,
      topics: ['0x' + topic(3)],
      data: '0xab',
      blockNumber: '0x3',
      blockHash: '0x' + chain.blockOf(3).hash,
      transactionHash: '0x' + topic(0xc3),
      transactionIndex: '0x0',
      logIndex: '0x0',
      removed: false,
      blockTimestamp: '0x' + (1_700_000_003).toString(16),
    },
  ]);
  assert.equal((await rpc('eth_getLogs', [{ blockHash: '0x' + 'ff'.repeat(32) }])).error, { code: -32602, message: 'unknown block hash' });
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x0', address: '0x12' }])).error, {
    code: -32602,
    message: 'expected 0x and 40 hex digits, 0x and 16 hex digits, or a ThePower address, got "0x12"',
  });
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x0', topics: 'x' }])).error, { code: -32602, message: 'expected an array of at most 4 entries' });
  assert.equal((await rpc('eth_getLogs', ['x'])).error, { code: -32602, message: 'expected a filter object' });
  assert.equal((await rpc('eth_getLogs', [])).error, { code: -32602, message: 'expected a filter object' });
});

test('eth_getLogs answers up to 10,000 events; one more is -32005', async () => {
  fresh();
  const many = (n: number) => Array.from({ length: n }, (_, i) => log(2, i));
  chain.events = [{ height: 2, hash: chain.blockOf(2).hash, logs: many(10_000) }];
  assert.is(((await rpc('eth_getLogs', [{ fromBlock: '0x0' }])).result as unknown[]).length, 10_000);
  chain.events = [
    { height: 1, hash: chain.blockOf(1).hash, logs: many(5_000) },
    { height: 2, hash: chain.blockOf(2).hash, logs: many(5_001) },
  ];
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x0' }])).error, { code: -32005, message: 'query returned more than 10000 results' });
  // The limit counts matching events only.
  chain.events[1].logs[0] = log(2, 0, { address: B });
  assert.is(((await rpc('eth_getLogs', [{ fromBlock: '0x0', address: '0x' + A }])).result as unknown[]).length, 10_000);
});

test("eth_getLogs under the chain's own bounds: its result cap, and a block span cap checked before any block is read", async () => {
  fresh();
  chain.logLimits = { results: 2, blocks: 3 };
  chain.events = [
    { height: 1, hash: chain.blockOf(1).hash, logs: [log(1, 0), log(1, 1)] },
    { height: 2, hash: chain.blockOf(2).hash, logs: [log(2, 2)] },
  ];
  assert.is(((await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1' }])).result as unknown[]).length, 2);
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x2' }])).error, { code: -32005, message: 'query returned more than 2 results' });
  chain.logRanges = [];
  assert.equal((await rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x3' }])).error, {
    code: -32005,
    message: 'query spans 4 blocks, more than the 3 allowed: ask for a shorter range',
  });
  assert.equal(chain.logRanges, [], 'refused before reading');
});

test('eth_call: the message handed to the EVM (input before data, default caller, gas and value); a return is its data', async () => {
  fresh();
  assert.is((await rpc('eth_call', [{ to: '0x' + A, data: '0x01' }, 'latest'])).result, '0x0102');
  assert.is((await rpc('eth_call', [{ from: '0x' + B, to: '0x' + A, input: '0x0203', data: '0x01', value: '0x5', gas: '0x100' }])).result, '0x0102');
  assert.equal(chain.views, [
    { caller: '0'.repeat(40), to: A, data: new Uint8Array([1]), value: 0n, gasLimit: 50_000_000n },
    { caller: B, to: A, data: new Uint8Array([2, 3]), value: 5n, gasLimit: 256n },
  ]);
  await rpc('eth_call', [{ from: null, to: null, data: null, value: null, gas: null }]);
  assert.equal(chain.views[2], { caller: '0'.repeat(40), to: undefined, data: new Uint8Array(0), value: 0n, gasLimit: 50_000_000n }, 'nulls are absent');
  assert.equal((await rpc('eth_call', ['x'])).error, { code: -32602, message: 'expected a call object' });
  assert.equal((await rpc('eth_call', [{ to: '0x' + A, data: '0x1' }])).error, { code: -32602, message: '"data" expected 0x and an even number of hex digits' });
  assert.equal((await rpc('eth_call', [{ to: '0x' + A }, '0x1'])).error?.code, -32000, 'an older block');
});

test('eth_call failures: a revert is 3 with its reason or none and the data; an EVM error is -32000', async () => {
  fresh();
  const outcome = (end: EvmRun['end'], returnData: Uint8Array, error?: string) => {
    chain.onView = () => ({ end, returnData, gasUsed: 10n, logs: [], changes: emptyChanges(), ...(error ? { error } : {}) });
  };
  outcome('revert', new Uint8Array(0));
  assert.equal((await rpc('eth_call', [{ to: '0x' + A }])).error, { code: 3, message: 'execution reverted', data: '0x' });
  outcome('revert', new Uint8Array([0xde, 0xad, 0xbe, 0xef]));
  assert.equal((await rpc('eth_call', [{ to: '0x' + A }])).error, { code: 3, message: 'execution reverted: 0xdeadbeef', data: '0xdeadbeef' });
  const panic = new Uint8Array([0x4e, 0x48, 0x7b, 0x71, ...new Uint8Array(31), 0x01]);
  outcome('revert', panic);
  assert.equal((await rpc('eth_call', [{ to: '0x' + A }])).error, { code: 3, message: 'execution reverted: Panic(0x1)', data: '0x4e487b71' + '00'.repeat(31) + '01' });
  outcome('error', new Uint8Array(0), 'invalid_opcode');
  assert.equal((await rpc('eth_call', [{ to: '0x' + A }])).error, { code: -32000, message: 'execution failed: invalid_opcode' });
  assert.equal((await rpc('eth_estimateGas', [{ to: '0x' + A }])).error, { code: -32000, message: 'execution failed: invalid_opcode' });
});

test('intrinsic gas: 21000, 4 per zero byte and 16 per other byte of the input, 32000 more and 2 a word of init code for a create', () => {
  assert.is(intrinsicGas(new Uint8Array(0), false), 21_000n);
  assert.is(intrinsicGas(new Uint8Array([0, 0, 0]), false), 21_012n);
  assert.is(intrinsicGas(new Uint8Array([1, 0xff, 0]), false), 21_036n);
  assert.is(intrinsicGas(new Uint8Array([1]), true), 53_018n);
  // EIP-3860: 2 gas for each started 32-byte word of init code.
  assert.is(intrinsicGas(new Uint8Array(33), true), 53_000n + 33n * 4n + 2n * 2n);
});

test('eth_estimateGas: the first limit under which the run returns, plus the intrinsic gas; never above the view limit', async () => {
  fresh();
  let needed = 0n;
  chain.onView = (m) => ({ end: m.gasLimit >= needed ? 'return' : 'error', error: 'out_of_gas', returnData: new Uint8Array(0), gasUsed: 80_000n, logs: [], changes: emptyChanges() });
  const estimate = async (call: object) => {
    chain.views = [];
    const a = await rpc('eth_estimateGas', [call, 'latest']);
    return [a.result, chain.views.map((v) => v.gasLimit)];
  };
  // What the run used, an eighth more and 5000: 95,000 for 80,000 used.
  needed = 80_000n;
  assert.equal(await estimate({ to: '0x' + A, data: '0x0001' }), ['0x' + (21_020n + 95_000n).toString(16), [50_000_000n, 95_000n]]);
  needed = 95_000n;
  assert.equal(await estimate({ to: '0x' + A }), ['0x' + (21_000n + 95_000n).toString(16), [50_000_000n, 95_000n]]);
  // Not enough: doubled until it is.
  needed = 95_001n;
  assert.equal(await estimate({ to: '0x' + A }), ['0x' + (21_000n + 190_000n).toString(16), [50_000_000n, 95_000n, 190_000n]]);
  needed = 300_000n;
  assert.equal(await estimate({ data: '0x01' }), ['0x' + (53_018n + 380_000n).toString(16), [50_000_000n, 95_000n, 190_000n, 380_000n]], 'a create');
  // A run that needs more than any doubling reaches within eight tries: the estimate stops there.
  needed = 40_000_000n;
  const [result, limits] = await estimate({ to: '0x' + A });
  assert.equal(limits, [50_000_000n, ...Array.from({ length: 8 }, (_, i) => 95_000n << BigInt(i))]);
  assert.is(result, '0x' + (21_000n + (95_000n << 8n)).toString(16));
  // Used gas close to the view limit: the estimate is capped at the limit, with no retry above it.
  chain.onView = () => ({ end: 'return', returnData: new Uint8Array(0), gasUsed: 45_000_000n, logs: [], changes: emptyChanges() });
  assert.equal(await estimate({ to: '0x' + A }), ['0x' + (21_000n + 50_000_000n).toString(16), [50_000_000n]]);
  chain.onView = () => ({ end: 'return', returnData: new Uint8Array(0), gasUsed: 0n, logs: [], changes: emptyChanges() });
  assert.equal(await estimate({ to: '0x' + A, gas: '0x1' }), ['0x' + (21_000n + 5_000n).toString(16), [50_000_000n, 5_000n]], "the caller's gas is not the first run's limit");
});

test('eth_sendRawTransaction: the hash; an empty or malformed transaction -32602; a refusal -32000 with its message; a node failure -32603, a missing package said as it is', async () => {
  fresh();
  let sent: Uint8Array | undefined;
  chain.onSend = async (raw) => {
    sent = raw;
    return 'ab'.repeat(32);
  };
  assert.is((await rpc('eth_sendRawTransaction', ['0xf86b01'])).result, '0x' + 'ab'.repeat(32));
  assert.equal(sent, new Uint8Array([0xf8, 0x6b, 0x01]));
  assert.equal((await rpc('eth_sendRawTransaction', ['0x'])).error, { code: -32602, message: '"transaction" is empty' });
  assert.equal((await rpc('eth_sendRawTransaction', [])).error, { code: -32602, message: '"transaction" is empty' });
  assert.equal((await rpc('eth_sendRawTransaction', ['0x0'])).error, { code: -32602, message: '"transaction" expected 0x and an even number of hex digits' });
  chain.onSend = async () => {
    throw new ValidationError('BODY_BAD_FIELD', 'Invalid Ethereum transaction', { details: 'signed for chain id 1, this node is 1000000005' });
  };
  assert.equal((await rpc('eth_sendRawTransaction', ['0x01'])).error, { code: -32000, message: 'Invalid Ethereum transaction: signed for chain id 1, this node is 1000000005' });
  chain.onSend = async () => {
    throw new RpcError(-32003, 'nonce too low', '0x01');
  };
  assert.equal((await rpc('eth_sendRawTransaction', ['0x01'])).error, { code: -32003, message: 'nonce too low', data: '0x01' });
  const internal: unknown[] = [];
  chain.onSend = async () => {
    throw new TpkitError('NODE_INTERNAL', 'store write failed');
  };
  const answer = await handleJsonRpc(chain, { jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: ['0x01'] }, (err) => internal.push(err));
  assert.equal(answer, { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } });
  assert.is((internal[0] as TpkitError).message, 'store write failed');
  chain.onView = () => {
    throw new TpkitError('DEPENDENCY_MISSING', 'The node needs the EVM packages to run contracts');
  };
  const missing = await handleJsonRpc(chain, { jsonrpc: '2.0', id: 3, method: 'eth_call', params: [{ to: '0x' + A }] }, (err) => internal.push(err));
  assert.equal(missing, { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'The node needs the EVM packages to run contracts' } });
  assert.is(internal.length, 1, 'a missing package is said, not logged as a failure');
});

test('a receipt and a transaction as Ethereum clients read them; null for an unknown hash', async () => {
  fresh();
  const h = '12'.repeat(32);
  chain.price = 2n;
  chain.receipts.set(h, { hash: h, txid: 'TXID1', height: 3, blockHash: 'ABCD'.repeat(16), index: 1, from: A, to: null, status: 1, gasUsed: 54_321n, created: B, logs: [log(3, 4)] });
  assert.equal((await rpc('eth_getTransactionReceipt', ['0x' + h])).result, {
    transactionHash: '0x' + h,
    transactionIndex: '0x1',
    blockHash: '0x' + 'abcd'.repeat(16),
    blockNumber: '0x3',
    from: '0x' + A,
    to: null,
    cumulativeGasUsed: '0xd431',
    gasUsed: '0xd431',
    effectiveGasPrice: '0x2',
    contractAddress: '0x' + B,
    logs: [
      {
        address: '0x' + A,
        topics: ['0x' + topic(3)],
        data: '0xab',
        blockNumber: '0x3',
        blockHash: '0x' + 'abcd'.repeat(16),
        transactionHash: '0x' + h,
        transactionIndex: '0x0',
        logIndex: '0x4',
        removed: false,
      },
    ],
    logsBloom: '0x' + '0'.repeat(512),
    status: '0x1',
    type: '0x0',
    txID: 'TXID1',
  });
  chain.receipts.set(h, { ...chain.receipts.get(h)!, to: B, status: 0, created: undefined, logs: [] });
  const failed = (await rpc('eth_getTransactionReceipt', ['0x' + h])).result as Record<string, unknown>;
  assert.equal([failed.to, failed.status, failed.contractAddress, failed.logs], ['0x' + B, '0x0', null, []]);
  assert.is((await rpc('eth_getTransactionReceipt', ['0x' + 'ff'.repeat(32)])).result, null);

  const t: EthTransaction = {
    hash: h,
    from: A,
    to: B,
    nonce: 9n,
    gas: 21_000n,
    gasPrice: 1n,
    value: 10n ** 18n,
    input: 'a9059cbb',
    type: 2,
    v: 1n,
    r: 0xabn,
    s: 0xcdn,
    chainId: 1_000_000_005n,
    block: { height: 3, hash: 'ABCD'.repeat(16), index: 1 },
  };
  chain.transactions.set(h, t);
  assert.equal((await rpc('eth_getTransactionByHash', ['0x' + h])).result, {
    hash: '0x' + h,
    from: '0x' + A,
    to: '0x' + B,
    nonce: '0x9',
    gas: '0x5208',
    gasPrice: '0x1',
    value: '0xde0b6b3a7640000',
    input: '0xa9059cbb',
    type: '0x2',
    v: '0x1',
    r: '0xab',
    s: '0xcd',
    chainId: '0x3b9aca05',
    blockHash: '0x' + 'abcd'.repeat(16),
    blockNumber: '0x3',
    transactionIndex: '0x1',
  });
  chain.transactions.set(h, { ...t, to: null, block: undefined });
  const pending = (await rpc('eth_getTransactionByHash', ['0x' + h])).result as Record<string, unknown>;
  assert.equal([pending.to, pending.blockHash, pending.blockNumber, pending.transactionIndex], [null, null, null, null]);
  assert.is((await rpc('eth_getTransactionByHash', ['0x' + 'ff'.repeat(32)])).result, null);
});

test('the envelope: ids kept, notifications unanswered, invalid requests answered with id null, params an array', async () => {
  fresh();
  assert.equal(await handleJsonRpc(chain, { jsonrpc: '2.0', id: 'x', method: 'eth_blockNumber' }), { jsonrpc: '2.0', id: 'x', result: '0x3' });
  assert.equal(await handleJsonRpc(chain, { jsonrpc: '2.0', id: null, method: 'eth_blockNumber' }), { jsonrpc: '2.0', id: null, result: '0x3' });
  assert.equal(await handleJsonRpc(chain, { jsonrpc: '2.0', id: { a: 1 }, method: 'eth_blockNumber' }), { jsonrpc: '2.0', id: null, result: '0x3' }, 'an id that is not a string or number');
  assert.is(await handleJsonRpc(chain, { jsonrpc: '2.0', method: 'eth_nope' }), undefined, 'a notification gets no answer, not even an error');
  const invalid = { code: -32600, message: 'Invalid request: expected {"jsonrpc":"2.0","method":…}' };
  assert.equal(await handleJsonRpc(chain, { jsonrpc: '1.0', id: 4, method: 'eth_blockNumber' }), { jsonrpc: '2.0', id: 4, error: invalid });
  assert.equal(await handleJsonRpc(chain, { jsonrpc: '2.0', method: 5 }), { jsonrpc: '2.0', id: null, error: invalid }, 'invalid without an id: answered');
  assert.equal(await handleJsonRpc(chain, null), { jsonrpc: '2.0', id: null, error: invalid });
  assert.equal(await rpc('eth_getBalance', { 0: '0x' + A }), { jsonrpc: '2.0', id: 1, error: { code: -32602, message: '"params" must be an array' } });
  assert.equal(await rpc('eth_' + 'x'.repeat(100)), { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: eth_' + 'x'.repeat(60) } });
  assert.equal(await rpc('hasOwnProperty'), { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: hasOwnProperty' } });
});

test('batches: up to 100 requests answered in order, notifications left out; 101 refused; all notifications: no answer', async () => {
  fresh();
  const hundred = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: i % 2 ? 'eth_chainId' : 'eth_blockNumber' }));
  const answers = (await handleJsonRpc(chain, hundred)) as Answer[];
  assert.is(answers.length, 100);
  assert.equal(answers.slice(0, 3), [
    { jsonrpc: '2.0', id: 0, result: '0x3' },
    { jsonrpc: '2.0', id: 1, result: '0x3b9aca05' },
    { jsonrpc: '2.0', id: 2, result: '0x3' },
  ]);
  assert.equal(await handleJsonRpc(chain, [...hundred, hundred[0]]), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: a batch holds at most 100 requests' } });
  assert.is(
    await handleJsonRpc(chain, [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'eth_blockNumber' },
    ]),
    undefined,
  );
  assert.equal(
    await handleJsonRpc(chain, [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 7, method: 'eth_chainId' },
    ]),
    [{ jsonrpc: '2.0', id: 7, result: '0x3b9aca05' }],
  );
});

test.run();
