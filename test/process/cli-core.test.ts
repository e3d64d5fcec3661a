import { test } from 'uvu';
import { openKeyFile } from '../../src/cli/key-file.js';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { runTpkit } from '../helpers/cli-run.js';
import { vectors } from '../helpers/vectors.js';

const tpkit = (...args: string[]) => runTpkit(args);

/** tpkit with a module run first (`node --import`), to break something inside it. */
const tpkitWith = (preload: string, ...args: string[]) => runTpkit(args, { nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(preload)}`] });

test('decode explains the published generic transaction: text addresses, amounts, ISO time, valid signature', async () => {
  const r = await tpkit('decode', vectors.generic_tx_docs.tx_base64);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, 'kind       generic (16)');
  assert.match(r.out, 'AA010000003355443516');
  assert.match(r.out, 'AA010000003355443737');
  assert.match(r.out, /transfer\s+SK\s+17/);
  assert.match(r.out, /srcfee\s+FEE\s+3/);
  assert.match(r.out, '2018-10-31T18:07:52.740Z');
  assert.match(r.out, '#1 valid');
  assert.match(r.out, vectors.bsig_hello.public_key);
});

test('decode --json of the register vector reports its PoW bits; a file holding base64 works too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-cli-'));
  const file = join(dir, 'tx.b64');
  writeFileSync(file, vectors.register_tx.tx_base64 + '\n');
  const r = await tpkit('decode', file, '--json');
  assert.is(r.code, 0, r.err);
  const json = JSON.parse(r.out);
  assert.is(json.kind, 'register');
  assert.is(json.powBits, vectors.register_tx.pow_bits);
  assert.is(json.signatures[0].valid, true);
  // data only: times in ms with the ISO date under its own key
  assert.type(json.body.timestamp, 'number');
  assert.is(json.body.timestampIso, new Date(json.body.timestamp).toISOString());
});

test('decode --json of the published generic transaction: addresses and times as data, each beside its readable form', async () => {
  const json = JSON.parse((await tpkit('decode', vectors.generic_tx_docs.tx_base64, '--json')).out);
  assert.equal([json.body.from, json.body.fromHex], ['AA010000003355443516', '0x8000200002000003']);
  assert.equal([json.body.to, json.body.toHex], ['AA010000003355443737', '0x8000200002000005']);
  assert.equal([json.body.timestamp, json.body.timestampIso], [1541009272740, '2018-10-31T18:07:52.740Z']);
  assert.equal([json.signatures[0].timestamp, json.signatures[0].timestampIso], [1541009272740, '2018-10-31T18:07:52.740Z']);
});

test('decode of a raw binary file and of hex give the same explanation', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-cli-'));
  const bytes = Buffer.from(vectors.generic_tx_tpnode.tx_base64, 'base64');
  writeFileSync(join(dir, 'tx.bin'), bytes);
  const fromFile = JSON.parse((await tpkit('decode', join(dir, 'tx.bin'), '--json')).out);
  const fromHex = JSON.parse((await tpkit('decode', bytes.toString('hex'), '--json')).out);
  assert.equal(fromFile, fromHex);
  assert.is(fromHex.body.payload[0].currency, 'XXX');
  // data only: the address as text, its hex under its own key
  assert.match(fromHex.body.from, /^[A-Z]{2}\d{18}$/);
  assert.match(fromHex.body.fromHex, /^0x[0-9A-F]{16}$/);
});

test('decode reports a corrupted signature as invalid with exit status 1', async () => {
  const bytes = Buffer.from(vectors.generic_tx_docs.tx_base64, 'base64');
  bytes[bytes.length - 20] ^= 1; // inside the BSig's signed timestamp
  const r = await tpkit('decode', bytes.toString('base64'), '--json');
  assert.is(r.code, 1);
  assert.is(JSON.parse(r.out).signatures[0].valid, false);
});

test('decode of a transaction id points to tpkit tx instead of a MessagePack error', async () => {
  const r = await tpkit('decode', '26CmF99wJRUJHd1-c4n1');
  assert.is(r.code, 2);
  assert.match(r.err, /^tpkit decode: '26CmF99wJRUJHd1-c4n1' is a transaction id, not a transaction: `tpkit tx 26CmF99wJRUJHd1-c4n1` fetches it/);
  assert.not.match(r.err, /MessagePack|msgpack/i);
});

test('decode of garbage prints a typed error code and exits 1', async () => {
  const r = await tpkit('decode', 'not a transaction!');
  assert.is(r.code, 1);
  assert.match(r.err, '[BAD_INPUT_ENCODING]');
  const t = await tpkit('decode', '92a16b10');
  assert.is(t.code, 1);
  assert.match(t.err, '[TX_NOT_MAP]');
});

test('address converts every published pair both ways and rejects the invalid ones', async () => {
  for (const [hex, text] of vectors.addresses.slice(0, 4)) {
    const a = JSON.parse((await tpkit('address', text, '--json')).out);
    assert.is(a.hex.toLowerCase(), `0x${hex}`.toLowerCase());
    const b = JSON.parse((await tpkit('address', `0x${hex}`, '--json')).out);
    assert.is(b.text, text);
  }
  for (const bad of vectors.invalid_addresses) {
    const r = await tpkit('address', bad);
    assert.is(r.code, 1, bad);
    assert.match(r.err, /\[ADDRESS_(INVALID|CHECKSUM)\]/);
  }
});

test('keygen --out writes an encrypted 0600 key file that is never overwritten, and prints only the public key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-cli-'));
  const file = join(dir, 'key');
  const passphrase = join(dir, 'pass');
  writeFileSync(passphrase, 'a long enough passphrase\n');
  const r = await tpkit('keygen', '--out', file, '--json', '--passphrase-file', passphrase);
  assert.is(r.code, 0, r.err);
  const shown = JSON.parse(r.out);
  assert.is(shown.secretKey, undefined);
  assert.is(statSync(file).mode & 0o777, 0o600);
  const { secretKey } = await openKeyFile(file, async () => 'a long enough passphrase');
  assert.not.ok(readFileSync(file, 'utf8').toLowerCase().includes(Buffer.from(secretKey).toString('hex')), 'the secret is not in the file');
  assert.is(Buffer.from(publicKeyOf(secretKey)).toString('hex').toUpperCase(), shown.publicKey);
  assert.match(shown.pem, '-----BEGIN PUBLIC KEY-----');
  const before = readFileSync(file, 'utf8');
  const again = await tpkit('keygen', '--out', file, '--passphrase-file', passphrase);
  assert.is(again.code, 2);
  assert.match(again.err, /already exists/);
  assert.is(readFileSync(file, 'utf8'), before);
  const noPassphrase = await tpkit('keygen', '--out', join(dir, 'other'));
  assert.is(noPassphrase.code, 2);
  assert.match(noPassphrase.err, /TPKIT_PASSPHRASE|--passphrase-file/);
});

test('unknown commands and missing arguments exit 2 with usage', async () => {
  assert.is((await tpkit('nonsense')).code, 2);
  assert.is((await tpkit('decode')).code, 2);
  assert.is((await tpkit('--help')).code, 0);
});

test('an unexpected crash exits 1 with its stack, never 0: inside a command, and while loading one', async () => {
  // A bug inside a command: here console.log throws a plain Error.
  const inside = await tpkitWith('console.log = () => { throw new RangeError("unexpected inside"); };', 'address', 'AA100000001677722412');
  assert.is(inside.code, 1, inside.err);
  assert.match(inside.err, /^tpkit address: RangeError: unexpected inside\n\s+at /);
  // A command module that fails to load.
  const hooks = 'export async function resolve(s, c, next) { if (s.endsWith("/address.js")) throw new TypeError("cannot load"); return next(s, c); }';
  const loading = await tpkitWith(`import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`, 'address', 'AA100000001677722412');
  assert.is(loading.code, 1, loading.err);
  assert.match(loading.err, /^tpkit: TypeError: cannot load/);
});

test.run();
