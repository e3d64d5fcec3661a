// Inputs of many megabytes: every entry point that takes text (hex or base64) answers with
// the project's typed error, never a RangeError from a regex engine or a stack overflow,
// in the library and in `tpkit decode`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { base64ToBytes, bytesFromInput } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { decodeTxid } from '../../src/codec/txid.js';
import { normalizePublicKey, publicKeyOf, toSecretKeyBytes } from '../../src/crypto/keys.js';
import { pemToPublicKey } from '../../src/crypto/pem.js';
import { decodeBody, decodeTx } from '../../src/codec/index.js';
import { addSignature, verifyTx } from '../../src/crypto/sign-tx.js';
import { TpkitError } from '../../src/errors.js';

const MB = 1024 * 1024;
const KEY = new Uint8Array(32).fill(7);

const entryPoints: Record<string, (text: string) => unknown> = {
  decodeTx: (s) => decodeTx(s),
  decodeBody: (s) => decodeBody(s),
  verifyTx: (s) => verifyTx(s),
  addSignature: (s) => addSignature(s, KEY),
};

/** Generators of huge text, each in the shape one branch of the input sniffing takes. */
const shapes: Record<string, (size: number) => string> = {
  'random hex': (n) => randomBytes(n / 2).toString('hex'),
  '0x-prefixed hex': (n) => '0x' + randomBytes(n / 2).toString('hex'),
  'hex with a bad last digit': (n) =>
    randomBytes(n / 2)
      .toString('hex')
      .slice(0, -1) + 'g',
  'hex of odd length': (n) => randomBytes(n / 2).toString('hex') + 'a',
  'repeated "ab"': (n) => 'ab'.repeat(n / 2),
  'random base64': (n) => randomBytes((n * 3) / 4).toString('base64'),
  'padding run then a letter': (n) => '='.repeat(n) + 'A',
  'letters then a padding run': (n) => 'A'.repeat(n) + '='.repeat(n),
  'whitespace-laden base64': (n) =>
    randomBytes(n / 4)
      .toString('base64')
      .replace(/(.{3})/g, '$1 \n'),
  'msgpack map header declaring more than there is': (n) => 'df' + 'ffffffff' + '00'.repeat(n / 2),
  'non-ASCII': (n) => 'é'.repeat(n),
};

function expectTyped(name: string, shape: string, run: () => unknown): void {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof TpkitError, `${name}(${shape}) threw ${(err as Error).name}: ${(err as Error).message}`);
    return;
  }
  assert.unreachable(`${name}(${shape}) accepted a huge garbage input`);
}

/** Decoders of short text (keys, PEM, addresses, txids): each has a length limit it checks first. */
const shortText: Record<string, [(text: string) => unknown, string]> = {
  pemToPublicKey: [(s) => pemToPublicKey(`-----BEGIN PUBLIC KEY-----\n${s}\n-----END PUBLIC KEY-----`), 'PEM_INVALID'],
  addressFromText: [(s) => addressFromText(s), 'ADDRESS_INVALID'],
  decodeTxid: [(s) => decodeTxid(`${s}-node`), 'TXID_INVALID'],
  toSecretKeyBytes: [(s) => toSecretKeyBytes(s), 'KEY_INVALID'],
  publicKeyOf: [(s) => publicKeyOf(s), 'KEY_INVALID'],
  normalizePublicKey: [(s) => normalizePublicKey(s), 'KEY_INVALID'],
};

test('10 MB to a short-text decoder: refused by its length before any scan, without echoing the input', () => {
  const text = 'A'.repeat(10 * MB);
  const times: string[] = [];
  for (const [name, [run, code]] of Object.entries(shortText)) {
    const began = performance.now();
    try {
      run(text);
      assert.unreachable(`${name} accepted 10 MB`);
    } catch (err) {
      times.push(`${name} ${(performance.now() - began).toFixed(2)} ms`);
      assert.ok(err instanceof TpkitError, `${name}: ${(err as Error).message?.slice(0, 200)}`);
      assert.is(err.code, code, name);
      assert.match(`${err.message} ${err.details ?? ''}`, /at most \d+ characters, got 10485\d\d\d/, name);
      assert.ok(err.message.length + (err.details?.length ?? 0) < 300, `${name}: the error does not echo the input`);
    }
  }
  console.log(`  10 MB refused: ${times.join(', ')}`);
});

test('base64 that is not base64 is refused at its first wrong character', () => {
  const err = (() => {
    try {
      base64ToBytes('A'.repeat(4 * MB) + '!' + 'A'.repeat(4 * MB));
    } catch (e) {
      return e as TpkitError;
    }
  })();
  assert.is(err?.code, 'BAD_BASE64');
  assert.is(err?.details, `bad character at ${4 * MB}`);
  // whitespace anywhere, padding at the end only
  assert.equal(base64ToBytes(' QU\nJD\tRA = = '), new Uint8Array([65, 66, 67, 68]));
  assert.throws(
    () => base64ToBytes('QQ==QQ=='),
    (e: TpkitError) => e.code === 'BAD_BASE64',
  );
});

test('12 MB of each shape: every entry point throws a TpkitError', () => {
  for (const [shape, make] of Object.entries(shapes)) {
    const text = make(12 * MB);
    for (const [name, run] of Object.entries(entryPoints)) expectTyped(name, shape, () => run(text));
  }
});

test('property: random shapes and sizes up to 2 MB, against every entry point', () => {
  const names = Object.keys(shapes);
  for (let i = 0; i < 24; i++) {
    const shape = names[Math.floor(Math.random() * names.length)];
    const size = 2 * Math.floor(Math.random() * MB);
    const text = shapes[shape](size || 2);
    for (const [name, run] of Object.entries(entryPoints)) expectTyped(name, `${shape}, ${size} chars`, () => run(text));
  }
});

test('the input sniffing itself: 12 MB of hex is read as hex, 12 MB of base64 as base64', () => {
  const bytes = randomBytes(6 * MB);
  assert.ok(Buffer.from(bytesFromInput(bytes.toString('hex'))).equals(bytes));
  assert.ok(Buffer.from(bytesFromInput(bytes.toString('base64'))).equals(bytes));
  assert.ok(Buffer.from(bytesFromInput(' ' + bytes.toString('base64').replace(/(.{76})/g, '$1\n') + '\n')).equals(bytes));
});

test('tpkit decode on a 12 MB hex file and on 12 MB of stdin: a typed error, exit 1, no stack', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-huge-'));
  try {
    const file = join(dir, 'huge.hex');
    const hex = randomBytes(6 * MB).toString('hex');
    writeFileSync(file, hex);
    for (const r of [await runTpkit(['decode', file]), await runTpkit(['decode', '-'], { stdin: 'ab'.repeat(6 * MB) })]) {
      assert.is(r.code, 1, r.err);
      assert.match(r.err, /MSGPACK_[A-Z]+|TX_[A-Z_]+/);
      assert.not.match(r.err, /RangeError|Maximum call stack|\n\s+at /);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
