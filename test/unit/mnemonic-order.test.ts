// The two orders of block and group in a seed-phrase path, against the official SDK 2.1.0
// (its generateKeyPairFromSeedPhrase derives at …/{group}'/{block}', so swapping its two
// arguments derives at …/{block}'/{group}', the path SDK 2.2's registerCertainChain uses) and
// against @scure/bip32 on the written-out path.
import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { bytesToHex } from '../../src/bytes.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { findMnemonicKey, generateMnemonic, MNEMONIC_ORDERS, mnemonicPath, mnemonicToSecretKey } from '../../src/index.js';
import { errorCode } from '../helpers/helpers.js';
import { fromWif } from '../helpers/tssdk-helpers.js';

const sdkRequire = createRequire(import.meta.url);
const { CryptoApi } = sdkRequire('@thepowereco/tssdk') as {
  CryptoApi: { generateKeyPairFromSeedPhrase(phrase: string, block: number, group: number): Promise<{ toWIF(): string }> };
};

const PLACE = { block: 1, group: 10 };

test('mnemonicPath writes group then block by default, block then group for "block-group"', () => {
  assert.is(mnemonicPath(PLACE), "m/44/31337'/0'/10'/1'");
  assert.is(mnemonicPath(PLACE, 'group-block'), "m/44/31337'/0'/10'/1'");
  assert.is(mnemonicPath(PLACE, 'block-group'), "m/44/31337'/0'/1'/10'");
  assert.is(mnemonicPath({ address: 'AA100000001677721780' }, 'block-group'), "m/44/31337'/0'/1'/10'");
  assert.equal([...MNEMONIC_ORDERS], ['group-block', 'block-group']);
});

test("each order gives the SDK's key for that path, and the two keys differ", async () => {
  const phrase = generateMnemonic();
  const login = mnemonicToSecretKey(phrase, PLACE, 'group-block');
  const registration = mnemonicToSecretKey(phrase, PLACE, 'block-group');
  const sdkLogin = fromWif((await CryptoApi.generateKeyPairFromSeedPhrase(phrase, PLACE.block, PLACE.group)).toWIF());
  const sdkRegistration = fromWif((await CryptoApi.generateKeyPairFromSeedPhrase(phrase, PLACE.group, PLACE.block)).toWIF());
  assert.is(bytesToHex(login), bytesToHex(sdkLogin));
  assert.is(bytesToHex(registration), bytesToHex(sdkRegistration));
  const scure = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase)).derive("m/44/31337'/0'/1'/10'").privateKey!;
  assert.is(bytesToHex(registration), bytesToHex(scure));
  assert.is.not(bytesToHex(login), bytesToHex(registration));
  assert.is(bytesToHex(mnemonicToSecretKey(phrase, PLACE)), bytesToHex(login), 'the default is the login order');
});

test('findMnemonicKey finds the key in whichever order holds it and names the order', () => {
  const phrase = generateMnemonic();
  for (const order of MNEMONIC_ORDERS) {
    const key = mnemonicToSecretKey(phrase, PLACE, order);
    const found = findMnemonicKey(phrase, PLACE, publicKeyOf(key));
    assert.ok(found, order);
    assert.is(found.order, order);
    assert.is(found.path, mnemonicPath(PLACE, order));
    assert.is(bytesToHex(found.secretKey), bytesToHex(key));
  }
});

test('findMnemonicKey: another phrase or another place finds nothing', () => {
  const phrase = generateMnemonic();
  const key = publicKeyOf(mnemonicToSecretKey(phrase, PLACE, 'block-group'));
  assert.is(findMnemonicKey(generateMnemonic(), PLACE, key), undefined);
  assert.is(findMnemonicKey(phrase, { block: 1, group: 11 }, key), undefined);
});

test('where block equals group both orders are one path, found as the login order', () => {
  const phrase = generateMnemonic();
  const place = { block: 7, group: 7 };
  assert.is(mnemonicPath(place, 'group-block'), mnemonicPath(place, 'block-group'));
  const found = findMnemonicKey(phrase, place, publicKeyOf(mnemonicToSecretKey(phrase, place, 'block-group')));
  assert.is(found?.order, 'group-block');
});

test('a wrong order name is INVALID_ARGUMENT, a public key that is no point KEY_INVALID', () => {
  const phrase = generateMnemonic();
  assert.is(
    errorCode(() => mnemonicPath(PLACE, 'group/block' as never)),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => mnemonicToSecretKey(phrase, PLACE, '' as never)),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => findMnemonicKey(phrase, PLACE, new Uint8Array(33))),
    'KEY_INVALID',
  );
});

test.run();
