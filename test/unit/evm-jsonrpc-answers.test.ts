// The JSON-RPC answers field by field over a chain whose every answer the test sets (no EVM):
// the request envelope (ids, notifications, batches and their limit), the shapes of receipts and
// transactions as Ethereum clients read them, the messages eth_call and eth_estimateGas hand to
// the EVM, and each error code with its message (docs/guide/contracts.md, the JSON-RPC 2.0
// specification, geth's answers). Reads of accounts, blocks and events: evm-jsonrpc-reads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TpkitError, ValidationError } from '../../src/errors.js';
import { handleJsonRpc, intrinsicGas, RpcError, type EthTransaction } from '../../src/node/evm/jsonrpc.js';
import type { EvmRun } from '../../src/node/evm/runner.js';
import { emptyChanges } from '../../src/node/evm/state.js';
import { A, B, topic, chain, rpc, fresh, log, type Answer } from '../helpers/fake-eth-chain.js';

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
