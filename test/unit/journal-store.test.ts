// Snapshots of the store (store/journal-store.ts) on a memory store: a revert gives back every
// key as it was (an empty value stays an empty value, a key made since goes), later snapshots
// are dropped and earlier ones stay usable, a removed snapshot takes the undo records nobody
// needs with it, names are checked and move, at most 1000 snapshots, and all of it reopens.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JournalStore } from '../../src/node/store/journal-store.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import type { ValidationError } from '../../src/errors.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const put = (key: string, value: string | Uint8Array): StoreOp => ({ type: 'put', key, value: typeof value === 'string' ? bytes(value) : value });
const del = (key: string): StoreOp => ({ type: 'del', key });

/** The keys outside the journal's own, with their values as text. */
async function data(store: { entries(prefix: string): AsyncIterable<[string, Uint8Array]> }): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const [key, value] of store.entries('')) {
    if (key === 'journal' || key.startsWith('j:') || key.startsWith('snap:')) continue;
    out[key] = Buffer.from(value).toString('hex');
  }
  return out;
}

async function count(store: MemoryStore, prefix: string): Promise<number> {
  let n = 0;
  for await (const _ of store.entries(prefix)) n++;
  return n;
}

async function refusal(work: () => Promise<unknown>): Promise<ValidationError> {
  try {
    await work();
  } catch (err) {
    return err as ValidationError;
  }
  throw new Error('expected a refusal');
}

test('without a snapshot nothing extra is written; with one, a revert gives back every key as it was', async () => {
  const inner = new MemoryStore();
  const store = await JournalStore.open(inner);
  await store.batch([put('a', '1'), put('empty', new Uint8Array(0)), put('long', new Uint8Array(70_000).fill(7))]);
  assert.is(await count(inner, 'j:'), 0, 'no undo records');
  assert.is(await inner.get('journal'), undefined);
  const before = await data(inner);
  const snap = await store.take(1, 'base');
  assert.equal([snap.id, snap.name, snap.seq, snap.height], ['1', 'base', 0, 1]);
  await store.batch([put('a', '2'), put('b', 'new'), del('empty')]);
  await store.batch([put('a', '3'), put('long', 'short'), put('empty', 'filled')]);
  await store.batch([del('b'), put('c', new Uint8Array(0))]);
  assert.is(await count(inner, 'j:'), 3, 'one undo record per batch');
  const records: string[] = [];
  for await (const [key] of store.entries('j:', 'j:000000000001')) records.push(key);
  assert.equal(records, ['j:000000000002', 'j:000000000003'], 'numbered in 12 hex digits; read through the journal store, after= as given');
  assert.equal(JSON.parse(Buffer.from((await inner.get('journal'))!).toString()), { seq: 3, nextId: 2 });
  const result = await store.revert(snap);
  assert.equal(result, { keys: 5, dropped: [] });
  assert.equal(await data(inner), before);
  assert.is((await inner.get('empty'))?.length, 0, 'an empty value is a value, not a missing key');
  assert.is(await count(inner, 'j:'), 0, 'the undo records used are gone');
  // The snapshot stays: more changes, and back again.
  await store.batch([put('a', '4')]);
  await store.revert(store.find('base'));
  assert.equal(await data(inner), before);
});

test('reverting drops the snapshots taken after the target; the target and older ones stay usable', async () => {
  const inner = new MemoryStore();
  const store = await JournalStore.open(inner);
  await store.batch([put('k', '0')]);
  const first = await store.take(0);
  await store.batch([put('k', '1')]);
  const second = await store.take(1);
  const sameSeq = await store.take(1); // no write between: the same seq as `second`
  await store.batch([put('k', '2')]);
  const third = await store.take(2);
  await store.batch([put('k', '3')]);
  assert.equal(
    store.list().map((s) => s.id),
    ['1', '2', '3', '4'],
  );
  assert.equal(await store.revert(second), { keys: 1, dropped: ['3', '4'] });
  assert.equal(JSON.parse(Buffer.from((await inner.get('journal'))!).toString()), { seq: 1, nextId: 5 }, 'the journal head goes back to the snapshot');
  assert.equal(Buffer.from((await store.get('k'))!).toString(), '1');
  assert.equal(
    store.list().map((s) => s.id),
    [first.id, second.id],
  );
  assert.equal([await inner.get('snap:' + sameSeq.id), await inner.get('snap:' + third.id)], [undefined, undefined]);
  await store.batch([put('k', '9')]);
  await store.revert(first);
  assert.equal(Buffer.from((await store.get('k'))!).toString(), '0');
  assert.equal(
    store.list().map((s) => s.id),
    ['1'],
  );
  // Ids keep growing after a revert: a new snapshot never takes a dropped one's id.
  assert.is((await store.take(0)).id, '5');
});

test('removing a snapshot deletes the undo records no other snapshot needs; the last one removed leaves none', async () => {
  const inner = new MemoryStore();
  const store = await JournalStore.open(inner);
  const first = await store.take(0);
  await store.batch([put('k', '1')]);
  await store.batch([put('k', '2')]);
  const second = await store.take(0);
  await store.batch([put('k', '3')]);
  assert.is(await count(inner, 'j:'), 3);
  await store.remove(first);
  assert.is(await count(inner, 'j:'), 1, 'the records before the second snapshot go; the one after it stays');
  assert.is(await inner.get('snap:' + first.id), undefined);
  await store.revert(second);
  assert.equal(Buffer.from((await store.get('k'))!).toString(), '2');
  await store.batch([put('k', '4')]);
  await store.remove(second);
  assert.is(await count(inner, 'j:'), 0);
  assert.equal(store.list(), []);
  await store.batch([put('k', '5')]);
  assert.is(await count(inner, 'j:'), 0, 'no snapshot: no undo record');
  const err = await refusal(async () => store.find(second.id));
  assert.equal([err.code, err.details], ['SNAPSHOT_NOT_FOUND', `"${second.id}"; this node has none`]);
});

test('names: a letter then up to 63 more; given again, the name moves to the new snapshot; found by id or name', async () => {
  const store = await JournalStore.open(new MemoryStore());
  const longest = 'a' + 'b'.repeat(63);
  assert.is((await store.take(0, 'x')).name, 'x', 'one letter is a name');
  assert.is((await store.take(0, longest)).name, longest);
  for (let i = 0; i < 16; i++) await store.batch([put('k', String(i))]);
  const keys: string[] = [];
  for await (const [key] of store.entries('j:', 'j:00000000000e')) keys.push(key);
  assert.equal(keys, ['j:00000000000f', 'j:000000000010'], 'the 16th undo record is j:…10');
  for (const bad of [longest + 'c', '1abc', '', 'a b', '-a']) {
    const err = await refusal(() => store.take(0, bad));
    assert.equal([err.code, err.field], ['BAD_REQUEST_PARAM', 'name'], JSON.stringify(bad));
  }
  const old = await store.take(0, 'base');
  const moved = await store.take(0, 'base');
  assert.is(store.find('base').id, moved.id);
  assert.is(store.find(old.id).name, undefined, 'the older one lost the name');
  assert.is(store.find(old.id).id, old.id);
  const err = await refusal(async () => store.find('nope'));
  assert.equal([err.code, err.details], ['SNAPSHOT_NOT_FOUND', `"nope"; this node has 1 (x), 2 (${longest}), ${old.id}, ${moved.id} (base)`]);
});

test('snapshots are listed by id as numbers, and at most 1000 are kept', async () => {
  const store = await JournalStore.open(new MemoryStore());
  for (let i = 0; i < 999; i++) await store.take(i);
  assert.equal(
    store
      .list()
      .slice(0, 12)
      .map((s) => s.id),
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'],
  );
  assert.is((await store.take(999)).id, '1000', 'the thousandth is taken');
  const err = await refusal(() => store.take(1000));
  assert.equal([err.code, err.message], ['BAD_REQUEST_PARAM', 'Too many snapshots: a node keeps at most 1000; delete some (snapshot {"delete": id})']);
  await store.remove(store.find('1'));
  assert.is((await store.take(1000)).id, '1001', 'room again after a delete');
});

test('reopened on the same store: snapshots, names, the undo records and the next id are all still there', async () => {
  const inner = new MemoryStore();
  let store = await JournalStore.open(inner);
  await store.batch([put('k', 'before')]);
  await store.take(3, 'base');
  await store.batch([put('k', 'after'), put('n', 'x')]);
  await store.take(4);
  await store.batch([put('k', 'later')]);
  store = await JournalStore.open(inner);
  assert.equal(
    store.list().map((s) => [s.id, s.name, s.height]),
    [
      ['1', 'base', 3],
      ['2', undefined, 4],
    ],
  );
  await store.batch([put('k', 'after reopen')]);
  assert.equal(await store.revert(store.find('2')), { keys: 1, dropped: [] });
  assert.equal(Buffer.from((await store.get('k'))!).toString(), 'after');
  await store.revert(store.find('base'));
  assert.equal(await data(inner), { k: Buffer.from('before').toString('hex') });
  assert.is((await store.take(0)).id, '3');
  // Reopened right after snapshots are taken (no write since): the next id, and a name that moved, are stored.
  await store.take(0, 'moved');
  const newer = await store.take(0, 'moved');
  store = await JournalStore.open(inner);
  assert.is(store.find('moved').id, newer.id);
  assert.is((await store.take(0)).id, String(Number(newer.id) + 1));
});

test('a batch that waited while the last snapshot was removed writes no undo record', async () => {
  const inner = new MemoryStore();
  const store = await JournalStore.open(inner);
  const only = await store.take(0);
  // Asked in the same turn: the removal holds the journal first, the batch waits for it.
  const removed = store.remove(only);
  const written = store.batch([put('k', '1')]);
  await Promise.all([removed, written]);
  assert.equal(store.list(), []);
  assert.is(await count(inner, 'j:'), 0, 'no snapshot left to need one');
  assert.is(Buffer.from((await store.get('k'))!).toString(), '1');
});

test('a snapshot whose record cannot be written is refused and not listed; the next one is taken', async () => {
  class FailingOnce extends MemoryStore {
    fail = false;
    override async batch(ops: StoreOp[]): Promise<void> {
      if (this.fail) {
        this.fail = false;
        throw new Error('no space left on device');
      }
      return super.batch(ops);
    }
  }
  const inner = new FailingOnce();
  const store = await JournalStore.open(inner);
  inner.fail = true;
  const err = await refusal(() => store.take(0, 'first'));
  assert.match(err.message, /no space left/);
  assert.equal(store.list(), [], 'a snapshot not on disk is not offered');
  const next = await store.take(0, 'second');
  assert.equal(
    store.list().map((s) => s.name),
    ['second'],
  );
  assert.is(next.id, '1', 'the id the failed one would have had is used');
});

test('property: after random writes, snapshots and removals, every snapshot left reverts to exactly its state', async () => {
  for (let seed = 1; seed <= 40; seed++) {
    let x = seed * 0x9e3779b1;
    const random = () => ((x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0) >>> 0) / 2 ** 32;
    const inner = new MemoryStore();
    const store = await JournalStore.open(inner);
    const states = new Map<string, Record<string, string>>();
    for (let step = 0; step < 30; step++) {
      const roll = random();
      if (roll < 0.55) {
        const ops: StoreOp[] = [];
        for (let i = 0, n = 1 + Math.floor(random() * 3); i < n; i++) {
          const key = `k${Math.floor(random() * 6)}`;
          ops.push(random() < 0.25 ? del(key) : put(key, `v${seed}.${step}.${i}`));
        }
        await store.batch(ops);
      } else if (roll < 0.8 || store.list().length === 0) {
        const taken = await store.take(step);
        states.set(taken.id, await data(inner));
      } else {
        const all = store.list();
        const gone = all[Math.floor(random() * all.length)];
        await store.remove(gone);
        states.delete(gone.id);
      }
    }
    // Newest first: a revert drops the snapshots after its target, so each older one is next.
    for (const snap of store.list().reverse()) {
      await store.revert(snap);
      assert.equal(await data(inner), states.get(snap.id), `seed ${seed}: snapshot ${snap.id} of ${[...states.keys()].join(', ')}`);
    }
  }
});

test.run();
