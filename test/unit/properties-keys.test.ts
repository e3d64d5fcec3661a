// Properties of src/keys over many inputs: path steps at the hardened bound and past it, WIFs
// with every other compression flag, and export files with a foreign block: each refused with a
// TpkitError and its code, never a plain Error, never accepted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { mnemonicPath, readWalletExport, secretKeyToWif, wifToSecretKey, writeWalletExport } from '../../src/keys/index.js';
import { encryptPemBlock } from '../../src/keys/legacy-pem.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { bytes, forAll, int, pick, typedFailure } from '../helpers/property.js';

const HARDENED = 2 ** 31;
const base58check = createBase58check(sha256);

test('a path step at 2^31 - 1 is taken; at 2^31, 2^31 + 1 and beyond it is INVALID_ARGUMENT, for block and group, either order', async () => {
  await forAll(
    'path steps',
    { count: 200, seed: 3101 },
    (next, i) => {
      const edge = [HARDENED - 1, HARDENED, HARDENED + 1][i % 3];
      const value = i < 60 ? edge : int(next, HARDENED, Number.MAX_SAFE_INTEGER);
      return { value, field: pick(next, ['block', 'group'] as const), order: pick(next, ['group-block', 'block-group'] as const), other: int(next, 0, HARDENED - 1) };
    },
    async ({ value, field, order, other }) => {
      const place = field === 'block' ? { block: value, group: other } : { block: other, group: value };
      if (value < HARDENED) {
        assert.ok(mnemonicPath(place, order).includes(`/${value}'`));
        return;
      }
      const err = await typedFailure(`${field} = ${value}`, () => mnemonicPath(place, order));
      assert.is(err?.code, 'INVALID_ARGUMENT', `${field} = ${value} is refused`);
    },
  );
});

test('a WIF is read back to its key; with any compression flag but 0x01, any version but 0x80 or one character changed it is WIF_INVALID', async () => {
  await forAll(
    'WIFs',
    { count: 150, seed: 3102 },
    (next) => ({ key: generateSecretKey(), flag: int(next, 0, 255), version: int(next, 0, 255), at: int(next, 0, 51), by: int(next, 1, 57) }),
    async ({ key, flag, version, at, by }) => {
      const wif = secretKeyToWif(key);
      assert.equal(wifToSecretKey(wif), key);
      const payload = base58check.decode(wif);
      if (flag !== 0x01) {
        const wrongFlag = base58check.encode(Uint8Array.from([...payload.subarray(0, 33), flag]));
        assert.is((await typedFailure(`flag ${flag}`, () => wifToSecretKey(wrongFlag)))?.code, 'WIF_INVALID', `flag 0x${flag.toString(16)} refused`);
      }
      if (version !== 0x80) {
        const wrongVersion = base58check.encode(Uint8Array.from([version, ...payload.subarray(1)]));
        assert.is((await typedFailure(`version ${version}`, () => wifToSecretKey(wrongVersion)))?.code, 'WIF_INVALID', `version 0x${version.toString(16)} refused`);
      }
      const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
      const typo = wif.slice(0, at) + alphabet[(alphabet.indexOf(wif[at]) + by) % 58] + wif.slice(at + 1);
      assert.is((await typedFailure(`typo at ${at}`, () => wifToSecretKey(typo)))?.code, 'WIF_INVALID');
    },
  );
});

test('an export file with one more PEM block of any other label, before, between or after, is WALLET_FILE_CORRUPT', async () => {
  const secretKey = generateSecretKey();
  const address = addressToText(makeAddress({ group: 10, block: 2, wallet: 9 }));
  const file = writeWalletExport({ secretKey, address, passphrase: 'pass' });
  assert.equal(readWalletExport(file, 'pass').secretKey, secretKey);
  const lines = file.trimEnd().split('\n');
  // Where a block may stand: after the JSON line, between the two blocks, at the end.
  const places = [1, lines.findIndex((l) => l.startsWith('-----END')) + 1, lines.length];
  await forAll(
    'foreign blocks',
    { count: 24, seed: 3103 },
    (next) => ({
      label: pick(next, ['CERTIFICATE', 'EC PARAMETERS', 'PRIVATE KEY', 'EXTRA', 'EC PRIVATE KEY X', 'PUBLIC KEY']),
      at: pick(next, places),
      plain: bytes(next, int(next, 1, 40)),
    }),
    async ({ label, at, plain }) => {
      const foreign = encryptPemBlock(label, plain, 'pass').split('\n');
      const withForeign = [...lines.slice(0, at), ...foreign, ...lines.slice(at)].join('\n') + '\n';
      const err = await typedFailure(`a ${label} block at line ${at}`, () => readWalletExport(withForeign, 'pass'));
      assert.is(err?.code, 'WALLET_FILE_CORRUPT', `a ${label} block at line ${at} is refused`);
    },
  );
});

test.run();
