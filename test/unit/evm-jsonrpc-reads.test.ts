// The JSON-RPC reads field by field over a chain whose every answer the test sets (no EVM):
// constants, accounts, block tags and the head, the shape of a block, and eth_getLogs with its
// bounds (docs/guide/contracts.md, geth's answers). Calls, sends, receipts, the envelope:
// evm-jsonrpc-answers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { A, B, topic, chain, rpc, fresh, log } from '../helpers/fake-eth-chain.js';

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

test.run();
