// The start-up check of a chain written straight into a memory store: each kind of damage named
// in its own words, and `intact`, the last block of the unbroken sound run from genesis (what a
// repair keeps), for each; at most 20 problems listed, the rest counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { blockHash, blockRecord, type BlockHeader } from '../../src/node/ledger/block.js';
import { checkStore, storeIsEmpty } from '../../src/node/ledger/chain-check.js';
import { heightKey, META_KEY, statusKey, txKey, walletKey } from '../../src/node/store/keys.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

interface Made {
  store: MemoryStore;
  hashes: string[];
  headers: BlockHeader[];
}

/** Blocks 0..n-1, block h listing `perBlock` transactions (none in genesis), every record in place, the head at the top. */
async function chain(n: number, perBlock = 2): Promise<Made> {
  const store = new MemoryStore();
  const ops: StoreOp[] = [];
  const hashes: string[] = [];
  const headers: BlockHeader[] = [];
  let parent: Uint8Array = new Uint8Array(32);
  for (let height = 0; height < n; height++) {
    const txs = height === 0 ? [] : Array.from({ length: perBlock }, (_, i) => `tx-${height}-${i}`);
    const header = { chain: 1, height, parent, txroot: new Uint8Array(32).fill(height), balroot: new Uint8Array(32).fill(2), time: 1_800_000_000_000 + height };
    const hash = blockHash(header);
    ops.push({ type: 'put', key: heightKey(height), value: json(blockRecord(header, hash, { txs, failed: {}, registered: {}, bals: {} })) });
    for (const txid of txs) ops.push({ type: 'put', key: txKey(txid), value: Buffer.from('x') }, { type: 'put', key: statusKey(txid), value: Buffer.from('{}') });
    hashes.push(hexOf(hash));
    headers.push(header);
    parent = hash;
  }
  ops.push({ type: 'put', key: META_KEY, value: json({ height: n - 1, hash: hashes[n - 1] }) });
  await store.batch(ops);
  return { store, hashes, headers };
}

const del = (...keys: string[]): StoreOp[] => keys.map((key) => ({ type: 'del', key }));

async function checked(made: Made, damage: StoreOp[]) {
  await made.store.batch(damage);
  const { problems, intact, blocks } = await checkStore(made.store);
  return { problems, intact, blocks };
}

test('a sound chain: no problems, every block intact, each counted', async () => {
  const made = await chain(6);
  const check = await checkStore(made.store);
  assert.equal([check.problems, check.intact, check.blocks, check.txs, check.head], [[], 5, 6, 10, { height: 5, hash: made.hashes[5] }]);
  const genesisOnly = await chain(1);
  assert.equal([(await checkStore(genesisOnly.store)).problems, (await checkStore(genesisOnly.store)).intact], [[], 0], 'a chain of its genesis alone is sound');
});

test('missing blocks: one, a run, the head, a run up to the head; the intact run ends before the first', async () => {
  assert.equal(await checked(await chain(6), del(heightKey(2))), { problems: ['block 2 is missing'], intact: 1, blocks: 5 });
  assert.equal(await checked(await chain(6), del(heightKey(1))), { problems: ['block 1 is missing'], intact: 0, blocks: 5 });
  assert.equal(await checked(await chain(6), del(heightKey(2), heightKey(3))), { problems: ['blocks 2 to 3 are missing'], intact: 1, blocks: 4 });
  assert.equal(await checked(await chain(6), del(heightKey(5))), { problems: ['block 5 (the head) is missing'], intact: 4, blocks: 5 });
  assert.equal(await checked(await chain(6), del(heightKey(4), heightKey(5))), { problems: ['blocks 4 to 5 (the head) are missing'], intact: 3, blocks: 4 });
  assert.equal((await checked(await chain(6), del(heightKey(0)))).intact, undefined, 'no genesis: nothing intact');
  // Heights are hex in the keys: block 0x11 (17) named by its height.
  assert.equal(await checked(await chain(20, 1), del(heightKey(17))), { problems: ['block 17 is missing'], intact: 16, blocks: 19 });
});

test("a transaction's records, a block's height, link or hash, the head's hash: each named, the run ends below it", async () => {
  assert.equal(await checked(await chain(6), del(statusKey('tx-3-1'))), { problems: ['transaction tx-3-1 is listed in a block but its status (s:) is missing'], intact: 2, blocks: 6 });
  assert.equal(await checked(await chain(6), del(txKey('tx-4-0'))), { problems: ['transaction tx-4-0 is listed in a block but its container (x:) is missing'], intact: 3, blocks: 6 });

  const moved = await chain(6);
  const record3 = blockRecord(moved.headers[3], blockHash(moved.headers[3]), { txs: [], failed: {}, registered: {}, bals: {} });
  const wrongHeight = { ...record3, header: { ...record3.header, height: 7 } };
  assert.equal(await checked(moved, [{ type: 'put', key: heightKey(3), value: json(wrongHeight) }]), { problems: ['block 3 is damaged: it says height 7'], intact: 2, blocks: 5 });

  // Block 4 made again over another parent: whole, but linked to no block 3 (and block 5 no longer to it).
  const relinked = await chain(6);
  const header4 = { ...relinked.headers[4], parent: new Uint8Array(32).fill(9) };
  const record4 = blockRecord(header4, blockHash(header4), { txs: [], failed: {}, registered: {}, bals: {} });
  assert.equal(await checked(relinked, [{ type: 'put', key: heightKey(4), value: json(record4) }]), {
    problems: ['block 4 does not link to block 3', 'block 5 does not link to block 4'],
    intact: 3,
    blocks: 6,
  });

  const otherHead = await chain(6);
  assert.equal(await checked(otherHead, [{ type: 'put', key: META_KEY, value: json({ height: 5, hash: otherHead.hashes[4].toLowerCase() }) }]), {
    problems: [`the head names ${otherHead.hashes[4]} at height 5, the block there is ${otherHead.hashes[5]}`],
    intact: 4,
    blocks: 6,
  });
});

test('a single transaction left for the last lookup is looked up; problems come in the order of the chain', async () => {
  assert.equal(await checked(await chain(2, 1), del(statusKey('tx-1-0'))), { problems: ['transaction tx-1-0 is listed in a block but its status (s:) is missing'], intact: 0, blocks: 2 });
  // 2048 transactions in block 1 fill a lookup, done before block 2 is read: its problem comes after theirs.
  const big = await chain(3, 2048);
  const header2 = { ...big.headers[2], parent: new Uint8Array(32).fill(7) };
  const record2 = blockRecord(header2, blockHash(header2), { txs: [], failed: {}, registered: {}, bals: {} });
  const found = await checked(big, [
    ...del(statusKey('tx-1-5')),
    { type: 'put', key: heightKey(2), value: json(record2) },
    { type: 'put', key: META_KEY, value: json({ height: 2, hash: hexOf(blockHash(header2)) }) },
  ]);
  assert.equal(found.problems, ['transaction tx-1-5 is listed in a block but its status (s:) is missing', 'block 2 does not link to block 1']);
});

/** A memory store that records the keys of each lookup; the first lookups answer late, like a cold disk. */
class SlowLookups extends MemoryStore {
  readonly lookups: number[] = [];
  constructor(private slowCalls: number) {
    super();
  }
  override async getMany(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    this.lookups.push(keys.length);
    if (this.slowCalls-- > 0) await new Promise((r) => setTimeout(r, 30));
    return super.getMany(keys);
  }
}

test('transactions are looked up 2048 at a time or more, never one block at a time, each lookup finished before the check ends', async () => {
  const small = await chain(5, 2);
  const store = new SlowLookups(0);
  for await (const [key, value] of small.store.entries('')) await store.batch([{ type: 'put', key, value }]);
  await store.batch(del(statusKey('tx-1-1')));
  const check = await checkStore(store);
  assert.equal([check.problems, check.txs], [['transaction tx-1-1 is listed in a block but its status (s:) is missing'], 8]);
  assert.equal(store.lookups, [16], 'eight transactions: one lookup of their two keys each');
  // A block of more than a lookup is looked up at once, the pending count starts again after it.
  const big = await chain(4, 2100);
  const slow = new SlowLookups(1);
  for await (const [key, value] of big.store.entries('')) await slow.batch([{ type: 'put', key, value }]);
  await slow.batch(del(txKey('tx-1-2099')));
  const late = await checkStore(slow);
  assert.equal(slow.lookups, [4200, 4200, 4200]);
  assert.equal([late.problems, late.txs], [['transaction tx-1-2099 is listed in a block but its container (x:) is missing'], 6300], 'the first lookup, answered last, is counted');
});

test('a block above the head is named, and the run up to the head stays intact', async () => {
  const made = await chain(6);
  const top = (await made.store.get(heightKey(5)))!;
  assert.equal(await checked(made, [{ type: 'put', key: heightKey(6), value: top }]), { problems: ['block 6 lies above the head 5'], intact: 5, blocks: 6 });
});

test('no head: an empty store is fine; a store with chain records is named, and its blocks still checked', async () => {
  const empty = new MemoryStore();
  assert.is(await storeIsEmpty(empty), true);
  assert.equal(await checkStore(empty).then((c) => [c.problems, c.intact, c.head]), [[], undefined, undefined]);
  const walletOnly = new MemoryStore();
  await walletOnly.batch([{ type: 'put', key: walletKey('80'), value: json({}) }]);
  assert.is(await storeIsEmpty(walletOnly), false);
  assert.equal(await checkStore(walletOnly).then((c) => [c.problems, c.intact]), [['the chain head (key "meta") is missing, yet the store holds chain records'], undefined]);
  const headless = await chain(4);
  assert.equal(await checked(headless, del(META_KEY)), { problems: ['the chain head (key "meta") is missing, yet the store holds chain records'], intact: 3, blocks: 4 });
  const negative = await chain(2);
  assert.equal(
    await checked(negative, [{ type: 'put', key: META_KEY, value: json({ height: -1, hash: negative.hashes[0] }) }]),
    { problems: ['the chain head (key "meta") is unreadable: no height or hash'], intact: 1, blocks: 2 },
    'the blocks are checked all the same',
  );
});

test('twenty problems are listed; past twenty they are counted', async () => {
  // 11 blocks of 2 transactions: 20 statuses, then 22.
  const twenty = await chain(11);
  const statuses = Array.from({ length: 10 }, (_, i) => [statusKey(`tx-${i + 1}-0`), statusKey(`tx-${i + 1}-1`)]).flat();
  const exactly = await checked(twenty, del(...statuses));
  assert.is(exactly.problems.length, 20);
  assert.ok(exactly.problems.every((p) => p.endsWith('its status (s:) is missing')));
  assert.is(exactly.intact, 0);
  const more = await chain(11);
  const counted = await checked(more, del(...statuses, txKey('tx-10-1')));
  assert.is(counted.problems.length, 21);
  assert.is(counted.problems[19], 'transaction tx-10-1 is listed in a block but its container (x:) is missing');
  assert.is(counted.problems[20], 'and 1 more problems');
});

test.run();
