// What a run of the EVM runner hands back, on hand-assembled bytecode whose every step is known:
// gas used with the refund capped at a fifth (EIP-3529), the state a failed inner call leaves
// (nothing: its value, storage and the calls it made are undone), events in the order they were
// emitted with those of a reverted call dropped, EXTCODEHASH as the state manager answers it,
// and the EVM's errors by name.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { loadEvm } from '../../src/node/evm/load.js';
import { EvmRunner, type EvmMessage } from '../../src/node/evm/runner.js';
import { emptyChanges, LedgerStateManager, ledgerWithChanges, mergeChanges, slotKey, type EvmChanges, type EvmLedger } from '../../src/node/evm/state.js';

const caller = '0c'.repeat(20);
const T = '71'.repeat(20);
const O = '0e'.repeat(20);
const M = '3e'.repeat(20);
const R = '4e'.repeat(20);
let runner: EvmRunner;

test.before(async () => {
  runner = await EvmRunner.create(1_000_000_001n, 30_000_000n);
});

/** A state in memory with the given code and accounts, and the ledger that reads it. */
function world(code: Record<string, string>, accounts: Record<string, bigint> = {}): { state: EvmChanges; ledger: EvmLedger } {
  const state = emptyChanges();
  for (const [key, hex] of Object.entries(code)) state.code.set(key, hexToBytes(hex));
  for (const [key, balance] of Object.entries(accounts)) state.accounts.set(key, { balance, nonce: 1n });
  return { state, ledger: ledgerWithChanges({ account: () => undefined, code: () => undefined, storage: () => undefined }, state) };
}

const message = (to: string, over: Partial<EvmMessage> = {}): EvmMessage => ({ caller, to, data: new Uint8Array(0), value: 0n, gasLimit: 1_000_000n, height: 5n, timestamp: 1_700_000_000n, ...over });

// Assembly helpers: PUSH1 n, PUSH20 address, CALL(gas, to, value, 0, 0, 0, 0).
const push1 = (n: number) => '60' + n.toString(16).padStart(2, '0');
const push20 = (key: string) => '73' + key;
const call = (to: string, value = 0) => push1(0) + push1(0) + push1(0) + push1(0) + push1(value) + push20(to) + '5a' + 'f1';
const SSTORE = '55';
const STOP = '00';
const REVERT_EMPTY = push1(0) + push1(0) + 'fd';

test('gas used: the refund for clearing a slot is capped at a fifth of the gas used, and given whole when it is less', async () => {
  // PUSH1 0, PUSH1 0, SSTORE over a cold slot holding 1: 3 + 3 + 2100 + 2900 = 5006 gas, a refund of 4800.
  const clear = world({ [O]: push1(0) + push1(0) + SSTORE + STOP });
  clear.state.storage.set(O, new Map([[slotKey(0n), new Uint8Array([1])]]));
  const cleared = await runner.run(clear.ledger, message(O));
  assert.is(cleared.end, 'return');
  assert.is(cleared.gasUsed, 5006n - 1001n, 'a fifth of 5006, rounded down');
  // Setting slot 1 first (cold, zero to non-zero: 2100 + 20000) makes the use 27112: the whole 4800 comes back.
  const both = world({ [O]: push1(1) + push1(1) + SSTORE + push1(0) + push1(0) + SSTORE + STOP });
  both.state.storage.set(O, new Map([[slotKey(0n), new Uint8Array([1])]]));
  const set = await runner.run(both.ledger, message(O));
  assert.is(set.gasUsed, 27_112n - 4_800n);
  assert.equal(
    set.changes.storage.get(O),
    new Map([
      [slotKey(1n), new Uint8Array([1])],
      [slotKey(0n), undefined],
    ]),
    'slot 1 set, slot 0 back to zero',
  );
  // A revert keeps its gas and its data; an EVM error uses the whole limit.
  // MSTORE8 of 0xab, REVERT with that byte: 3 + 3 + (3 + 3 for the first memory word) + 3 + 3.
  const reverted = await runner.run(world({ [O]: push1(0xab) + push1(0) + '53' + push1(1) + push1(0) + 'fd' }).ledger, message(O));
  assert.equal([reverted.end, reverted.gasUsed, bytesToHex(reverted.returnData)], ['revert', 18n, 'ab']);
  const failed = await runner.run(world({ [O]: 'fe' }).ledger, message(O, { gasLimit: 77_777n }));
  assert.equal([failed.end, failed.error, failed.gasUsed, failed.returnData.length], ['error', 'invalid_opcode', 77_777n, 0]);
  const underflow = await runner.run(world({ [O]: '01' }).ledger, message(O));
  assert.equal([underflow.end, underflow.error], ['error', 'stack_underflow']);
});

test('each run starts cold, as each Ethereum transaction does: the same run twice uses the same gas (EIP-2929)', async () => {
  // SLOAD of slot 7 and BALANCE of R: 2100 + 2100 + 2600 + 2600 cold, 100 + 100 warm.
  const code = push1(7) + '54' + '50' + push20(R) + '31' + '50' + STOP;
  const w = world({ [O]: code });
  const first = await runner.run(w.ledger, message(O));
  const again = await runner.run(w.ledger, message(O));
  assert.is(first.gasUsed, 3n + 2100n + 2n + 3n + 2600n + 2n);
  assert.is(again.gasUsed, first.gasUsed, 'the slot and the account read before are cold again');
  const other = world({ [M]: code });
  assert.is((await runner.run(other.ledger, message(M))).gasUsed, first.gasUsed);
});

test('a failed inner call undoes the value it carried and the storage it wrote; the outer call goes on', async () => {
  // O sends 5 to R, which writes slot 0 and reverts; O stores the call's result (0) in its slot 0.
  const w = world({ [O]: call(R, 5) + push1(0) + SSTORE + STOP, [R]: push1(1) + push1(0) + SSTORE + REVERT_EMPTY }, { [O]: 100n });
  w.state.storage.set(O, new Map([[slotKey(0n), new Uint8Array([9])]]));
  const run = await runner.run(w.ledger, message(O));
  assert.is(run.end, 'return');
  mergeChanges(w.state, run.changes);
  assert.is(w.ledger.storage(O, slotKey(0n)), undefined, 'the call failed: 0 stored');
  assert.is(w.ledger.storage(R, slotKey(0n)), undefined, 'the failed call wrote nothing');
  assert.is(w.ledger.account(O)?.balance, 100n, 'the value stays with O');
  assert.is(w.ledger.account(R)?.balance ?? 0n, 0n);
});

test('a call that succeeded inside a call that then reverted is undone with it; value sent by a successful call moves', async () => {
  // T calls O; O calls M (which writes its slot 0 and receives 3), then O reverts. T stores the result of its call.
  const w = world({ [T]: call(O) + push1(0) + SSTORE + call(M, 2) + STOP, [O]: call(M, 3) + REVERT_EMPTY, [M]: push1(1) + push1(0) + SSTORE + STOP }, { [T]: 50n, [O]: 40n });
  w.state.storage.set(T, new Map([[slotKey(0n), new Uint8Array([9])]]));
  const run = await runner.run(w.ledger, message(T));
  assert.is(run.end, 'return');
  mergeChanges(w.state, run.changes);
  assert.is(w.ledger.storage(T, slotKey(0n)), undefined, 'O reverted: T stored 0');
  // M ran twice: once under O (undone), once from T directly (kept, with the 2 T sent).
  assert.equal(w.ledger.storage(M, slotKey(0n)), new Uint8Array([1]));
  assert.equal([w.ledger.account(T)?.balance, w.ledger.account(O)?.balance, w.ledger.account(M)?.balance], [48n, 40n, 2n]);
});

test('a contract created inside a call that then reverted leaves no code; one created by a call that returned stays', async () => {
  // Init code that returns the one-byte runtime code 0x00.
  const init = push1(0) + push1(0) + '53' + push1(1) + push1(0) + 'f3';
  // PUSH10 init, MSTORE at 0 (init in bytes 22..31), CREATE(0, 22, 10).
  const create = '69' + init + push1(0) + '52' + push1(10) + push1(22) + push1(0) + 'f0';
  const w = world({ [T]: call(O) + '50' + create + '50' + STOP, [O]: create + '50' + REVERT_EMPTY });
  const run = await runner.run(w.ledger, message(T));
  assert.is(run.end, 'return');
  assert.equal([...run.changes.code.values()], [new Uint8Array([0])], "only T's contract");
});

test('the block a run sees: height, time in seconds, chain id, gas limit as the runner was given (the block gas limit), no coinbase, base fee, randomness or gas price; the caller is the origin', async () => {
  // NUMBER, TIMESTAMP, CHAINID, GASLIMIT, COINBASE, BASEFEE, PREVRANDAO, GASPRICE, ORIGIN, CALLER: one word each.
  const ops = ['43', '42', '46', '45', '41', '48', '44', '3a', '32', '33'];
  const push2 = (n: number) => '61' + n.toString(16).padStart(4, '0');
  const code = ops.map((op, i) => op + push2(32 * i) + '52').join('') + push2(32 * ops.length) + push1(0) + 'f3';
  const run = await runner.run(world({ [O]: code }).ledger, message(O, { height: 12n, timestamp: 1_700_000_123n }));
  const words = bytesToHex(run.returnData)
    .match(/.{64}/g)!
    .map((w) => BigInt('0x' + w));
  assert.equal(words, [12n, 1_700_000_123n, 1_000_000_001n, 30_000_000n, 0n, 0n, 0n, 0n, BigInt('0x' + caller), BigInt('0x' + caller)]);
});

test('events in the order emitted, across calls, with the address that emitted each; those of a reverted call dropped', async () => {
  // T: LOG1(topic 0x11) with data byte 0xaa, call M (LOG0), call R (LOG0 then revert), LOG2(0x22, 0x33).
  const log0 = push1(0) + push1(0) + 'a0';
  const w = world({
    [T]: push1(0xaa) + push1(0) + '53' + push1(0x11) + push1(1) + push1(0) + 'a1' + call(M) + '50' + call(R) + '50' + push1(0x33) + push1(0x22) + push1(0) + push1(0) + 'a2' + STOP,
    [M]: log0 + STOP,
    [R]: log0 + REVERT_EMPTY,
  });
  const run = await runner.run(w.ledger, message(T));
  assert.is(run.end, 'return');
  const word = (n: number) => n.toString(16).padStart(64, '0');
  assert.equal(
    run.logs.map((l) => [l.address, l.topics.map((t) => bytesToHex(t)), bytesToHex(l.data)]),
    [
      [T, [word(0x11)], 'aa'],
      [M, [], ''],
      [T, [word(0x22), word(0x33)], ''],
    ],
  );
  const failed = await runner.run(world({ [T]: log0 + REVERT_EMPTY }).ledger, message(T));
  assert.equal([failed.end, failed.logs], ['revert', []], 'a reverted run emits nothing');
});

test('EXTCODEHASH: the keccak of the code for a contract, the empty hash for an account without code, 0 for none', async () => {
  // O returns EXTCODEHASH of the address in its calldata.
  const probe = '6000' + '35' + '3f' + push1(0) + '52' + push1(32) + push1(0) + 'f3';
  const code = hexToBytes(push1(1) + STOP);
  const w = world({ [O]: probe, [M]: bytesToHex(code) }, { [R]: 1n });
  const hashOf = async (key: string) => bytesToHex((await runner.run(w.ledger, message(O, { data: hexToBytes(key.padStart(64, '0')) }))).returnData);
  assert.is(await hashOf(M), bytesToHex(keccak_256(code)));
  assert.is(await hashOf(O), bytesToHex(keccak_256(hexToBytes(probe))), 'its own code');
  assert.is(await hashOf(R), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', 'keccak of nothing');
  assert.is(await hashOf('99'.repeat(20)), '00'.repeat(32));
});

test('the state manager: begin starts afresh even after a run left midway, and revert undoes only its own frame', async () => {
  const manager = new LedgerStateManager(await loadEvm());
  const at = (key: string) => ({ toString: () => '0x' + key });
  const empty: EvmLedger = { account: () => undefined, code: () => undefined, storage: () => undefined };
  manager.begin(empty);
  await manager.checkpoint();
  await manager.putAccount(at(O), { nonce: 1n, balance: 10n });
  // Left without commit, revert or finish: the next run must not inherit its frame.
  manager.begin(empty);
  await manager.putAccount(at(O), { nonce: 2n, balance: 20n });
  await manager.revert();
  await manager.checkpoint();
  await manager.putStorage(at(O), new Uint8Array(32), new Uint8Array([0, 0, 5]));
  await manager.putCode(at(M), new Uint8Array([0x60]));
  await manager.checkpoint();
  await manager.modifyAccountFields(at(O), { balance: 30n });
  await manager.putStorage(at(O), new Uint8Array(32), new Uint8Array([6]));
  await manager.revert();
  await manager.commit();
  const changes = manager.finish();
  assert.equal(changes.accounts.get(O), { balance: 20n, nonce: 2n }, 'written outside any frame: kept');
  assert.equal(changes.storage.get(O)?.get('00'.repeat(32)), new Uint8Array([5]), "leading zeros trimmed; the reverted frame's write undone");
  assert.equal(changes.code.get(M), new Uint8Array([0x60]));
  assert.equal(changes.accounts.get(M), { balance: 0n, nonce: 0n }, 'code makes an account');
  assert.equal(manager.finish(), emptyChanges(), 'finish hands the changes over once');
});

test.run();
