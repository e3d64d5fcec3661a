// The EVM keeps no copy of the code of each run: the EVM thread receives a fresh copy of a
// contract's code with every view, and the code hash the EVM asks for was once cached by that
// copy in a Map, so every view left its copy behind (60,000 views: the node 285 → 457 MB).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { hexToBytes } from '../../src/bytes.js';
import { EvmRunner, type EvmMessage } from '../../src/node/evm/runner.js';
import { emptyChanges, ledgerWithChanges, mergeChanges, type EvmLedger } from '../../src/node/evm/state.js';
import { contract } from '../helpers/solidity.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const token = contract('Token');
const abi = token.abi as Abi;
const at = 'aa'.repeat(20);
const holder = '01'.repeat(20);

test('views with a fresh copy of the code each: the heap does not keep the copies', async () => {
  const runner = await EvmRunner.create(1n);
  const state = emptyChanges();
  const base = ledgerWithChanges({ account: () => undefined, code: () => undefined, storage: () => undefined }, state);
  const init = hexToBytes(encodeDeployData({ abi, bytecode: token.bytecode, args: ['T', 'T', 1_000n] }));
  const made = await runner.run(base, { caller: holder, to: at, data: new Uint8Array(0), code: init, value: 0n, gasLimit: 10_000_000n, height: 1n, timestamp: 1n });
  assert.is(made.end, 'return');
  mergeChanges(state, made.changes);
  const code = made.returnData;
  // As the thread sees it: the code arrives anew with every run.
  const ledger: EvmLedger = { ...base, code: (key) => (key === at ? code.slice() : base.code(key)) };
  const view: EvmMessage = {
    caller: holder,
    to: at,
    data: hexToBytes(encodeFunctionData({ abi, functionName: 'balanceOf', args: ['0x' + holder] })),
    value: 0n,
    gasLimit: 100_000n,
    height: 2n,
    timestamp: 2n,
  };
  for (let i = 0; i < 200; i++) await runner.run(ledger, view);
  gc();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const runs = 4_000;
  for (let i = 0; i < runs; i++) assert.is((await runner.run(ledger, view)).end, 'return');
  gc();
  const grown = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - before;
  const copies = runs * code.length;
  assert.ok(grown < copies / 4, `the heap grew ${(grown / 1e6).toFixed(1)} MB over ${runs} runs; the copies of the code came to ${(copies / 1e6).toFixed(1)} MB`);
});

test.run();
