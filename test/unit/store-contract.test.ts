// Both stores keep the Store contract: the in-memory one (`--memory` and the tests' restarts)
// and LevelDB (a data directory): a batch's puts and deletes both land, values are copies, a
// prefix scan lists only its prefix in key order, and `after` starts strictly above the key it
// names. LevelDB's seal: a synced batch's number reaches the seal file, and a store whose log
// lost writes the seal names is refused at open.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LevelStore } from '../../src/node/store/store-level.js';
import { MemoryStore, type Store } from '../../src/node/store/store.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-store-'));
  dirs.push(dir);
  return join(dir, 'ledger');
};
test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const kinds: [string, () => Promise<Store>][] = [
  ['memory', async () => new MemoryStore()],
  ['LevelDB', () => LevelStore.open(tempDir())],
];

const bytes = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

async function keysOf(store: Store, prefix: string, after?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const [key, value] of store.entries(prefix, after)) out.push(`${key}=${str(value)}`);
  return out;
}

for (const [kind, open] of kinds) {
  test(`${kind}: a batch puts and deletes; a deleted key reads as missing and leaves the scans`, async () => {
    const store = await open();
    await store.batch([
      { type: 'put', key: 'w:b', value: bytes('2') },
      { type: 'put', key: 'w:a', value: bytes('1') },
      { type: 'put', key: 'w:c', value: bytes('3') },
    ]);
    await store.batch([
      { type: 'del', key: 'w:b' },
      { type: 'put', key: 'w:a', value: bytes('one') },
    ]);
    assert.is(await store.get('w:b'), undefined);
    assert.is(str(await store.get('w:a')), 'one', 'a later put replaces the value');
    assert.equal((await store.getMany(['w:c', 'w:b', 'w:a'])).map(str), ['3', undefined, 'one'], 'in the order asked');
    assert.equal(await keysOf(store, 'w:'), ['w:a=one', 'w:c=3']);
    // Deleting a key that is not there is no error, and a delete then a put in one batch leaves the put.
    await store.batch([
      { type: 'del', key: 'w:zz' },
      { type: 'del', key: 'w:c' },
      { type: 'put', key: 'w:c', value: bytes('again') },
    ]);
    assert.is(str(await store.get('w:c')), 'again');
    await store.close();
  });

  test(`${kind}: values are copies: changing the bytes written later changes nothing stored`, async () => {
    const store = await open();
    const value = bytes('abc');
    await store.batch([{ type: 'put', key: 'k', value }]);
    value[0] = 0x7a;
    assert.is(str(await store.get('k')), 'abc');
    await store.close();
  });

  test(`${kind}: a scan lists its prefix only, in key order; after= starts strictly above the key it names`, async () => {
    const store = await open();
    await store.batch(['b:03', 'b:01', 'b:02', 'a:01', 'c:00', 'b:'].map((key) => ({ type: 'put' as const, key, value: bytes(key.slice(2) || '-') })));
    assert.equal(await keysOf(store, 'b:'), ['b:=-', 'b:01=01', 'b:02=02', 'b:03=03']);
    assert.equal(await keysOf(store, 'b:', 'b:01'), ['b:02=02', 'b:03=03'], 'the key named is not listed again');
    assert.equal(await keysOf(store, 'b:', 'b:015'), ['b:02=02', 'b:03=03'], 'a key between two');
    assert.equal(await keysOf(store, 'b:', 'b:03'), [], 'nothing above the last');
    assert.equal(await keysOf(store, 'b:', 'b:'), ['b:01=01', 'b:02=02', 'b:03=03'], 'after the prefix itself: the key equal to it is left out');
    assert.equal(await keysOf(store, 'b:', 'a:99'), ['b:=-', 'b:01=01', 'b:02=02', 'b:03=03'], 'an after below the prefix');
    assert.equal(await keysOf(store, 'd:'), []);
    assert.is(store.persistent, kind === 'LevelDB');
    await store.close();
  });
}

test('LevelDB: a synced batch seals its number, an unsynced one does not; the seal and the data survive a reopen', async () => {
  const dir = tempDir();
  let store = await LevelStore.open(dir);
  assert.is(store.created, true);
  assert.is(store.keptFiles, undefined, 'a new store keeps nothing from before');
  await store.batch([{ type: 'put', key: 'a', value: bytes('1') }]);
  assert.equal(store.seal(), { stored: 1, file: 0 }, 'not synced: the seal file stays behind');
  await store.batch([{ type: 'put', key: 'b', value: bytes('2') }], { sync: true });
  await store.batch([{ type: 'put', key: 'c', value: bytes('3') }]);
  await store.close();
  assert.equal(store.seal(), { stored: 3, file: 2 });
  store = await LevelStore.open(dir);
  assert.is(store.created, false);
  assert.equal([str(await store.get('a')), str(await store.get('b')), str(await store.get('c'))], ['1', '2', '3']);
  assert.is(store.seal().stored, 3, 'numbering goes on from the last write');
  const kept = store.keptFiles!;
  assert.ok(existsSync(kept) && readdirSync(kept).includes('CURRENT'), 'the files from before the start are kept');
  store.discardKeptFiles();
  assert.is(store.keptFiles, undefined);
  assert.not.ok(existsSync(kept));
  await store.batch([{ type: 'put', key: 'd', value: bytes('4') }], { sync: true });
  await store.close();
  assert.equal(store.seal(), { stored: 4, file: 4 });
  assert.is(readFileSync(join(dir, 'TPKIT-SEAL'), 'utf8'), '4', 'the seal file names the last synced write');
});

test('LevelDB: batches made at once, synced and not, land in the order they were made; the seal counts each, and the store opens again', async () => {
  const dir = tempDir();
  let store = await LevelStore.open(dir);
  const n = 300;
  // Every batch writes the same key (the last made must win) and a key of its own.
  const writes = Array.from({ length: n }, (_, i) =>
    store.batch(
      [
        { type: 'put', key: 'last', value: bytes(String(i)) },
        { type: 'put', key: `each:${String(i).padStart(3, '0')}`, value: bytes(String(i)) },
      ],
      { sync: i % 3 === 0 },
    ),
  );
  await Promise.all(writes);
  assert.is(str(await store.get('last')), String(n - 1));
  await store.close();
  const { stored, file } = store.seal();
  assert.is(stored, n, 'numbered in order');
  // Batch 298 is the last synced one; batches that went in the same write as it share its sync.
  assert.ok(file >= 298 && file <= n, `the seal file names a synced write at or after the last one asked for: ${file}`);
  store = await LevelStore.open(dir, { keepFiles: false });
  try {
    assert.is(store.seal().stored, n, 'the stored number is the last batch made, not one that landed late');
    assert.is(str(await store.get('last')), String(n - 1));
    assert.is((await keysOf(store, 'each:')).length, n);
  } finally {
    await store.close();
  }
});

test('LevelDB: a batch LevelDB refuses rejects, and the batches after it still land', async () => {
  const store = await LevelStore.open(tempDir());
  try {
    const bad = store.batch([{ type: 'put', key: 'x', value: undefined as unknown as Uint8Array }]);
    assert.is(
      await bad.then(
        () => 'written',
        () => 'refused',
      ),
      'refused',
    );
    await store.batch([{ type: 'put', key: 'y', value: bytes('1') }], { sync: true });
    assert.is(str(await store.get('y')), '1');
    assert.is(await store.get('x'), undefined);
  } finally {
    await store.close();
  }
});

test('LevelDB: a seal above the last write means acknowledged writes were lost: STORE_DAMAGED, the files kept', async () => {
  const dir = tempDir();
  const store = await LevelStore.open(dir);
  await store.batch([{ type: 'put', key: 'a', value: bytes('1') }], { sync: true });
  await store.close();
  assert.equal([store.seal(), readFileSync(join(dir, 'TPKIT-SEAL'), 'utf8')], [{ stored: 1, file: 1 }, '1'], 'the first write, synced, is sealed');
  writeFileSync(join(dir, 'TPKIT-SEAL'), '2');
  let refused: unknown;
  try {
    await LevelStore.open(dir);
  } catch (err) {
    refused = err;
  }
  assert.is((refused as { code?: string }).code, 'STORE_DAMAGED');
  assert.match((refused as Error).message, /lost acknowledged writes/);
  assert.match((refused as Error).message, /its last write is number 1, but write 2 was synced to disk and acknowledged/);
  assert.match((refused as Error).message, /the files as they were before this start are kept in /);
  // The seal equal to the last write opens.
  writeFileSync(join(dir, 'TPKIT-SEAL'), '1');
  const again = await LevelStore.open(dir, { keepFiles: false });
  assert.is(again.keptFiles, undefined, 'keepFiles: false keeps nothing');
  await again.close();
});

test.run();
