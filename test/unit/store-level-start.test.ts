// The LevelDB store before and around its open: the probe that asks whether another process
// holds a store (and leaves nothing behind, nor a lock of its own), the files kept aside at open
// (every file but LOCK, and no half-made copy when they cannot all be linked), and the salvage
// of a store that lost its CURRENT file, which counts the acknowledged writes it lost.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LevelStore, storeInUse } from '../../src/node/store/store-level.js';

const dirs: string[] = [];
const tempParent = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-level-start-'));
  dirs.push(dir);
  return dir;
};
test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const bytes = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const classicLevel = pathToFileURL(createRequire(import.meta.url).resolve('classic-level')).href;

/** Another process that opens the store in `dir`, says `opened` or `failed: ...`, and holds it until killed. */
function holder(dir: string): { child: ChildProcess; said: Promise<string> } {
  const code = `import(${JSON.stringify(classicLevel)}).then(async ({ ClassicLevel }) => {
    const db = new ClassicLevel(${JSON.stringify(dir)});
    try { await db.open(); console.log('opened'); } catch (err) { console.log('failed: ' + err.code); process.exit(0); }
    setInterval(() => undefined, 1000);
  });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const said = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', () => resolve(out.trim()));
    child.on('error', reject);
  });
  return { child, said };
}

async function storeWith(dir: string, writes: number): Promise<void> {
  const store = await LevelStore.open(dir);
  for (let i = 1; i <= writes; i++) await store.batch([{ type: 'put', key: `k${i}`, value: bytes(`v${i}`) }], { sync: true });
  await store.close();
}

test('the lock probe: no LOCK is not in use; a LOCK held by another process is; the probe leaves no folder and holds no lock', async () => {
  const parent = tempParent();
  const dir = join(parent, 'ledger');
  mkdirSync(dir);
  assert.is(await storeInUse(dir), false, 'no LOCK file');
  assert.equal(readdirSync(parent), ['ledger'], 'asking made nothing');
  await storeWith(dir, 1);
  const held = holder(dir);
  try {
    assert.is(await held.said, 'opened');
    assert.is(await storeInUse(dir), true, 'another process holds it');
  } finally {
    held.child.kill();
  }
  await new Promise((r) => held.child.once('exit', r));
  assert.is(await storeInUse(dir), false, 'released when that process ended');
  assert.equal(readdirSync(parent), ['ledger'], 'the probe folders are removed');
  // The probe let go of the lock it tried: another process can open the store.
  const after = holder(dir);
  try {
    assert.is(await after.said, 'opened');
  } finally {
    after.child.kill();
  }
  await new Promise((r) => after.child.once('exit', r));
});

test('files kept at open: every file but LOCK, linked; a folder among them leaves no half-made copy', async () => {
  const parent = tempParent();
  const dir = join(parent, 'ledger');
  await storeWith(dir, 2);
  const before = readdirSync(dir).sort();
  const store = await LevelStore.open(dir);
  const kept = store.keptFiles!;
  assert.ok(kept.startsWith(`${dir}.before-start-`), kept);
  assert.equal(
    readdirSync(kept).sort(),
    before.filter((n) => n !== 'LOCK'),
  );
  store.discardKeptFiles();
  assert.equal(readdirSync(parent), ['ledger']);
  await store.close();
  mkdirSync(join(dir, 'stray-folder'));
  const again = await LevelStore.open(dir);
  assert.is(again.keptFiles, undefined, 'a folder cannot be hard-linked: nothing kept');
  assert.equal(readdirSync(parent), ['ledger'], 'and the copy begun is removed');
  assert.is(str(await again.get('k2')), 'v2');
  await again.close();
});

test('salvage: a store without CURRENT is rebuilt and read; the acknowledged writes it lost are counted, none when none', async () => {
  const parent = tempParent();
  const sound = join(parent, 'sound');
  await storeWith(sound, 2);
  let salvaged = await LevelStore.salvage(sound);
  assert.is(salvaged.lostWrites, 0);
  assert.equal(salvaged.store.seal().stored, 2);
  await salvaged.store.close();

  const dir = join(parent, 'ledger');
  await storeWith(dir, 2);
  rmSync(join(dir, 'CURRENT'));
  writeFileSync(join(dir, 'TPKIT-SEAL'), '5');
  salvaged = await LevelStore.salvage(dir);
  assert.is(salvaged.lostWrites, 3, 'writes 3 to 5 were sealed but are not in the store');
  assert.is(salvaged.store.seal().stored, 2);
  assert.equal([str(await salvaged.store.get('k1')), str(await salvaged.store.get('k2'))], ['v1', 'v2']);
  await salvaged.store.close();

  writeFileSync(join(parent, 'a-file'), 'not a store');
  const err = await LevelStore.salvage(join(parent, 'a-file')).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  assert.is(err?.code, 'STORE_UNREADABLE', String(err?.message));
});

test.run();
