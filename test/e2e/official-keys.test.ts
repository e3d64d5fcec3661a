// Keys as the official wallets keep them, proved against the official SDK (@thepowereco/tssdk
// 2.1.0, unchanged) as the other side: seed phrases, export files in all three layouts, WIF;
// the published BIP-39 and BIP-32 vectors. Bad input, each with its code: official-keys-bad-input.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { bytesToHex } from '../../src/bytes.js';
import { addressFromText, makeAddress } from '../../src/codec/address.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { encryptPemBlock } from '../../src/keys/legacy-pem.js';
import { writeAddressDer } from '../../src/keys/wallet-der.js';
import { generateMnemonic, isValidMnemonic, mnemonicToSecretKey, normalizeMnemonic, readWalletExport, secretKeyToWif, wifToSecretKey, writeWalletExport } from '../../src/index.js';
import { fromWif, toWif } from '../helpers/tssdk-helpers.js';
import { CryptoApi, sdkWallet, randomAddress, PLACES } from '../helpers/official-sdk-keys.js';

const vectorsDir = new URL('../../../test/vectors/', import.meta.url);

// --- published vectors ---------------------------------------------------------------

test('BIP-39 English vectors (trezor/python-mnemonic, linked from BIP-39): phrase accepted as is, seed, root xprv', () => {
  const vectors = JSON.parse(readFileSync(new URL('bip39-vectors.json', vectorsDir), 'utf8')) as { english: [string, string, string, string][] };
  assert.is(vectors.english.length, 24);
  for (const [, mnemonic, seed, xprv] of vectors.english) {
    assert.is(normalizeMnemonic(mnemonic), mnemonic);
    const derived = mnemonicToSeedSync(normalizeMnemonic(mnemonic), 'TREZOR');
    assert.is(bytesToHex(derived), seed, mnemonic);
    assert.is(HDKey.fromMasterSeed(derived).privateExtendedKey, xprv, mnemonic);
  }
});

/** BIP-32 "Test Vectors": [seed hex, [path, xpub, xprv][]][] and the invalid keys of vector 5. */
function bip32Vectors(): { valid: { seed: string; chains: { path: string; xpub: string; xprv: string }[] }[]; invalid: string[] } {
  const text = readFileSync(new URL('bip32-test-vectors.mediawiki', vectorsDir), 'utf8');
  const valid: { seed: string; chains: { path: string; xpub: string; xprv: string }[] }[] = [];
  const invalid: string[] = [];
  let inFive = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('===Test vector')) inFive = line.includes('5');
    const seed = /^Seed \(hex\): ([0-9a-f]+)$/.exec(line);
    if (seed) valid.push({ seed: seed[1], chains: [] });
    const chain = /^\* Chain (\S+)$/.exec(line);
    if (chain) valid[valid.length - 1].chains.push({ path: chain[1].replaceAll('<sub>H</sub>', "'"), xpub: '', xprv: '' });
    const key = /^\*\* ext (pub|prv): (\S+)$/.exec(line);
    if (key) {
      const chains = valid[valid.length - 1].chains;
      chains[chains.length - 1][key[1] === 'pub' ? 'xpub' : 'xprv'] = key[2];
    }
    const bad = /^\* ((?:xpub|xprv|DMwo)\S+) \(/.exec(line);
    if (inFive && bad) invalid.push(bad[1]);
  }
  return { valid, invalid };
}

test('BIP-32 vectors 1-4 (from the BIP text): every chain derives its xpub and xprv', () => {
  const { valid } = bip32Vectors();
  assert.is(valid.length, 4);
  assert.is(
    valid.reduce((n, v) => n + v.chains.length, 0),
    6 + 6 + 2 + 3,
  );
  for (const { seed, chains } of valid) {
    const root = HDKey.fromMasterSeed(Buffer.from(seed, 'hex'));
    for (const { path, xpub, xprv } of chains) {
      const node = root.derive(path);
      assert.is(node.publicExtendedKey, xpub, `${seed.slice(0, 8)} ${path}`);
      assert.is(node.privateExtendedKey, xprv, `${seed.slice(0, 8)} ${path}`);
    }
  }
});

test('BIP-32 vector 5 (from the BIP text): every invalid extended key is refused', () => {
  const { invalid } = bip32Vectors();
  assert.is(invalid.length, 16);
  for (const key of invalid) assert.throws(() => HDKey.fromExtendedKey(key), undefined, key);
});

// --- the official SDK as the other side --------------------------------------------------

test("mnemonicToSecretKey equals the SDK's generateKeyPairFromSeedPhrase for random phrases and places", async () => {
  for (let i = 0; i < 6; i++) {
    const phrase = i % 2 ? generateMnemonic() : CryptoApi.generateSeedPhrase();
    for (const place of PLACES) {
      const ours = mnemonicToSecretKey(phrase, place);
      const sdkKey = fromWif((await CryptoApi.generateKeyPairFromSeedPhrase(phrase, place.block, place.group)).toWIF());
      assert.is(bytesToHex(ours), bytesToHex(sdkKey), `${place.block}/${place.group}`);
    }
  }
  // 24 words, and the place taken from a wallet address as the SDK does.
  const long = generateMnemonic(24);
  const address = randomAddress();
  const sdkKey = fromWif((await CryptoApi.generateKeyPairFromSeedPhraseAndAddress(long, address)).toWIF());
  assert.is(bytesToHex(mnemonicToSecretKey(long, { address })), bytesToHex(sdkKey));
});

test('a phrase pasted with capitals and line breaks gives the same key', () => {
  const phrase = generateMnemonic();
  const messy = `  ${phrase
    .split(' ')
    .map((w, i) => (i % 3 ? w : w.toUpperCase()))
    .join('\n')}\n`;
  assert.is(bytesToHex(mnemonicToSecretKey(messy, PLACES[1])), bytesToHex(mnemonicToSecretKey(phrase, PLACES[1])));
  assert.ok(isValidMnemonic(messy));
});

test("WIF both ways: ours equals the SDK's (wif package), and each reads the other", () => {
  for (let i = 0; i < 20; i++) {
    const key = generateSecretKey();
    const wif = secretKeyToWif(key);
    assert.is(wif, toWif(key));
    assert.is(bytesToHex(wifToSecretKey(toWif(key))), bytesToHex(key));
    assert.is(bytesToHex(fromWif(wif)), bytesToHex(key));
  }
});

test('an export written by the SDK opens with readWalletExport (same key, address and hint)', () => {
  for (let i = 0; i < 8; i++) {
    const key = generateSecretKey();
    const address = randomAddress();
    const passphrase = `pass ${i} ${bytesToHex(randomBytes(4))}`;
    const hint = i % 2 ? '' : `hint ${i} ünïcode`;
    const file = sdkWallet.getExportData(toWif(key), address, passphrase, hint);
    const opened = readWalletExport(file, passphrase);
    assert.equal([bytesToHex(opened.secretKey), opened.address, opened.hint, opened.layout], [bytesToHex(key), address, hint, 'v2']);
    // As bytes (a file read from disk) too.
    assert.is(readWalletExport(new TextEncoder().encode(file), passphrase).address, address);
  }
});

test("an export written by writeWalletExport opens with the SDK's parseExportData (same address, same WIF)", async () => {
  for (let i = 0; i < 8; i++) {
    const key = generateSecretKey();
    const address = randomAddress();
    const passphrase = `pässphrase ${i}`;
    const file = writeWalletExport({ secretKey: key, address, passphrase, hint: 'mine' });
    assert.is(file.split('\n')[0], '{"version":2,"hint":"mine"}');
    const parsed = await sdkWallet.parseExportData(file, passphrase);
    assert.equal(parsed, { address, wif: toWif(key) });
    assert.equal(CryptoApi.decryptWalletData(file, passphrase), { address, wif: toWif(key) });
  }
});

test('the older layouts: bare PEM blocks (SDK encryptWalletDataToPEM) and the plain address + WIF parseExportData reads', async () => {
  const key = generateSecretKey();
  const address = randomAddress();
  const pem = CryptoApi.encryptWalletDataToPEM(toWif(key), address, 'old pass');
  const fromPem = readWalletExport(pem, 'old pass');
  assert.equal([bytesToHex(fromPem.secretKey), fromPem.address, fromPem.hint, fromPem.layout], [bytesToHex(key), address, '', 'pem']);

  const addressChars = Array.from(makeAddress({ group: 10, block: 7, wallet: 3 }), (b) => String.fromCharCode(b)).join('');
  for (const prefix of ['', '\u0001']) {
    const plain = `${prefix}${addressChars}${toWif(key)}`;
    const sdkRead = await sdkWallet.parseExportData(plain, '');
    const ours = readWalletExport(plain, '');
    assert.equal([ours.address, secretKeyToWif(ours.secretKey), ours.layout], [sdkRead.address, sdkRead.wif, 'plain']);
    // The same file as bytes: not UTF-8, read one character per byte.
    assert.is(
      readWalletExport(
        Uint8Array.from(plain, (c) => c.charCodeAt(0)),
        '',
      ).address,
      sdkRead.address,
    );
  }
});

test('OpenSSL\'s own SEC1 "EC PRIVATE KEY" DER (with curve and public key) is read too', () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const sec1 = new Uint8Array(privateKey.export({ format: 'der', type: 'sec1' }));
  const jwk = privateKey.export({ format: 'jwk' }) as { d: string };
  const address = randomAddress();
  const file = `${encryptPemBlock('EC PRIVATE KEY', sec1, 'pw')}\n${encryptPemBlock('EXTRA DATA', writeAddressDer(addressFromText(address)), 'pw')}\n`;
  assert.is(bytesToHex(readWalletExport(file, 'pw').secretKey), Buffer.from(jwk.d, 'base64url').toString('hex'));
});

test('the library guide example: phrase, key, export file and WIF', () => {
  const phrase = generateMnemonic();
  const key = mnemonicToSecretKey(phrase, { block: 1, group: 10 });
  const file = writeWalletExport({ secretKey: key, address: 'AA100000001677721780', passphrase: 'long and private', hint: '' });
  const opened = readWalletExport(file, 'long and private');
  assert.equal([bytesToHex(opened.secretKey), opened.address, opened.hint, opened.layout], [bytesToHex(key), 'AA100000001677721780', '', 'v2']);
  assert.is(bytesToHex(wifToSecretKey(secretKeyToWif(key))), bytesToHex(key));
  assert.is(bytesToHex(mnemonicToSecretKey(phrase, { address: 'AA100000001677721780' })), bytesToHex(mnemonicToSecretKey(phrase, { block: 1, group: 10 })));
});

test.run();
