// One table of bad inputs for the official wallets' key formats (seed-phrase places, WIF, the
// export file): every refusal is a TpkitError with its stable code, never a plain Error from a
// library underneath, and never a silent acceptance.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../../src/bytes.js';
import { TpkitError } from '../../src/errors.js';
import { mnemonicPath, mnemonicToSecretKey, findMnemonicKey } from '../../src/keys/mnemonic.js';
import { secretKeyToWif, wifToSecretKey } from '../../src/keys/wif.js';
import { readWalletExport, writeWalletExport } from '../../src/keys/wallet-export.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { encryptPemBlock } from '../../src/keys/legacy-pem.js';

const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const base58check = createBase58check(sha256);
const secretKey = generateSecretKey();
const wifWithFlag = (flag: number) => base58check.encode(concatBytes(Uint8Array.of(0x80), secretKey, Uint8Array.of(flag)));
const exportFile = writeWalletExport({ secretKey, address: 'AA100000001677721780', passphrase: 'correct horse' });
const FOREIGN_PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUB3\n-----END CERTIFICATE-----\n';
/** A block in the export's own encrypted form, under the same passphrase, but with a label of its own. */
const FOREIGN_ENCRYPTED = encryptPemBlock('RSA PRIVATE KEY', new Uint8Array(48).fill(3), 'correct horse') + '\n';

/** [what, call, expected code] */
const BAD: [string, () => unknown, string][] = [];
for (const [field, value] of [
  ['block', 2 ** 31],
  ['group', 2 ** 31],
  ['block', 2 ** 32],
  ['group', -1],
  ['block', 1.5],
  ['group', Number.NaN],
] as const) {
  const place = { block: 1, group: 10, [field]: value };
  BAD.push([`mnemonicToSecretKey with ${field} ${value}`, () => mnemonicToSecretKey(PHRASE, place), 'INVALID_ARGUMENT']);
  BAD.push([`mnemonicToSecretKey block-group with ${field} ${value}`, () => mnemonicToSecretKey(PHRASE, place, 'block-group'), 'INVALID_ARGUMENT']);
  BAD.push([`mnemonicPath with ${field} ${value}`, () => mnemonicPath(place), 'INVALID_ARGUMENT']);
  BAD.push([`findMnemonicKey with ${field} ${value}`, () => findMnemonicKey(PHRASE, place, publicKeyOf(secretKey)), 'INVALID_ARGUMENT']);
}
for (const flag of [0x00, 0x02, 0x81, 0xff]) {
  BAD.push([`WIF with compression flag 0x${flag.toString(16)}`, () => wifToSecretKey(wifWithFlag(flag)), 'WIF_INVALID']);
}
BAD.push(['WIF with no compression flag', () => wifToSecretKey(base58check.encode(concatBytes(Uint8Array.of(0x80), secretKey))), 'WIF_INVALID']);
BAD.push(['WIF with two flag bytes', () => wifToSecretKey(base58check.encode(concatBytes(Uint8Array.of(0x80), secretKey, Uint8Array.of(1, 1)))), 'WIF_INVALID']);
BAD.push(['WIF of another version', () => wifToSecretKey(base58check.encode(concatBytes(Uint8Array.of(0xef), secretKey, Uint8Array.of(1)))), 'WIF_INVALID']);
BAD.push(['export with a foreign PEM block after its two', () => readWalletExport(exportFile + FOREIGN_PEM, 'correct horse'), 'WALLET_FILE_CORRUPT']);
BAD.push(['export with a foreign PEM block before its two', () => readWalletExport(exportFile.replace('\n', `\n${FOREIGN_PEM}`), 'correct horse'), 'WALLET_FILE_CORRUPT']);
BAD.push(['export with a foreign encrypted PEM block after its two', () => readWalletExport(exportFile + FOREIGN_ENCRYPTED, 'correct horse'), 'WALLET_FILE_CORRUPT']);
BAD.push([
  'export with a foreign encrypted PEM block between its two',
  () => readWalletExport(exportFile.replace('-----END EC PRIVATE KEY-----\n', `-----END EC PRIVATE KEY-----\n${FOREIGN_ENCRYPTED}`), 'correct horse'),
  'WALLET_FILE_CORRUPT',
]);
BAD.push(['export with its key block twice', () => readWalletExport(exportFile + exportFile.split('\n').slice(1).join('\n'), 'correct horse'), 'WALLET_FILE_CORRUPT']);

for (const [what, call, code] of BAD) {
  test(`refused with ${code}: ${what}`, () => {
    let caught: unknown;
    try {
      call();
    } catch (err) {
      caught = err;
    }
    assert.ok(caught !== undefined, `${what} was accepted`);
    assert.instance(caught, TpkitError, `${what}: ${(caught as Error).name}: ${(caught as Error).message}`);
    assert.is((caught as TpkitError).code, code, `${what}: ${(caught as Error).message}`);
  });
}

test('the good forms next to the bad ones are taken (the table tests the edge, not a broken fixture)', () => {
  assert.equal(wifToSecretKey(wifWithFlag(0x01)), secretKey);
  assert.is(wifWithFlag(0x01), secretKeyToWif(secretKey));
  assert.equal(readWalletExport(exportFile, 'correct horse').secretKey, secretKey);
  assert.is(mnemonicToSecretKey(PHRASE, { block: 2 ** 31 - 1, group: 0 }).length, 32);
  assert.match(mnemonicPath({ block: 2 ** 31 - 1, group: 0 }), /2147483647'/);
});

test.run();
