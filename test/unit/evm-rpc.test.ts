// The JSON-RPC handlers and the execute/call shapes over the EVM runner and a chain kept in
// memory (no node, no HTTP): viem's public client talks to them through a custom transport,
// so the answers are checked by the library wallets use. Also the pieces they are made of:
// revert reasons, gas pricing and the event filter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicClient, custom, encodeDeployData, encodeFunctionData, parseAbiItem, type Abi } from 'viem';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { evmKey } from '../../src/node/evm/address.js';
import { executeCallAnswer, parseExecuteCall } from '../../src/node/evm/execute-call.js';
import { gasFor, gasPrice, gasRates, unitsLeft } from '../../src/node/evm/gas.js';
import { handleJsonRpc, intrinsicGas, RPC_METHODS, type EthBlock, type EthChain } from '../../src/node/evm/jsonrpc.js';
import { matchesLog, parseLogFilter, storedLog, type BlockLogs } from '../../src/node/evm/logs.js';
import { revertReason } from '../../src/node/evm/revert.js';
import { EvmRunner } from '../../src/node/evm/runner.js';
import { emptyChanges, ledgerWithChanges, mergeChanges } from '../../src/node/evm/state.js';
import { contract } from '../helpers/solidity.js';

const token = contract('Token');
const abi = token.abi as Abi;
const owner = evmKey(addressFromText('AA100000001677721780'));
const bob = evmKey(addressFromText('AA100000001677722185'));
const carol = 'cd'.repeat(20);

/** A chain of blocks in memory: each block runs calls from the owner and keeps their events. */
class MemoryChain implements EthChain {
  readonly ethChainId = 1_000_000_001n;
  readonly state = emptyChanges();
  readonly blocks: EthBlock[] = [];
  readonly blockLogs: BlockLogs[] = [];
  private readonly base = ledgerWithChanges({ account: () => undefined, code: () => undefined, storage: () => undefined }, this.state);
  constructor(readonly runner: EvmRunner) {
    this.blocks.push({ height: 0, hash: '00'.repeat(32), parent: '00'.repeat(32), txroot: '11'.repeat(32), balroot: '22'.repeat(32), time: 0, txHashes: [] });
  }
  height() {
    return this.blocks.length - 1;
  }
  async block(ref: number | string) {
    return typeof ref === 'number' ? this.blocks[ref] : this.blocks.find((b) => b.hash === ref);
  }
  ledger() {
    return this.base;
  }
  view(m: { caller: string; to?: string; data: Uint8Array; value: bigint; gasLimit: bigint }) {
    return this.runner.run(this.base, { ...m, height: BigInt(this.height()), timestamp: 1n });
  }
  gasPrice() {
    return 0n;
  }
  async *logs(from: number, to: number) {
    yield* this.blockLogs.filter((b) => b.height >= from && b.height <= to);
  }
  pendingNonce(key: string) {
    return this.base.account(key)?.nonce ?? 0n;
  }
  async sendRawTransaction(): Promise<string> {
    throw new Error('not in this test');
  }
  async receipt() {
    return undefined;
  }
  async transaction() {
    return undefined;
  }
  /** A block whose transactions are these calls (deploys when `code` is given). */
  async mine(calls: { to: string; data?: Uint8Array; code?: Uint8Array; from?: string }[]) {
    const height = this.blocks.length;
    const hash = height.toString(16).padStart(64, '0');
    const logs: BlockLogs = { height, hash: hash.toUpperCase(), logs: [] };
    const txHashes: string[] = [];
    for (const [i, c] of calls.entries()) {
      const from = c.from ?? owner;
      const run = await this.runner.run(this.base, {
        caller: from,
        to: c.to,
        data: c.data ?? new Uint8Array(0),
        code: c.code,
        value: 0n,
        gasLimit: 5_000_000n,
        height: BigInt(height),
        timestamp: BigInt(height),
      });
      assert.is(run.end, 'return');
      mergeChanges(this.state, run.changes);
      if (c.code) this.state.code.set(c.to, run.returnData);
      txHashes.push((height * 100 + i).toString(16).padStart(64, '0'));
      for (const log of run.logs) logs.logs.push(storedLog({ txid: `tx${height}.${i}`, txIndex: i, logIndex: logs.logs.length, caller: from }, log));
    }
    this.blocks.push({ height, hash, parent: this.blocks[height - 1].hash, txroot: '11'.repeat(32), balroot: '22'.repeat(32), time: height * 1000, txHashes });
    if (logs.logs.length) this.blockLogs.push(logs);
  }
}

let chain: MemoryChain;
const rpc = (method: string, params: unknown[] = []) =>
  handleJsonRpc(chain, { jsonrpc: '2.0', id: 1, method, params }) as Promise<{ result?: unknown; error?: { code: number; message: string; data?: string } }>;
const transferData = (to: string, value: bigint) => hexToBytes(encodeFunctionData({ abi, functionName: 'transfer', args: [`0x${to}`, value] }));

test.before(async () => {
  chain = new MemoryChain(await EvmRunner.create(1_000_000_001n));
  chain.state.accounts.set(owner, { balance: 5_000n, nonce: 0n });
  await chain.mine([{ to: owner, code: hexToBytes(encodeDeployData({ abi, bytecode: token.bytecode, args: ['Tok', 'TOK', 1000n] })) }]);
  await chain.mine([
    { to: owner, data: transferData(bob, 10n) },
    { to: owner, data: transferData(carol, 20n) },
  ]);
  await chain.mine([{ to: owner, data: transferData(bob, 1n) }]);
});

test('viem reads the chain through the handlers: chain id, height, balance, code, a contract view, events by topic', async () => {
  const client = createPublicClient({
    transport: custom({
      request: async ({ method, params }) => {
        const answer = (await handleJsonRpc(chain, { jsonrpc: '2.0', id: 7, method, params })) as { result?: unknown; error?: { code: number; message: string } };
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        return answer.result;
      },
    }),
  });
  assert.is(await client.getChainId(), 1_000_000_001);
  assert.is(await client.getBlockNumber(), 3n);
  assert.is(await client.getBalance({ address: `0x${owner}` }), 5_000n);
  assert.is(await client.getCode({ address: `0x${owner}` }), token.deployedBytecode);
  assert.is(await client.readContract({ address: `0x${owner}`, abi, functionName: 'balanceOf', args: [`0x${bob}`] }), 11n);
  const toBob = await client.getLogs({
    address: `0x${owner}`,
    event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
    args: { to: `0x${bob}` },
    fromBlock: 0n,
    toBlock: 'latest',
  });
  assert.equal(
    toBob.map((l) => [l.blockNumber, l.args.value]),
    [
      [2n, 10n],
      [3n, 1n],
    ],
  );
  assert.is(toBob[0].transactionHash, `0x${(200).toString(16).padStart(64, '0')}`);
  const block = await client.getBlock({ blockNumber: 2n });
  assert.is(block.transactions.length, 2);
  assert.is(block.timestamp, 2n);
  const gas = await client.estimateGas({ account: `0x${owner}`, to: `0x${owner}`, data: encodeFunctionData({ abi, functionName: 'transfer', args: [`0x${bob}`, 1n] }) });
  assert.ok(gas > 21_000n + 5_000n && gas < 200_000n, `estimate ${gas}`);
});

test('eth_getLogs: address lists, topic alternatives, null wildcards, block ranges; every filter can exclude', async () => {
  const all = (await rpc('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).result as { topics: string[]; blockNumber: string; blockTimestamp?: string }[];
  assert.is(all.length, 4, 'the mint and three transfers');
  // Each event carries its block's timestamp, as that block's own eth_getBlockByNumber says.
  for (const log of all) {
    const block = (await rpc('eth_getBlockByNumber', [log.blockNumber, false])).result as { timestamp: string };
    assert.is(log.blockTimestamp, block.timestamp, `blockTimestamp of the event in block ${log.blockNumber}`);
  }
  const topic0 = all[0].topics[0];
  const word = (k: string) => '0x' + k.padStart(64, '0');
  const count = async (filter: object) => ((await rpc('eth_getLogs', [filter])).result as unknown[]).length;
  assert.is(await count({ fromBlock: '0x0', address: ['0x' + carol, '0x' + owner], topics: [topic0] }), 4);
  assert.is(await count({ fromBlock: '0x0', address: '0x' + carol }), 0);
  assert.is(await count({ fromBlock: '0x0', topics: [null, null, [word(bob), word(carol)]] }), 3);
  assert.is(await count({ fromBlock: '0x0', topics: [null, word(owner)] }), 3);
  assert.is(await count({ fromBlock: '0x2', toBlock: '0x2' }), 2);
  assert.is(await count({ blockHash: '0x' + chain.blocks[3].hash }), 1);
  assert.is(await count({ fromBlock: '0x0', topics: ['0x' + '00'.repeat(32)] }), 0);
  const bad = await rpc('eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x1' }]);
  assert.is(bad.error?.code, -32602);
  assert.is((await rpc('eth_getLogs', [{ fromBlock: '0x0', topics: ['0x12'] }])).error?.code, -32602);
});

test('eth_call: a revert is error 3 with the revert data and its reason; reads at an older block are refused', async () => {
  const data = '0x' + bytesToHex(transferData(bob, 10n ** 9n));
  const answer = await rpc('eth_call', [{ from: '0x' + bob, to: '0x' + owner, data }, 'latest']);
  assert.is(answer.error?.code, 3);
  assert.is(answer.error?.message, 'execution reverted: Token: balance too low');
  assert.ok(answer.error?.data?.startsWith('0x08c379a0'));
  assert.is((await rpc('eth_call', [{ to: '0x' + owner, data }, '0x1'])).error?.code, -32000);
  assert.is((await rpc('eth_getBalance', ['0x' + owner, '0x99'])).error?.code, -32602);
});

test('state reads: eth_getStorageAt is one 32-byte word (zero when unset, slot "0x" is slot 0); eth_getCode refuses an older block', async () => {
  const word = (n: bigint) => '0x' + n.toString(16).padStart(64, '0');
  // Slot 2 of the token is totalSupply (name and symbol take 0 and 1).
  assert.is((await rpc('eth_getStorageAt', ['0x' + owner, '0x2', 'latest'])).result, word(1000n));
  assert.is((await rpc('eth_getStorageAt', ['0x' + owner, '0x99'])).result, word(0n));
  assert.is((await rpc('eth_getStorageAt', ['0x' + owner, '0x'])).result, (await rpc('eth_getStorageAt', ['0x' + owner, '0x0'])).result);
  assert.is((await rpc('eth_getStorageAt', ['0x' + owner, '0xzz'])).error?.code, -32602);
  assert.is((await rpc('eth_getCode', ['0x' + owner, 'latest'])).result, token.deployedBytecode);
  const old = await rpc('eth_getCode', ['0x' + owner, '0x1']);
  assert.equal(old.error, { code: -32000, message: 'state at block 1 is not kept: this node answers for the head (3) only' });
});

test('eth_getBlockByHash: the block with that hash, null for an unknown one', async () => {
  const found = (await rpc('eth_getBlockByHash', ['0x' + chain.blocks[2].hash, false])).result as { number: string; hash: string; parentHash: string; transactions: string[] };
  assert.equal([found.number, found.hash, found.parentHash, found.transactions.length], ['0x2', '0x' + chain.blocks[2].hash, '0x' + chain.blocks[1].hash, 2]);
  assert.equal(await rpc('eth_getBlockByHash', ['0x' + 'ab'.repeat(32)]), { jsonrpc: '2.0', id: 1, result: null });
});

test('a run that fails without a revert is -32000 with its reason; an unexpected throw is -32603 "Internal error", handed to onInternal', async () => {
  const data = '0x' + bytesToHex(transferData(bob, 1n));
  const starved = await rpc('eth_call', [{ from: '0x' + owner, to: '0x' + owner, data, gas: '0x100' }]);
  assert.equal(starved.error, { code: -32000, message: 'execution failed: out_of_gas' });
  // value "0x" is zero: the same call with enough gas returns true
  assert.is((await rpc('eth_call', [{ from: '0x' + owner, to: '0x' + owner, data, value: '0x' }])).result, '0x' + '0'.repeat(63) + '1');
  const seen: unknown[] = [];
  // MemoryChain.sendRawTransaction throws a plain Error: the node's own failure, not the request's.
  const answer = await handleJsonRpc(chain, { jsonrpc: '2.0', id: 9, method: 'eth_sendRawTransaction', params: ['0x01'] }, (err) => seen.push(err));
  assert.equal(answer, { jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Internal error' } });
  assert.is(seen.length, 1);
  assert.is((seen[0] as Error).message, 'not in this test');
});

test('requests: batches answer in order, notifications get nothing, bad requests get their codes', async () => {
  const batch = (await handleJsonRpc(chain, [
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    { jsonrpc: '2.0', method: 'eth_blockNumber' },
    { jsonrpc: '2.0', id: 'b', method: 'eth_nope' },
    { id: 3, method: 'eth_chainId' },
    { jsonrpc: '2.0', id: 4, method: 'eth_getBalance', params: 'x' },
    { jsonrpc: '2.0', id: 5, method: 'eth_getBalance', params: ['0x12', 'latest'] },
  ])) as { id: unknown; result?: unknown; error?: { code: number } }[];
  assert.equal(
    batch.map((a) => [a.id, a.result ?? a.error?.code]),
    [
      [1, '0x3b9aca01'],
      ['b', -32601],
      [3, -32600],
      [4, -32602],
      [5, -32602],
    ],
  );
  assert.is(await handleJsonRpc(chain, { jsonrpc: '2.0', method: 'eth_chainId' }), undefined);
  assert.equal(await handleJsonRpc(chain, []), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: empty batch' } });
  assert.is(((await handleJsonRpc(chain, 'x')) as { error: { code: number } }).error.code, -32600);
  assert.is(((await handleJsonRpc(chain, { jsonrpc: '2.0', id: 1, method: 'toString' })) as { error: { code: number } }).error.code, -32601, 'no method from the prototype');
  for (const m of [
    'eth_chainId',
    'eth_blockNumber',
    'eth_call',
    'eth_estimateGas',
    'eth_getBalance',
    'eth_getCode',
    'eth_getTransactionCount',
    'eth_getLogs',
    'eth_getBlockByNumber',
    'eth_sendRawTransaction',
    'eth_getTransactionReceipt',
  ]) {
    assert.ok(RPC_METHODS.includes(m), m);
  }
});

test('execute/call: the SDK form (0x0 and calldata), a signature with arguments, a selector; the answer as the reference writes it', async () => {
  const keccak = { keccak256: chain.runner.library.keccak256 };
  const viaSdk = parseExecuteCall({ call: '0x0', args: ['0x' + bytesToHex(hexToBytes(encodeFunctionData({ abi, functionName: 'balanceOf', args: [`0x${bob}`] })))], to: '0x' + owner }, keccak);
  const viaSignature = parseExecuteCall({ call: 'balanceOf(address)', args: ['AA100000001677722185'], to: 'AA100000001677721780' }, keccak);
  const viaSelector = parseExecuteCall({ call: '0x70a08231', args: ['0x' + bob.slice(24)], to: '0x' + owner.slice(24) }, keccak);
  assert.equal(viaSignature.data, viaSdk.data);
  assert.equal(viaSelector.data, viaSdk.data);
  assert.is(viaSdk.caller, '000000000000000000000000' + '8000000000000000', 'the reference default caller');
  const run = await chain.view(viaSdk);
  const answer = executeCallAnswer(run, viaSdk.caller);
  assert.is(answer.result, 'return');
  assert.is(answer.bin, '0x' + (11).toString(16).padStart(64, '0'));
  const refused = executeCallAnswer(
    await chain.view(parseExecuteCall({ call: 'transferFrom(address,address,uint256)', args: ['0x' + bob, '0x' + carol, 1], to: '0x' + owner }, keccak)),
    viaSdk.caller,
  );
  assert.equal([refused.result, refused.signature, refused.decode], ['revert', 'Error(string)', 'Token: allowance too low']);
  const bad = (body: unknown) => {
    try {
      parseExecuteCall(body, keccak);
      return 'accepted';
    } catch (err) {
      return `${(err as { code: string }).code} ${(err as { field?: string }).field}`;
    }
  };
  assert.is(bad(null), 'BAD_REQUEST_PARAM body');
  assert.is(bad({ call: 'balanceOf(address)', args: [], to: '0x' + owner }), 'BAD_REQUEST_PARAM args');
  assert.is(bad({ call: 'name(string)', args: ['x'], to: '0x' + owner }), 'BAD_REQUEST_PARAM args[0]');
  assert.is(bad({ call: '0x0', args: ['0x123'], to: '0x' + owner }), 'BAD_REQUEST_PARAM args');
  assert.is(bad({ call: '0x0', args: ['0x'], to: 'nope' }), 'BAD_REQUEST_PARAM to');
  assert.is(bad({ call: '0x0', args: ['0x'], to: '0x' + owner, gas: 0 }), 'BAD_REQUEST_PARAM gas');
  assert.is(bad({ call: 'f(uint8)', args: [2 ** 300], to: '0x' + owner }), 'BAD_REQUEST_PARAM args[0]');
});

test('execute/call bytesN arguments: left-aligned in their word, exactly 2N hex digits', () => {
  const keccak = { keccak256: chain.runner.library.keccak256 };
  const call = (args: unknown[]) => parseExecuteCall({ call: 'f(bytes4,bytes32)', args, to: '0x' + owner }, keccak);
  const full = '0x' + '00'.repeat(31) + 'ab';
  const made = call(['0x0a0b0c00', full]);
  const selector = bytesToHex(keccak.keccak256(new TextEncoder().encode('f(bytes4,bytes32)')).slice(0, 4));
  assert.is(bytesToHex(made.data), selector + '0a0b0c00' + '00'.repeat(28) + full.slice(2));
  const refusal = (args: unknown[]) => {
    try {
      call(args);
      return 'accepted';
    } catch (err) {
      return `${(err as { field?: string }).field}: ${(err as { details?: string }).details}`;
    }
  };
  assert.is(refusal(['0x0a0b0c', full]), 'args[0]: expected 0x and 8 hex digits for bytes4');
  assert.is(refusal(['0x0a0b0c0d0e', full]), 'args[0]: expected 0x and 8 hex digits for bytes4');
  assert.is(refusal(['0x0a0b0c0g', full]), 'args[0]: expected 0x and 8 hex digits for bytes4');
  assert.is(refusal([0x0a0b0c0d, full]), 'args[0]: expected 0x and 8 hex digits for bytes4');
  assert.is(refusal(['0x0a0b0c0d', full.slice(0, -2)]), 'args[1]: expected 0x and 64 hex digits for bytes32');
});

test('revert reasons: Error(string), Panic(uint256), custom errors and empty data', () => {
  const error = hexToBytes('08c379a0' + (32).toString(16).padStart(64, '0') + (2).toString(16).padStart(64, '0') + Buffer.from('no').toString('hex').padEnd(64, '0'));
  assert.equal(revertReason(error), { text: 'no', signature: 'Error(string)' });
  assert.equal(revertReason(hexToBytes('4e487b71' + (0x11).toString(16).padStart(64, '0'))), { text: 'Panic(0x11)', signature: 'Panic(uint256)' });
  assert.equal(revertReason(hexToBytes('deadbeef01')), { text: '0xdeadbeef01' });
  assert.equal(revertReason(new Uint8Array(0)), { text: '' });
  assert.equal(revertReason(error.slice(0, 40)), { text: '0x' + bytesToHex(error.slice(0, 40)) }, 'a truncated Error(string) stays hex');
});

test('gas: the rate from current.gas (object or number), gas bought, units returned, the price', () => {
  const rates = gasRates({ SK: { tokens: 1, gas: 1000 }, FEE: 50, BAD: { tokens: 0, gas: 1 }, TXT: 'x' });
  assert.equal([...rates.keys()], ['SK', 'FEE']);
  const sk = rates.get('SK')!;
  assert.is(gasFor(7n, sk), 7000n);
  assert.is(unitsLeft(7n, 2500n, sk), 4n, '4500 gas left buys back 4 whole units');
  assert.is(unitsLeft(7n, 7000n, sk), 0n);
  assert.is(unitsLeft(7n, 9000n, sk), 0n);
  assert.is(gasPrice(sk), 0n);
  assert.is(gasPrice({ tokens: 30n, gas: 10n }), 3n);
  assert.is(intrinsicGas(new Uint8Array([0, 1]), false), 21_020n);
  assert.is(intrinsicGas(new Uint8Array(0), true), 53_000n);
});

test('the event filter on its own', () => {
  const log = storedLog({ txid: 't', txIndex: 0, logIndex: 0, caller: owner }, { address: owner, topics: [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)], data: new Uint8Array(0) });
  const t = (b: number) => '0x' + bytesToHex(new Uint8Array(32).fill(b));
  assert.ok(matchesLog(parseLogFilter({}), log));
  assert.ok(matchesLog(parseLogFilter({ address: 'AA100000001677721780', topics: [t(1), [t(3), t(2)]] }), log));
  assert.not.ok(matchesLog(parseLogFilter({ topics: [null, null, t(2)] }), log), 'a third topic that the event lacks');
  assert.not.ok(matchesLog(parseLogFilter({ topics: [t(2)] }), log));
  assert.not.ok(matchesLog(parseLogFilter({ address: ['0x' + carol] }), log));
  assert.throws(() => parseLogFilter({ topics: [1, 2, 3, 4, 5] }));
});

test.run();
