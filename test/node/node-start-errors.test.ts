// Start-up errors name their cause: a file where the ledger or the certificate folder should
// be, a data dir the node may not write, an address this machine does not have; and a refused
// start leaves no half-written file and no store held.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { startTestNode } from '../helpers/node-helpers.js';
import { MemoryStore } from '../../src/node/store/store.js';
import { rejection } from '../helpers/helpers.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'tpkit-start-'));

test('a file where the ledger folder should be: DATA_DIR_UNUSABLE, "a file is in the way"', async () => {
  const dir = fresh();
  try {
    writeFileSync(join(dir, 'ledger'), 'not a folder');
    const err = await rejection(startTestNode({ memory: false, dataDir: dir }));
    assert.is(err.code, 'DATA_DIR_UNUSABLE');
    assert.match(err.message, /a file is in the way/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file where the certificate folder should be: DATA_DIR_UNUSABLE before any chain is made', async () => {
  const dir = fresh();
  try {
    writeFileSync(join(dir, 'tls'), 'not a folder');
    const err = await rejection(startTestNode({ memory: false, dataDir: dir, tls: { selfSigned: true } }));
    assert.is(err.code, 'DATA_DIR_UNUSABLE');
    assert.match(err.message, /a file is in the way/);
    assert.not.ok(existsSync(join(dir, 'ledger')), 'nothing else was written');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a certificate folder the node may not write: named as a permission problem, no empty key file left', async () => {
  if (process.getuid?.() === 0) {
    // root writes anywhere: the check would pass for the wrong reason, so it asserts that instead
    const dir = fresh();
    mkdirSync(join(dir, 'tls'));
    chmodSync(join(dir, 'tls'), 0o500);
    const node = await startTestNode({ memory: false, dataDir: dir, tls: { selfSigned: true } });
    await node.close();
    assert.equal(readdirSync(join(dir, 'tls')).sort(), ['dev-cert.pem', 'dev-key.pem'], 'whole files only, no temporary left');
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const dir = fresh();
  try {
    mkdirSync(join(dir, 'tls'));
    chmodSync(join(dir, 'tls'), 0o500);
    const err = await rejection(startTestNode({ memory: false, dataDir: dir, tls: { selfSigned: true } }));
    assert.is(err.code, 'DATA_DIR_UNUSABLE');
    assert.match(err.message, /permission denied \(EACCES\)/);
    assert.equal(readdirSync(join(dir, 'tls')), []);
  } finally {
    chmodSync(join(dir, 'tls'), 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a certificate file that cannot be put in place: DATA_DIR_UNUSABLE, and its temporary file is removed', async () => {
  const dir = fresh();
  try {
    // A folder where the key file goes: the key is written aside, then cannot be renamed over it.
    mkdirSync(join(dir, 'tls', 'dev-key.pem'), { recursive: true });
    const err = await rejection(startTestNode({ memory: false, dataDir: dir, tls: { selfSigned: true } }));
    assert.is(err.code, 'DATA_DIR_UNUSABLE');
    assert.match(err.message, /dev-key\.pem/);
    assert.equal(readdirSync(join(dir, 'tls')), ['dev-key.pem'], 'no temporary file left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A port free at this moment. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('a host this machine does not have is CONFIG_INVALID naming --host: found before the store opens, or (port 0) after, and then the store is let go', async () => {
  const dir = fresh();
  // TEST-NET-1 (RFC 5737): never an address of this machine.
  const host = '192.0.2.1';
  try {
    const early = await rejection(startTestNode({ memory: false, dataDir: dir, host, port: await freePort() }));
    assert.equal([early.code, early.field, early.shortMessage], ['CONFIG_INVALID', 'host', `--host ${host}: no network interface of this machine has that address`]);
    assert.not.ok(existsSync(join(dir, 'ledger')), 'nothing opened');
    const late = await rejection(startTestNode({ memory: false, dataDir: dir, host, port: 0 }));
    assert.equal([late.code, late.field], ['CONFIG_INVALID', 'host']);
    // The chain opened before the listen failed was closed: the same data dir starts at once.
    const node = await startTestNode({ memory: false, dataDir: dir });
    await node.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--static naming no folder (missing, or a file) is CONFIG_INVALID naming the path; a folder is served under /app/', async () => {
  const dir = fresh();
  try {
    const missing = join(dir, 'nowhere');
    const gone = await rejection(startTestNode({ staticDir: missing }));
    assert.is(gone.code, 'CONFIG_INVALID');
    assert.is(gone.field, 'staticDir');
    assert.is(gone.message, `--static: no such folder: ${missing}`);
    writeFileSync(join(dir, 'page.html'), '<p>mine</p>');
    assert.is((await rejection(startTestNode({ staticDir: join(dir, 'page.html') }))).code, 'CONFIG_INVALID');
    const node = await startTestNode({ staticDir: dir });
    try {
      const page = await fetch(`${node.url}/app/page.html`);
      assert.is(page.status, 200);
      assert.is(await page.text(), '<p>mine</p>');
    } finally {
      await node.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a store given to startNode whose reads fail: DATA_DIR_UNUSABLE with the store's own words, and the store is closed", async () => {
  class FailingReads extends MemoryStore {
    closed = false;
    override async get(): Promise<Uint8Array | undefined> {
      throw new Error('sector 7 unreadable');
    }
    override async close(): Promise<void> {
      this.closed = true;
    }
  }
  const store = new FailingReads();
  const err = await rejection(startTestNode({}, { store }));
  assert.is(err.code, 'DATA_DIR_UNUSABLE');
  assert.match(err.message, /store given to startNode/);
  assert.match(err.message, /sector 7 unreadable/);
  assert.ok(store.closed, 'the store is let go');
});

test.run();
