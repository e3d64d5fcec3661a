// The encrypted key file: round trip, wrong passphrase, tampering, bounds, permissions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '../../src/bytes.js';
import { DEFAULT_SCRYPT, encryptKey, openKeyFile, readKeyFileInfo, setKeyFileWallet, writeKeyFile } from '../../src/cli/key-file.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { rejection, thrownError } from '../helpers/helpers.js';

const FAST = { N: 1 << 10, r: 8, p: 1 };
const dir = mkdtempSync(join(tmpdir(), 'tpkit-keyfile-'));
let n = 0;
const path = () => join(dir, `key${n++}`);
const pass = (p: string) => async () => p;

async function written(secret = generateSecretKey(), passphrase = 'pass phrase', cost = FAST) {
  const file = path();
  writeKeyFile(file, await encryptKey(secret, passphrase, cost));
  return { file, secret };
}

test('round trip at the default scrypt cost; the public part reads without the passphrase', async () => {
  const { file, secret } = await written(undefined, 'correct horse', DEFAULT_SCRYPT);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  assert.is(json.format, 'tpkit-key/1');
  assert.is(json.kdf.N, 131072);
  assert.not.ok(readFileSync(file, 'utf8').includes(bytesToHex(secret)));
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.equal(readKeyFileInfo(file).publicKey, publicKeyOf(secret));
  const opened = await openKeyFile(file, pass('correct horse'));
  assert.equal(opened.secretKey, secret);
});

test('a wrong passphrase is KEYFILE_PASSPHRASE and the passphrase is normalised (NFKC)', async () => {
  const { file, secret } = await written(undefined, 'caf\u00e9');
  assert.is((await rejection(openKeyFile(file, pass('cafe')))).code, 'KEYFILE_PASSPHRASE');
  assert.equal((await openKeyFile(file, pass('cafe\u0301'))).secretKey, secret);
});

test('editing any clear field, the ciphertext or the tag makes the file fail to open', async () => {
  const edits: [string, (j: any) => void][] = [
    ['publicKey', (j) => (j.publicKey = bytesToHex(publicKeyOf(generateSecretKey())))],
    ['kdf.N', (j) => (j.kdf.N = 2048)],
    ['kdf.salt', (j) => (j.kdf.salt = Buffer.alloc(16, 1).toString('base64'))],
    ['cipher.iv', (j) => (j.cipher.iv = Buffer.alloc(12, 1).toString('base64'))],
    [
      'ciphertext',
      (j) => {
        const bytes = Buffer.from(j.ciphertext, 'base64');
        bytes[0] ^= 1;
        j.ciphertext = bytes.toString('base64');
      },
    ],
    ['tag', (j) => (j.tag = Buffer.alloc(16).toString('base64'))],
  ];
  for (const [label, edit] of edits) {
    const { file } = await written();
    const json = JSON.parse(readFileSync(file, 'utf8'));
    edit(json);
    const tampered = path();
    writeFileSync(tampered, JSON.stringify(json));
    const err = await rejection(openKeyFile(tampered, pass('pass phrase')));
    assert.ok(['KEYFILE_PASSPHRASE', 'KEYFILE_INVALID'].includes(err.code), `${label}: ${err.code}`);
  }
});

test('malformed files and absurd scrypt parameters are KEYFILE_INVALID before any work', async () => {
  const { file } = await written();
  const base = JSON.parse(readFileSync(file, 'utf8'));
  const cases: [string, string][] = [
    ['not json', '{oops'],
    ['empty', ''],
    ['wrong format', JSON.stringify({ ...base, format: 'other/1' })],
    ['N too large', JSON.stringify({ ...base, kdf: { ...base.kdf, N: 1 << 30 } })],
    ['N not a power of two', JSON.stringify({ ...base, kdf: { ...base.kdf, N: 1000 } })],
    ['r huge', JSON.stringify({ ...base, kdf: { ...base.kdf, r: 1e6 } })],
    ['other kdf', JSON.stringify({ ...base, kdf: { ...base.kdf, name: 'pbkdf2' } })],
    ['missing tag', JSON.stringify({ ...base, tag: undefined })],
    ['array', '[]'],
    ['2 GiB of memory', JSON.stringify({ ...base, kdf: { ...base.kdf, N: 1 << 20, r: 16 } })],
    ['32x the work', JSON.stringify({ ...base, kdf: { ...base.kdf, N: 1 << 17, r: 8, p: 32 } })],
    ['N not an integer', JSON.stringify({ ...base, kdf: { ...base.kdf, N: '1024' } })],
    ['4-byte tag', JSON.stringify({ ...base, tag: Buffer.from(base.tag, 'base64').subarray(0, 4).toString('base64') })],
    ['16-byte iv', JSON.stringify({ ...base, cipher: { ...base.cipher, iv: Buffer.alloc(16).toString('base64') } })],
    ['short salt', JSON.stringify({ ...base, kdf: { ...base.kdf, salt: Buffer.alloc(8).toString('base64') } })],
    ['junk in base64', JSON.stringify({ ...base, ciphertext: `${base.ciphertext.slice(0, 10)}!${base.ciphertext.slice(10)}` })],
    ['uncompressed publicKey', JSON.stringify({ ...base, publicKey: `04${'11'.repeat(64)}` })],
    ['plain hex out of range', 'f'.repeat(64)],
  ];
  for (const [label, text] of cases) {
    const bad = path();
    writeFileSync(bad, text);
    let asked = false;
    const err = await rejection(openKeyFile(bad, async () => ((asked = true), 'x')));
    assert.is(err.code, 'KEYFILE_INVALID', label);
    assert.not.ok(asked, `${label}: no passphrase asked`);
  }
  // a path that is not there is a usage mistake, as for `tpkit decode` (exit 2)
  const missing = await rejection(openKeyFile(join(dir, 'missing'), pass('x')));
  assert.is(missing.code, 'INVALID_ARGUMENT');
  assert.match(missing.message, /^no such key file: '.*missing'/);
});

test('never overwrites; the address is recorded atomically without touching the secret', async () => {
  const { file, secret } = await written();
  const before = JSON.parse(readFileSync(file, 'utf8'));
  const exists = thrownError(() => writeKeyFile(file, 'x'));
  assert.is(exists.code, 'INVALID_ARGUMENT');
  assert.match(exists.message, /already exists/);
  setKeyFileWallet(file, { address: 'AA100000001677722185', chain: 1, node: 'http://127.0.0.1:43280' });
  const after = JSON.parse(readFileSync(file, 'utf8'));
  assert.is(after.address, 'AA100000001677722185');
  assert.equal([after.chain, after.node], [1, 'http://127.0.0.1:43280']);
  assert.equal([readKeyFileInfo(file).chain, readKeyFileInfo(file).node], [1, 'http://127.0.0.1:43280']);
  assert.is(after.ciphertext, before.ciphertext);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readKeyFileInfo(file).address, 'AA100000001677722185');
  assert.equal((await openKeyFile(file, pass('pass phrase'))).secretKey, secret);
  assert.equal(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
});

test('encryptKey refuses scrypt costs a file could not ask for', async () => {
  for (const cost of [
    { N: 1000, r: 8, p: 1 },
    { N: 1 << 21, r: 8, p: 1 },
    { N: 1 << 10, r: 0, p: 1 },
  ]) {
    assert.is((await rejection(encryptKey(generateSecretKey(), 'x', cost))).code, 'INVALID_ARGUMENT', JSON.stringify(cost));
  }
});

test('plain hex key files (older keygen) are still read, without a passphrase, with a warning', async () => {
  const secret = generateSecretKey();
  const file = path();
  writeFileSync(file, `${bytesToHex(secret)}\n`);
  const warned: string[] = [];
  const opened = await openKeyFile(file, async () => assert.unreachable('no passphrase for a plain file') as never, { onPlain: (p) => warned.push(p) });
  assert.equal(opened.secretKey, secret);
  assert.ok(opened.info.plain);
  assert.equal(warned, [file]);
  assert.ok(readKeyFileInfo(file).plain);
  assert.is(thrownError(() => readKeyFileInfo(join(dir, 'nope'))).code, 'INVALID_ARGUMENT');
});

test.run();
