// Start-up errors name their cause: a file where the ledger or the certificate folder should
// be, a data dir the node may not write; and a refused start leaves no half-written file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestNode } from '../helpers/node-helpers.js';
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

test.run();
