// The EVM's part of the ledger over a store in memory, block by block as the block builder
// writes it: the store operations of each block (its code, storage, accounts, events, receipts
// and the undo record), the state read back at start, the heights with events found by range,
// and the undo of the blocks above a height (what a rollback and a repair write).
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, bytesToBase64 } from '../../src/bytes.js';
import { ContractState, evmRollbackOps, type EvmBlockRecord } from '../../src/node/evm/contract-state.js';
import { storedLog, type BlockLogs } from '../../src/node/evm/logs.js';
import { emptyChanges, type EvmChanges } from '../../src/node/evm/state.js';
import { codeKey, evmAccountKey, evmUndoKey, logsKey, PREFIX, receiptKey, storageKey } from '../../src/node/store/keys.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';

const A = 'aa'.repeat(20);
const B = 'bb'.repeat(20);
const slot = (n: number) => n.toString(16).padStart(64, '0');
const bytes = (...b: number[]) => new Uint8Array(b);
const text = new TextDecoder();

/** A block's events: `count` of them, from transactions 0 and 1 in turn. */
function eventsOf(height: number, count: number): BlockLogs {
  const logs = Array.from({ length: count }, (_, i) =>
    storedLog({ txid: `tx${height}.${i % 2}`, txIndex: i % 2, logIndex: i, caller: B }, { address: A, topics: [new Uint8Array(32).fill(height)], data: bytes(i) }),
  );
  return { height, hash: height.toString(16).padStart(64, '0').toUpperCase(), logs };
}

interface Block {
  height: number;
  changes: EvmChanges;
  logs?: BlockLogs;
  receipts: { hash: string; json: string }[];
}

/**
 * The test chain: events at heights 1 (two), 3 (one), 6 (three) and 9 (one); block 2 changes
 * nothing, block 4 has an empty event list, blocks 5, 7 and 8 are not EVM blocks at all.
 */
function blocks(): Block[] {
  const b1 = emptyChanges();
  b1.code.set(A, bytes(0x60, 0x00));
  b1.storage.set(
    A,
    new Map([
      [slot(1), bytes(7)],
      [slot(2), bytes(8)],
    ]),
  );
  b1.accounts.set(A, { balance: 5n, nonce: 1n });
  const b3 = emptyChanges();
  b3.storage.set(
    A,
    new Map([
      [slot(1), bytes(9)],
      [slot(2), undefined],
    ]),
  );
  b3.accounts.set(B, { balance: 3n, nonce: 0n });
  const b4 = emptyChanges();
  b4.storage.set(A, new Map([[slot(1), bytes(10)]]));
  const b6 = emptyChanges();
  b6.accounts.set(A, { balance: 6n, nonce: 2n });
  return [
    { height: 1, changes: b1, logs: eventsOf(1, 2), receipts: [{ hash: 'r1', json: '{"n":1}' }] },
    { height: 2, changes: emptyChanges(), receipts: [] },
    { height: 3, changes: b3, logs: eventsOf(3, 1), receipts: [{ hash: 'r3', json: '{"n":3}' }] },
    { height: 4, changes: b4, logs: eventsOf(4, 0), receipts: [{ hash: 'r4', json: '{"n":4}' }] },
    {
      height: 6,
      changes: b6,
      logs: eventsOf(6, 3),
      receipts: [
        { hash: 'r6a', json: '{"n":6}' },
        { hash: 'r6b', json: '{"n":7}' },
      ],
    },
    { height: 9, changes: emptyChanges(), logs: eventsOf(9, 1), receipts: [{ hash: 'r9', json: '{"n":9}' }] },
  ];
}

/** Writes the blocks as the builder does: the block's ops in one batch, then apply. */
async function chain(): Promise<{ store: MemoryStore; state: ContractState; ops: Map<number, StoreOp[]> }> {
  const store = new MemoryStore();
  const state = new ContractState(store);
  const ops = new Map<number, StoreOp[]>();
  for (const b of blocks()) {
    const mine = await state.blockOps(b.height, b.changes, b.logs, b.receipts);
    ops.set(b.height, mine);
    await store.batch(mine);
    state.apply(b.height, b.changes, !!b.logs && b.logs.logs.length > 0);
  }
  return { store, state, ops };
}

async function keysOf(store: MemoryStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const [key] of store.entries(prefix)) out.push(key);
  return out;
}

/** The state as plain values, to compare two states (storage as the store holds it). */
async function snapshot(s: ContractState) {
  const storage: Record<string, Record<string, number[]>> = {};
  for (const key of [A, B]) {
    const slots: Record<string, number[]> = {};
    for await (const [sl, v] of s.slots(key)) slots[sl] = [...v];
    if (Object.keys(slots).length > 0) storage[key] = slots;
  }
  return {
    code: Object.fromEntries([...s.code].map(([k, v]) => [k, [...v]])),
    storage,
    accounts: Object.fromEntries([...s.accounts].map(([k, a]) => [k, `${a.balance}/${a.nonce}`])),
    logHeights: [...s.logHeights],
  };
}

/** Runs `f`, failing after 30 s instead of hanging the file when a search never ends. */
function withinDeadline<T>(f: () => T): T {
  return runInNewContext('f()', { f }, { timeout: 30_000 }) as T;
}

test('heights with events by range: the first and last, a range between blocks, ranges over several blocks, empty and reversed ranges', async () => {
  const { state } = await chain();
  assert.equal(state.logHeights, [1, 3, 6, 9], 'a block with an empty event list has no events');
  const cases: [number, number, number[]][] = [
    [0, 0, []],
    [0, 1, [1]],
    [1, 1, [1]],
    [1, 2, [1]],
    [2, 2, []],
    [2, 3, [3]],
    [2, 5, [3]],
    [3, 6, [3, 6]],
    [4, 5, []],
    [7, 8, []],
    [2, 8, [3, 6]],
    [6, 6, [6]],
    [9, 9, [9]],
    [8, 9, [9]],
    [9, 100, [9]],
    [10, 20, []],
    [0, 100, [1, 3, 6, 9]],
    [1, 9, [1, 3, 6, 9]],
    [6, 3, []],
  ];
  for (const [from, to, want] of cases)
    assert.equal(
      withinDeadline(() => state.logHeightsIn(from, to)),
      want,
      `${from}..${to}`,
    );
  const none = new ContractState(new MemoryStore());
  assert.equal(
    withinDeadline(() => none.logHeightsIn(0, 100)),
    [],
    'no events at all',
  );
  const one = new ContractState(new MemoryStore());
  one.logHeights.push(5);
  assert.equal(
    withinDeadline(() => [one.logHeightsIn(0, 4), one.logHeightsIn(5, 5), one.logHeightsIn(6, 9), one.logHeightsIn(0, 9)]),
    [[], [5], [], [5]],
  );
});

test('the events of a height with several of them are stored whole, in their order; a state loaded from the store finds the same heights', async () => {
  const { store, state } = await chain();
  const loaded = await ContractState.load(store);
  assert.equal(await snapshot(loaded), await snapshot(state));
  for (const [from, to] of [
    [0, 100],
    [2, 6],
    [6, 9],
    [4, 5],
  ])
    assert.equal(
      withinDeadline(() => loaded.logHeightsIn(from, to)),
      withinDeadline(() => state.logHeightsIn(from, to)),
    );
  const six = JSON.parse(text.decode((await store.get(logsKey(6)))!)) as BlockLogs;
  assert.equal(
    six.logs.map((l) => [l.logIndex, l.txIndex, l.txid, l.data]),
    [
      [0, 0, 'tx6.0', '00'],
      [1, 1, 'tx6.1', '01'],
      [2, 0, 'tx6.0', '02'],
    ],
  );
  assert.is(six.hash, '6'.padStart(64, '0'));
  assert.equal(await keysOf(store, PREFIX.logs), [logsKey(1), logsKey(3), logsKey(6), logsKey(9)]);
});

test('a state read back: code, storage split into contract and slot, accounts with balance and nonce', async () => {
  const { store } = await chain();
  const loaded = await ContractState.load(store);
  assert.equal(loaded.code.get(A), bytes(0x60, 0x00));
  assert.equal(await loaded.storageValue(A, slot(1)), bytes(10));
  assert.is(await loaded.storageValue(A, slot(2)), undefined, 'a slot set back to zero is gone');
  assert.is(await loaded.storageValue(B, slot(1)), undefined);
  assert.is(await loaded.slotCount(A), 1);
  assert.is(await loaded.slotCount(B), 0);
  assert.equal(loaded.accounts.get(A), { balance: 6n, nonce: 2n });
  assert.equal(loaded.accounts.get(B), { balance: 3n, nonce: 0n });
});

test("a block's operations: what each key held before, a slot back to zero deleted, events only when there are some, receipts, the undo record last", async () => {
  const { ops } = await chain();
  assert.equal(ops.get(2), [], 'a block that changes nothing writes nothing, not even an undo record');
  const first = ops.get(1)!;
  assert.equal(
    first.map((o) => `${o.type} ${o.key}`),
    [`put ${codeKey(A)}`, `put ${storageKey(A, slot(1))}`, `put ${storageKey(A, slot(2))}`, `put ${evmAccountKey(A)}`, `put ${logsKey(1)}`, `put ${receiptKey('r1')}`, `put ${evmUndoKey(1)}`],
  );
  const receipt = first[5] as { value: Uint8Array };
  assert.is(text.decode(receipt.value), '{"n":1}');
  const record1 = JSON.parse(text.decode((first[6] as { value: Uint8Array }).value)) as EvmBlockRecord;
  assert.equal(record1, {
    before: { [codeKey(A)]: null, [storageKey(A, slot(1))]: null, [storageKey(A, slot(2))]: null, [evmAccountKey(A)]: null },
    receipts: ['r1'],
    logs: true,
  });
  const third = ops.get(3)!;
  assert.equal(
    third.map((o) => `${o.type} ${o.key}`),
    [`put ${storageKey(A, slot(1))}`, `del ${storageKey(A, slot(2))}`, `put ${evmAccountKey(B)}`, `put ${logsKey(3)}`, `put ${receiptKey('r3')}`, `put ${evmUndoKey(3)}`],
  );
  const record3 = JSON.parse(text.decode((third.at(-1) as { value: Uint8Array }).value)) as EvmBlockRecord;
  assert.equal(record3.before, { [storageKey(A, slot(1))]: bytesToBase64(bytes(7)), [storageKey(A, slot(2))]: bytesToBase64(bytes(8)), [evmAccountKey(B)]: null });
  const fourth = ops.get(4)!;
  assert.equal(
    fourth.map((o) => `${o.type} ${o.key}`),
    [`put ${storageKey(A, slot(1))}`, `put ${receiptKey('r4')}`, `put ${evmUndoKey(4)}`],
    'an empty event list writes no events',
  );
  assert.is((JSON.parse(text.decode((fourth.at(-1) as { value: Uint8Array }).value)) as EvmBlockRecord).logs, false);
  const sixth = ops.get(6)!;
  const record6 = JSON.parse(text.decode((sixth.at(-1) as { value: Uint8Array }).value)) as EvmBlockRecord;
  assert.equal(JSON.parse(text.decode(base64ToBytes(record6.before[evmAccountKey(A)]!))), { balance: '5', nonce: '1' }, 'an account as it was before, decimal strings');
  assert.equal(record6.receipts, ['r6a', 'r6b']);
});

test('the same key written twice in one block keeps, as its value before, what the block found', async () => {
  const store = new MemoryStore();
  const state = new ContractState(store);
  const first = emptyChanges();
  first.storage.set(A, new Map([[slot(1), bytes(1)]]));
  await store.batch(await state.blockOps(1, first, undefined, []));
  state.apply(1, first, false);
  const changes = emptyChanges();
  changes.storage.set(A, new Map([[slot(1), bytes(2)]]));
  changes.code.set(A, bytes(0xfe));
  const ops = await state.blockOps(2, changes, undefined, []);
  const record = JSON.parse(text.decode((ops.at(-1) as { value: Uint8Array }).value)) as EvmBlockRecord;
  assert.equal(record, { before: { [codeKey(A)]: null, [storageKey(A, slot(1))]: bytesToBase64(bytes(1)) }, receipts: [], logs: false });
});

test('undoing the blocks above a height: each key as the oldest dropped block found it; their events, receipts and undo records gone', async () => {
  const { store } = await chain();
  // The state at height 3, written by the same blocks up to 3.
  const at3 = await (async () => {
    const own = new MemoryStore();
    const s = new ContractState(own);
    for (const b of blocks().filter((b) => b.height <= 3)) {
      await own.batch(await s.blockOps(b.height, b.changes, b.logs, b.receipts));
      s.apply(b.height, b.changes, !!b.logs && b.logs.logs.length > 0);
    }
    return s;
  })();
  await store.batch(await evmRollbackOps(store, 3));
  const back = await ContractState.load(store);
  assert.equal(await snapshot(back), await snapshot(at3));
  assert.equal(await back.storageValue(A, slot(1)), bytes(9));
  assert.equal(back.accounts.get(A), { balance: 5n, nonce: 1n });
  assert.equal(await keysOf(store, PREFIX.receipt), [receiptKey('r1'), receiptKey('r3')]);
  assert.equal(await keysOf(store, PREFIX.logs), [logsKey(1), logsKey(3)]);
  assert.equal(await keysOf(store, PREFIX.evmUndo), [evmUndoKey(1), evmUndoKey(3)], 'the undo record of the target itself stays');
  assert.equal(await evmRollbackOps(store, 3), [], 'nothing above 3 is left to undo');
});

test('undoing two blocks that changed the same slot puts back the value from before the older one', async () => {
  const { store } = await chain();
  await store.batch(await evmRollbackOps(store, 2));
  const back = await ContractState.load(store);
  assert.equal(await back.storageValue(A, slot(1)), bytes(7), 'blocks 3 and 4 both wrote slot 1: the value before block 3');
  assert.equal(await back.storageValue(A, slot(2)), bytes(8), 'deleted by block 3, put back');
  assert.is(back.accounts.get(B), undefined, 'created by block 3: removed');
  assert.equal(back.logHeights, [1]);
});

test('undoing every block leaves no EVM key at all', async () => {
  const { store } = await chain();
  await store.batch(await evmRollbackOps(store, 0));
  for (const prefix of [PREFIX.code, PREFIX.storage, PREFIX.evmAccount, PREFIX.logs, PREFIX.receipt, PREFIX.evmUndo]) {
    assert.equal(await keysOf(store, prefix), [], prefix);
  }
});

test.run();
