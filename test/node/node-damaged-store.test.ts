// A damaged data directory never starts silently: CURRENT deleted, bytes flipped in the log,
// the log truncated, records missing from the chain. Each start is refused with STORE_DAMAGED
// naming what is missing, and no file of the store is lost: LevelDB's own files stay, or are
// kept, byte for byte, beside it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MemoryStore } from '../../src/node/store/store.js';
import { storeInUse } from '../../src/node/store/store-level.js';
import { checkStore, exportChain } from '../../src/node/ledger/chain-check.js';
import { blockHash, blockRecord } from '../../src/node/ledger/block.js';
import { heightKey, META_KEY, statusKey, txKey } from '../../src/node/store/keys.js';
import type { StoreOp } from '../../src/node/store/store.js';
import { pay, startTestNode, transfer, waitStatus } from '../helpers/node-helpers.js';
import { rejection } from '../helpers/helpers.js';
import { damageStore, fingerprint } from '../helpers/store-damage.js';

const overrides = (dir: string) => ({ memory: false, dataDir: dir, accounts: 2 });

/** A data dir holding a chain of several blocks with `count` transfers, closed cleanly. */
async function chainIn(dir: string, count = 40): Promise<string[]> {
  const node = await startTestNode(overrides(dir));
  const txids: string[] = [];
  try {
    const [a, b] = node.chain.accounts;
    const t = Date.now();
    for (let i = 1; i <= count; i++) {
      const sent = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: i, t: t + i, payload: [pay(i)] }));
      assert.is(sent.status, 200);
      txids.push(sent.body.txid);
      if (i % 8 === 0) await node.chain.settle();
    }
    await node.chain.settle();
    for (const txid of txids) assert.is((await waitStatus(node, txid)).res, 'ok');
  } finally {
    await node.close();
  }
  return txids;
}

/** Every file of `before` is still there with the same bytes: in the ledger, or among the kept files. */
function nothingLost(ledger: string, before: Map<string, string>): void {
  const places = [
    ledger,
    ...readdirSync(dirname(ledger))
      .filter((n) => n.startsWith('ledger.before-start-'))
      .map((n) => join(dirname(ledger), n)),
  ];
  const seen = new Map<string, Set<string>>();
  for (const place of places) for (const [name, hash] of fingerprint(place)) seen.set(name, (seen.get(name) ?? new Set()).add(hash));
  for (const [name, hash] of before) assert.ok(seen.get(name)?.has(hash), `${name} was lost or changed`);
}

test('CURRENT deleted: STORE_DAMAGED naming it; no genesis is made and no file is deleted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-damaged-'));
  try {
    await chainIn(dir, 16);
    const ledger = join(dir, 'ledger');
    damageStore(ledger, 'CURRENT deleted');
    const before = fingerprint(ledger);
    for (let attempt = 0; attempt < 2; attempt++) {
      const err = await rejection(startTestNode(overrides(dir)));
      assert.is(err.code, 'STORE_DAMAGED');
      assert.match(err.message, /lost its CURRENT file/);
      assert.match(err.message, /tpkit node --check/);
      nothingLost(ledger, before);
      assert.not.ok(existsSync(join(ledger, 'CURRENT')), 'no fresh database was made');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bytes flipped in the log: refused with what is missing; the damaged log is kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-damaged-'));
  try {
    await chainIn(dir);
    const ledger = join(dir, 'ledger');
    damageStore(ledger, 'bytes flipped in the log');
    const before = fingerprint(ledger);
    const err = await rejection(startTestNode(overrides(dir)));
    assert.is(err.code, 'STORE_DAMAGED', err.message);
    assert.match(err.message, /missing|damaged|lost acknowledged writes|does not link|corrupt/);
    assert.match(err.message, /kept in .*ledger\.before-start-/);
    nothingLost(ledger, before);
    // Refused again on the next start: the damage does not heal into silence.
    assert.is((await rejection(startTestNode(overrides(dir)))).code, 'STORE_DAMAGED');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the log truncated to half: refused, the acknowledged writes it lost are named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-damaged-'));
  try {
    await chainIn(dir);
    const ledger = join(dir, 'ledger');
    damageStore(ledger, 'the log truncated to half');
    const before = fingerprint(ledger);
    const err = await rejection(startTestNode(overrides(dir)));
    assert.is(err.code, 'STORE_DAMAGED', err.message);
    assert.match(err.message, /lost acknowledged writes|missing/);
    nothingLost(ledger, before);
    // The refused start let go of the store: the next one is refused for the damage again, not
    // because a lock is still held.
    const again = await rejection(startTestNode(overrides(dir)));
    assert.is(again.code, 'STORE_DAMAGED', again.message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a store folder with no LOCK file, or a LOCK nobody holds, is not in use: a copied store can be repaired', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-lock-'));
  try {
    assert.is(await storeInUse(dir), false, 'no LOCK: nobody holds it');
    assert.equal(readdirSync(dir), [], 'and asking made nothing');
    const node = await startTestNode({ memory: false, dataDir: dir });
    const ledger = node.ledgerDir!;
    await node.close();
    // (Held by another process it is in use: process/node-repair; never asked from the holder.)
    assert.ok(existsSync(join(ledger, 'LOCK')));
    assert.is(await storeInUse(ledger), false, 'a LOCK left by a node that closed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a sound store starts, and leaves no kept copy behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-damaged-'));
  try {
    await chainIn(dir, 8);
    const node = await startTestNode(overrides(dir));
    await node.close();
    assert.equal(
      readdirSync(dir).filter((n) => n.includes('before-start')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A memory store holding a chain of a few blocks, for damage LevelDB cannot make on its own. */
async function memoryChain(): Promise<{ store: MemoryStore; txids: string[] }> {
  const store = new MemoryStore();
  const node = await startTestNode({ accounts: 2 }, { store });
  const txids: string[] = [];
  try {
    const [a, b] = node.chain.accounts;
    for (let i = 1; i <= 6; i++) {
      txids.push((await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: i, t: Date.now() + i, payload: [pay(i)] }))).body.txid);
      await node.chain.settle();
    }
  } finally {
    await node.close();
  }
  return { store, txids };
}

const keysOf = async (store: MemoryStore, prefix: string) => {
  const keys: string[] = [];
  for await (const [key] of store.entries(prefix)) keys.push(key);
  return keys;
};

test('a sound chain checks clean, every block and transaction counted', async () => {
  const { store, txids } = await memoryChain();
  const check = await checkStore(store);
  assert.equal(check.problems, []);
  assert.is(check.txs, txids.length);
  assert.is(check.blocks, check.head!.height + 1);
});

test('records missing or altered are each named: a block, a status, a container, a link, the head', async () => {
  const cases: [string, (store: MemoryStore) => Promise<void>, RegExp][] = [
    ['a block', async (s) => s.batch([{ type: 'del', key: (await keysOf(s, 'b:'))[2] }]), /block 2 is missing/],
    ['the head block', async (s) => s.batch([{ type: 'del', key: (await keysOf(s, 'b:')).pop()! }]), /\(the head\) is missing/],
    ['a status', async (s) => s.batch([{ type: 'del', key: (await keysOf(s, 's:'))[0] }]), /its status \(s:\) is missing/],
    ['a container', async (s) => s.batch([{ type: 'del', key: (await keysOf(s, 'x:'))[1] }]), /its container \(x:\) is missing/],
    [
      'a block altered',
      async (s) => {
        const key = (await keysOf(s, 'b:'))[3];
        const record = JSON.parse(Buffer.from((await s.get(key))!).toString());
        record.time += 1;
        record.header.roots.mean_time = (BigInt('0x' + record.header.roots.mean_time) + 1n).toString(16).padStart(16, '0');
        await s.batch([{ type: 'put', key, value: Buffer.from(JSON.stringify(record)) }]);
      },
      /block 3 is damaged: its contents do not hash to its hash/,
    ],
    ['the head', async (s) => s.batch([{ type: 'del', key: 'meta' }]), /the chain head \(key "meta"\) is missing/],
    [
      'a block above the head',
      async (s) => {
        const keys = await keysOf(s, 'b:');
        const top = keys[keys.length - 1];
        const above = 'b:' + (parseInt(top.slice(2), 16) + 1).toString(16).padStart(12, '0');
        await s.batch([{ type: 'put', key: above, value: (await s.get(top))! }]);
      },
      /lies above the head/,
    ],
  ];
  for (const [what, damage, expected] of cases) {
    const { store } = await memoryChain();
    await damage(store);
    const check = await checkStore(store);
    assert.ok(
      check.problems.some((p) => expected.test(p)),
      `${what}: ${check.problems.join('; ')}`,
    );
    const err = await rejection(startTestNode({ accounts: 2 }, { store }));
    assert.is(err.code, 'STORE_DAMAGED', `${what}: ${err.message}`);
  }
});

test('a head that is not JSON, or names no height, is named unreadable and the node refuses it', async () => {
  for (const [meta, reason] of [
    ['not json', /is not valid JSON/],
    [JSON.stringify({ hash: 'AB' }), /no height or hash/],
  ] as const) {
    const store = new MemoryStore();
    await store.batch([{ type: 'put', key: META_KEY, value: Buffer.from(meta) }]);
    const check = await checkStore(store);
    assert.is(check.head, undefined);
    assert.is(check.problems.length, 1, check.problems.join('; '));
    assert.ok(check.problems[0].startsWith('the chain head (key "meta") is unreadable: '), check.problems[0]);
    assert.match(check.problems[0], reason);
    const err = await rejection(startTestNode({}, { store }));
    assert.is(err.code, 'STORE_DAMAGED');
    assert.match(err.message, /unreadable/);
  }
});

/**
 * A chain written straight into a store: blocks of `counts[h]` made-up transactions each, every
 * record in place; `claims` gives a block a header height other than its key's, hashed as it says.
 */
async function madeUpChain(counts: number[], claims: Record<number, number> = {}): Promise<MemoryStore> {
  const store = new MemoryStore();
  const ops: StoreOp[] = [];
  let parent: Uint8Array = new Uint8Array(32);
  for (const [height, count] of counts.entries()) {
    const txs = Array.from({ length: count }, (_, i) => `tx-${height}-${i}`);
    const header = { chain: 1, height: claims[height] ?? height, parent, txroot: new Uint8Array(32).fill(1), balroot: new Uint8Array(32).fill(2), time: 1_700_000_000_000 + height };
    const hash = blockHash(header);
    ops.push({ type: 'put', key: heightKey(height), value: Buffer.from(JSON.stringify(blockRecord(header, hash, { txs, failed: {}, registered: {}, bals: {} }))) });
    for (const txid of txs) ops.push({ type: 'put', key: txKey(txid), value: Buffer.from('x') }, { type: 'put', key: statusKey(txid), value: Buffer.from('{}') });
    parent = hash;
  }
  ops.push({ type: 'put', key: META_KEY, value: Buffer.from(JSON.stringify({ height: counts.length - 1, hash: Buffer.from(parent).toString('hex').toUpperCase() })) });
  await store.batch(ops);
  return store;
}

test('a chain of more transactions than one lookup: each is looked up once, a missing record in any batch is named', async () => {
  // 1500 + 1500 pass the batch of 2048 after the second block; the last 10 go in the final lookup.
  const store = await madeUpChain([0, 1500, 1500, 10]);
  const sound = await checkStore(store);
  assert.equal([sound.problems, sound.blocks, sound.txs], [[], 4, 3010]);
  await store.batch([
    { type: 'del', key: txKey('tx-1-7') },
    { type: 'del', key: statusKey('tx-3-4') },
  ]);
  const damaged = await checkStore(store);
  assert.equal(damaged.problems, ['transaction tx-1-7 is listed in a block but its container (x:) is missing', 'transaction tx-3-4 is listed in a block but its status (s:) is missing']);
  assert.is(damaged.txs, 3010);
});

test('a block record naming another height than its key, genesis included, is damage even when it hashes as it says', async () => {
  for (const [at, claims] of [
    [0, 3],
    [2, 5],
  ] as const) {
    const store = await madeUpChain([0, 1, 1, 1], { [at]: claims });
    const check = await checkStore(store);
    assert.equal(check.problems, [`block ${at} is damaged: it says height ${claims}`]);
    assert.is(check.intact, at === 0 ? undefined : at - 1);
    const err = await rejection(startTestNode({ accounts: 2 }, { store }));
    assert.is(err.code, 'STORE_DAMAGED');
    assert.match(err.message, new RegExp(`block ${at} is damaged: it says height ${claims}`));
  }
});

test('--check --export reads what is left: a block that does not parse is skipped, a status that does not parse is null', async () => {
  const { store } = await memoryChain();
  const blocks = await keysOf(store, 'b:');
  const record = (key: string) => store.get(key).then((v) => JSON.parse(Buffer.from(v!).toString()) as { txs: string[] });
  const withTx: string[] = [];
  for (const key of blocks) if ((await record(key)).txs.length > 0) withTx.push(key);
  const [broken, keptKey] = withTx;
  const lost = (await record(broken)).txs.length;
  const txid = (await record(keptKey)).txs[0];
  await store.batch([
    { type: 'put', key: broken, value: Buffer.from('{"height":') },
    { type: 'put', key: statusKey(txid), value: Buffer.from('not json') },
  ]);
  const lines: string[] = [];
  const done = await exportChain(store, (line) => lines.push(line));
  const total = 6;
  assert.equal(done, { blocks: blocks.length - 1, txs: total - lost });
  assert.is(lines.length, blocks.length - 1);
  const exported = lines.map((l) => JSON.parse(l) as { height: number; txs: Record<string, { tx: string | null; status: unknown }> });
  assert.not.ok(
    exported.some((e) => heightKey(e.height) === broken),
    'the unreadable block is left out',
  );
  const entry = exported.find((e) => txid in e.txs)!.txs[txid];
  assert.equal(entry, { tx: Buffer.from((await store.get(txKey(txid)))!).toString('base64'), status: null });
});

test('a data dir whose files cannot all be linked aside (a folder among them) still starts, and leaves no half-made copy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-keep-'));
  try {
    await chainIn(dir, 2);
    mkdirSync(join(dir, 'ledger', 'stray-folder'));
    const node = await startTestNode(overrides(dir));
    assert.is(node.chain.height > 0, true);
    await node.close();
    assert.equal(
      readdirSync(dir).filter((n) => n.startsWith('ledger.before-start-')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('genesis is made only in an empty store', async () => {
  const store = new MemoryStore();
  await store.batch([{ type: 'put', key: 'w:8001400001000001', value: Buffer.from('{}') }]);
  const err = await rejection(startTestNode({}, { store }));
  assert.is(err.code, 'STORE_DAMAGED');
  assert.equal(await keysOf(store, 'b:'), [], 'no genesis block was written');
});

test.run();
