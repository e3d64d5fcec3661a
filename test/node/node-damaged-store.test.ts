// A damaged data directory never starts silently: CURRENT deleted, bytes flipped in the log,
// the log truncated, records missing from the chain. Each start is refused with STORE_DAMAGED
// naming what is missing, and no file of the store is lost: LevelDB's own files stay, or are
// kept, byte for byte, beside it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MemoryStore } from '../../src/node/store/store.js';
import { checkStore } from '../../src/node/ledger/chain-check.js';
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
  const places = [ledger, ...readdirSync(dirname(ledger)).filter((n) => n.startsWith('ledger.before-start-')).map((n) => join(dirname(ledger), n))];
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

test('a sound store starts, and leaves no kept copy behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-damaged-'));
  try {
    await chainIn(dir, 8);
    const node = await startTestNode(overrides(dir));
    await node.close();
    assert.equal(readdirSync(dir).filter((n) => n.includes('before-start')), []);
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
    assert.ok(check.problems.some((p) => expected.test(p)), `${what}: ${check.problems.join('; ')}`);
    const err = await rejection(startTestNode({ accounts: 2 }, { store }));
    assert.is(err.code, 'STORE_DAMAGED', `${what}: ${err.message}`);
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
