// The EVM thread's sessions: the runs of one block share what the thread read, and each run
// brings the changes made since the thread last heard. Checked against the values a block would
// see (each transfer spends the whole balance the one before left, so a stale value fails), by
// how many reads cross to the main thread, and across a new session and a restarted thread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi } from 'viem';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { EvmThread, type RunSession } from '../../src/node/evm/evm-thread.js';
import type { EvmMessage } from '../../src/node/evm/runner.js';
import { emptyChanges, ledgerWithChanges, mergeChanges, type EvmChanges, type EvmLedger } from '../../src/node/evm/state.js';
import { contract } from '../helpers/solidity.js';

const token = contract('Token');
const abi = token.abi as Abi;
const at = 'aa'.repeat(20);
const holders = ['01', '02', '03', '04'].map((b) => b.repeat(20));
/** JUMPDEST PUSH1 0 JUMP: a loop that only the time bound ends. */
const LOOP = hexToBytes('5b600056');
const spinner = 'cc'.repeat(20);

/** A block's ledger: committed state, the block's changes on top, and a count of the reads that reached it. */
function blockLedger(committed: EvmChanges) {
  const pending = emptyChanges();
  const base = ledgerWithChanges({ account: () => undefined, code: () => undefined, storage: () => undefined }, committed);
  const inner = ledgerWithChanges(base, pending);
  const reads = { storage: 0 };
  const ledger: EvmLedger = {
    account: (k) => inner.account(k),
    code: (k) => inner.code(k),
    storage: (k, s) => {
      reads.storage++;
      return inner.storage(k, s);
    },
  };
  const session: RunSession & { changes: EvmChanges[] } = { changes: [] };
  const commit = (changes: EvmChanges) => {
    mergeChanges(pending, changes);
    session.changes.push(changes);
  };
  return { ledger, pending, reads, session, commit };
}

const message = (caller: string, data: Uint8Array, to = at): EvmMessage => ({ caller, to, data, value: 0n, gasLimit: 1_000_000n, height: 2n, timestamp: 1_700_000_000n });
const transfer = (to: string, amount: bigint) => hexToBytes(encodeFunctionData({ abi, functionName: 'transfer', args: ['0x' + to, amount] }));
const balanceOf = (who: string) => hexToBytes(encodeFunctionData({ abi, functionName: 'balanceOf', args: ['0x' + who] }));

let thread: EvmThread;
const committed = emptyChanges();

test.before(async () => {
  thread = await EvmThread.create({ chainId: 1n, blockGasLimit: 30_000_000n, baseFee: 0n, maxQueue: 8, name: 'block' });
  const { ledger } = blockLedger(committed);
  const init = hexToBytes(encodeDeployData({ abi, bytecode: token.bytecode, args: ['T', 'T', 1_000n] }));
  const made = await thread.run(ledger, { ...message(holders[0], new Uint8Array(0)), code: init }, { timeoutMs: 60_000 });
  assert.is(made.end, 'return');
  mergeChanges(committed, made.changes);
  committed.code.set(at, made.returnData);
  committed.code.set(spinner, LOOP);
});

test.after(() => thread.close());

async function balance(ledger: EvmLedger, who: string, session?: RunSession): Promise<bigint> {
  const run = await thread.run(ledger, message(who, balanceOf(who)), { timeoutMs: 60_000, ...(session ? { session } : {}) });
  return decodeFunctionResult({ abi, functionName: 'balanceOf', data: `0x${bytesToHex(run.returnData)}` }) as bigint;
}

test('one session: each run sees the changes committed before it, and a slot crosses once', async () => {
  const block = blockLedger(committed);
  const supply = await balance(block.ledger, holders[0], block.session);
  assert.ok(supply > 0n, `the deployer holds ${supply}`);
  // The supply goes round the holders twice, each passing on all it has: a stale balance reverts or leaves some behind.
  let amount = supply;
  for (let i = 0; i < 8; i++) {
    const from = holders[i % 4];
    const to = holders[(i + 1) % 4];
    const run = await thread.run(block.ledger, message(from, transfer(to, amount)), { timeoutMs: 60_000, session: block.session });
    assert.is(run.end, 'return', `transfer ${i} ${from.slice(0, 2)}→${to.slice(0, 2)} of ${amount}`);
    block.commit(run.changes);
    amount = supply;
  }
  // Each holder's balance slot was read once at most: 4 slots, not 16 reads.
  assert.is(block.reads.storage, 4, 'storage reads that reached the main thread');
  for (const [i, h] of holders.entries()) assert.is(await balance(block.ledger, h, block.session), i === 0 ? supply : 0n, `holder ${i}`);
});

test('a new session starts afresh: what the last one left untold is read again', async () => {
  const first = blockLedger(committed);
  const supply = await balance(first.ledger, holders[0]);
  const sent = await thread.run(first.ledger, message(holders[0], transfer(holders[1], supply)), { timeoutMs: 60_000, session: first.session });
  assert.is(sent.end, 'return');
  // The block ends here: its last change reaches the committed state, never the thread.
  first.commit(sent.changes);
  mergeChanges(committed, sent.changes);
  const second = blockLedger(committed);
  const back = await thread.run(second.ledger, message(holders[1], transfer(holders[0], supply)), { timeoutMs: 60_000, session: second.session });
  assert.is(back.end, 'return', 'the second block sees the first block’s transfer');
  second.commit(back.changes);
  mergeChanges(committed, back.changes);
  assert.is(await balance(blockLedger(committed).ledger, holders[0]), supply);
});

test('a thread stopped by the time bound: the next run of the session reads again on a fresh thread', async () => {
  const block = blockLedger(committed);
  const supply = await balance(block.ledger, holders[0], block.session);
  const stoppedBefore = thread.stopped;
  const spin = thread.run(block.ledger, { ...message(holders[0], new Uint8Array(0), spinner), gasLimit: 10n ** 12n }, { timeoutMs: 100, session: block.session });
  const stopped = await spin.then(
    () => 'ran',
    (e: { code?: string }) => e.code,
  );
  assert.is(stopped, 'EVM_TIMEOUT');
  assert.is(thread.stopped, stoppedBefore + 1);
  const sent = await thread.run(block.ledger, message(holders[0], transfer(holders[2], supply)), { timeoutMs: 60_000, session: block.session });
  assert.is(sent.end, 'return');
  block.commit(sent.changes);
  const readsBefore = block.reads.storage;
  assert.is(await balance(block.ledger, holders[2], block.session), supply);
  assert.is(block.reads.storage, readsBefore, 'the fresh thread kept what it read and was told');
  mergeChanges(committed, sent.changes);
});

test.run();
