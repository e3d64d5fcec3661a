// Keys as the official wallets keep them, proved against the official SDK (@thepowereco/tssdk
// 2.1.0, unchanged) as the other side: seed phrases, export files in all three layouts, WIF;
// the published BIP-39 and BIP-32 vectors; and one code for each kind of bad input.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { base64ToBytes, bytesToBase64, bytesToHex } from '../../src/bytes.js';
import { addressFromText, addressToText, makeAddress } from '../../src/codec/address.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { encryptPemBlock } from '../../src/keys/legacy-pem.js';
import { writeAddressDer } from '../../src/keys/wallet-der.js';
import { generateMnemonic, isValidMnemonic, mnemonicToSecretKey, normalizeMnemonic, readWalletExport, secretKeyToWif, wifToSecretKey, writeWalletExport } from '../../src/index.js';
import { errorCode, mulberry32 } from '../helpers/helpers.js';
import { fromWif, toWif } from '../helpers/tssdk-helpers.js';

interface SdkKeyPair {
  toWIF(): string;
}
interface SdkCrypto {
  generateSeedPhrase(): string;
  generateKeyPairFromSeedPhrase(phrase: string, block: number, group: number): Promise<SdkKeyPair>;
  generateKeyPairFromSeedPhraseAndAddress(phrase: string, address: string): Promise<SdkKeyPair>;
  encryptWalletDataToPEM(wif: string, address: string, password: string): string;
  decryptWalletData(text: string, password: string): { address: string; wif: string };
}
interface SdkWalletExport {
  getExportData(wif: string, address: string, password: string, hint?: string): string;
  parseExportData(data: string, password: string): Promise<{ address: string; wif: string }>;
}

const sdkRequire = createRequire(import.meta.url);
const { CryptoApi, WalletApi } = sdkRequire('@thepowereco/tssdk') as {
  CryptoApi: SdkCrypto;
  WalletApi: new (network: unknown) => SdkWalletExport;
};
// getExportData and parseExportData touch no network: the wallet needs none for them.
const sdkWallet = new WalletApi({});

const vectorsDir = new URL('../../../test/vectors/', import.meta.url);
const random = mulberry32(19);
const randomInt = (max: number) => Math.floor(random() * max);
const randomAddress = () => addressToText(makeAddress({ group: randomInt(1 << 16), block: randomInt(1 << 21), wallet: randomInt(1 << 24) }));
const PLACES = [
  { block: 0, group: 0 },
  { block: 1, group: 10 },
  { block: 40, group: 10 },
  { block: 1_234_567, group: 513 },
  { block: (1 << 21) - 1, group: (1 << 16) - 1 },
];

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

// --- bad inputs, each with its code --------------------------------------------------------

/** The file with the base64 body of block `label` changed by `edit` on its decoded bytes. */
function editBlock(file: string, label: string, edit: (bytes: Uint8Array) => void): string {
  const re = new RegExp(`(-----BEGIN ${label}-----[\\s\\S]*?\\n\\s*\\n)([\\s\\S]*?)(\\n-----END ${label}-----)`);
  return file.replace(re, (_, head: string, body: string, tail: string) => {
    const bytes = base64ToBytes(body.replace(/\s+/g, ''));
    edit(bytes);
    return head + (bytesToBase64(bytes).match(/.{1,64}/g) ?? []).join('\n') + tail;
  });
}

const exportCase = () => {
  const key = generateSecretKey();
  const address = randomAddress();
  return { key, address, file: sdkWallet.getExportData(toWif(key), address, 'the right one', 'h') };
};

test('a wrong passphrase is WALLET_PASSPHRASE (SDK-written and our own files)', () => {
  for (let i = 0; i < 20; i++) {
    const { file, key, address } = exportCase();
    assert.is(
      errorCode(() => readWalletExport(file, `wrong ${i}`)),
      'WALLET_PASSPHRASE',
    );
    const ours = writeWalletExport({ secretKey: key, address, passphrase: 'the right one' });
    assert.is(
      errorCode(() => readWalletExport(ours, 'The right one')),
      'WALLET_PASSPHRASE',
    );
  }
});

test('a flipped byte in the address block is WALLET_FILE_CORRUPT, wherever it is', () => {
  const { file } = exportCase();
  for (let pos = 0; pos < 32; pos++) {
    const bad = editBlock(file, 'EXTRA DATA', (b) => void (b[pos] ^= 0x01));
    assert.is(
      errorCode(() => readWalletExport(bad, 'the right one')),
      'WALLET_FILE_CORRUPT',
      `byte ${pos}`,
    );
  }
});

test('a flipped byte in the key block is WALLET_FILE_CORRUPT, except in the AES block that holds only key bytes', () => {
  const { file, key } = exportCase();
  for (let pos = 0; pos < 80; pos++) {
    const bad = editBlock(file, 'EC PRIVATE KEY', (b) => void (b[pos] ^= 0x01));
    if (pos >= 32 && pos < 48) {
      // CBC garbles the first half of the key and flips one bit of the second, both still
      // a valid key: the legacy format has no integrity check (docs/guide/official-wallets.md).
      assert.is.not(bytesToHex(readWalletExport(bad, 'the right one').secretKey), bytesToHex(key), `byte ${pos}`);
    } else {
      assert.is(
        errorCode(() => readWalletExport(bad, 'the right one')),
        'WALLET_FILE_CORRUPT',
        `byte ${pos}`,
      );
    }
  }
});

test('a changed iv, a missing block, a duplicated block, bad base64 and a bad JSON line are WALLET_FILE_CORRUPT', () => {
  const { file } = exportCase();
  const ivs = [...file.matchAll(/DEK-Info: AES-128-CBC,([0-9A-F]{32})/g)].map((m) => m[1]);
  assert.is(ivs.length, 2);
  for (const iv of ivs) {
    for (const at of [0, 20]) {
      const flipped = iv.slice(0, at) + (iv[at] === '0' ? '1' : '0') + iv.slice(at + 1);
      assert.is(
        errorCode(() => readWalletExport(file.replace(iv, flipped), 'the right one')),
        'WALLET_FILE_CORRUPT',
        `iv digit ${at}`,
      );
    }
  }
  const keyBlock = /-----BEGIN EC PRIVATE KEY-----[\s\S]*?-----END EC PRIVATE KEY-----/.exec(file)![0];
  const addressBlock = /-----BEGIN EXTRA DATA-----[\s\S]*?-----END EXTRA DATA-----/.exec(file)![0];
  const cases = {
    'no key block': file.replace(keyBlock, ''),
    'no address block': file.replace(addressBlock, ''),
    'two key blocks': `${file}${keyBlock}\n`,
    'no END line': file.replace('-----END EXTRA DATA-----', ''),
    'bad base64': file.replace(/\n\n(.)/, '\n\n*'),
    'truncated block': editBlock(file, 'EC PRIVATE KEY', () => undefined).replace(/\n([A-Za-z0-9+/]{4})([A-Za-z0-9+/=]*)\n-----END EC/, '\n$1\n-----END EC'),
    'not encrypted': file.replace('Proc-Type: 4,ENCRYPTED', 'Proc-Type: 4,MIC-ONLY'),
    'another cipher': file.replace('AES-128-CBC', 'DES-EDE3-CBC'),
    'bad JSON line': file.replace('{"version":2,', '{"version":2'),
  };
  for (const [name, bad] of Object.entries(cases)) {
    assert.is.not(bad, file, name);
    assert.is(
      errorCode(() => readWalletExport(bad, 'the right one')),
      'WALLET_FILE_CORRUPT',
      name,
    );
  }
});

test('a P-256 key (and an Ed25519 key) is KEY_CURVE', () => {
  const address = makeAddress({ group: 10, block: 2, wallet: 1 });
  for (const [type, options] of [
    ['ec', { namedCurve: 'prime256v1' }],
    ['ed25519', {}],
  ] as const) {
    const { privateKey } = generateKeyPairSync(type as 'ec', options as { namedCurve: string });
    const pkcs8 = new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' }));
    const file = `{"version":2,"hint":""}\n${encryptPemBlock('EC PRIVATE KEY', pkcs8, 'pw')}\n${encryptPemBlock('EXTRA DATA', writeAddressDer(address), 'pw')}\n`;
    assert.is(
      errorCode(() => readWalletExport(file, 'pw')),
      'KEY_CURVE',
      type,
    );
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const sec1 = new Uint8Array(privateKey.export({ format: 'der', type: 'sec1' }));
  const file = `${encryptPemBlock('EC PRIVATE KEY', sec1, 'pw')}\n${encryptPemBlock('EXTRA DATA', writeAddressDer(address), 'pw')}\n`;
  assert.is(
    errorCode(() => readWalletExport(file, 'pw')),
    'KEY_CURVE',
    'SEC1 P-256',
  );
});

test('files that are no export are WALLET_FILE_UNKNOWN: a tpkit key file, text, binary, version 3, too large', () => {
  const tpkitKeyFile = JSON.stringify({ format: 'tpkit-key/1', publicKey: '02'.padEnd(66, 'a') }, null, 2);
  const cases: Record<string, string | Uint8Array> = {
    'tpkit key file': tpkitKeyFile,
    'hex secret key': bytesToHex(generateSecretKey()),
    text: 'hello',
    empty: '',
    binary: randomBytes(200).fill(0x10, 0, 1),
    'version 3': '{"version":3,"hint":""}\n',
    'too large': 'x'.repeat(70_000),
  };
  for (const [name, bad] of Object.entries(cases))
    assert.is(
      errorCode(() => readWalletExport(bad, 'pw')),
      'WALLET_FILE_UNKNOWN',
      name,
    );
});

test('seed phrases: 13 words is MNEMONIC_LENGTH, an unknown word MNEMONIC_WORD, a wrong checksum word MNEMONIC_CHECKSUM', () => {
  const phrase = generateMnemonic();
  const words = phrase.split(' ');
  assert.is(
    errorCode(() => mnemonicToSecretKey(`${phrase} abandon`, PLACES[0])),
    'MNEMONIC_LENGTH',
  );
  assert.is(
    errorCode(() => mnemonicToSecretKey(words.slice(0, 11).join(' '), PLACES[0])),
    'MNEMONIC_LENGTH',
  );
  assert.is(
    errorCode(() => mnemonicToSecretKey('', PLACES[0])),
    'MNEMONIC_LENGTH',
  );
  assert.is(
    errorCode(() => mnemonicToSecretKey([...words.slice(0, 5), 'bitcoins', ...words.slice(6)].join(' '), PLACES[0])),
    'MNEMONIC_WORD',
  );
  // A last word that is in the list but breaks the checksum (15 of 16 candidates do).
  const last = wordlist.find((w) => w !== words[11] && !isValidMnemonic([...words.slice(0, 11), w].join(' ')))!;
  const error = (() => {
    try {
      mnemonicToSecretKey([...words.slice(0, 11), last].join(' '), PLACES[0]);
    } catch (err) {
      return err as Error & { code: string };
    }
    return undefined;
  })();
  assert.is(error?.code, 'MNEMONIC_CHECKSUM');
  // The message never repeats the phrase.
  assert.not.ok(error!.message.includes(words[0]));
  // Two words swapped: the first swap that the checksum catches (most do; a few cannot be).
  const swapped = words
    .map((_, i) => [...words.slice(0, i), words[i + 1], words[i], ...words.slice(i + 2)].join(' '))
    .slice(0, 11)
    .find((p) => !isValidMnemonic(p))!;
  assert.is(
    errorCode(() => normalizeMnemonic(swapped)),
    'MNEMONIC_CHECKSUM',
  );
});

test('WIF: a mistyped character, a testnet version, an uncompressed key and a zero key are WIF_INVALID', () => {
  const key = generateSecretKey();
  const wif = secretKeyToWif(key);
  const mistyped = wif.slice(0, 10) + (wif[10] === 'a' ? 'b' : 'a') + wif.slice(11);
  const uncompressed = sdkRequire(createRequire(sdkRequire.resolve('@thepowereco/tssdk')).resolve('wif')) as { encode(v: number, k: Buffer, c: boolean): string };
  for (const [name, bad] of Object.entries({
    mistyped,
    testnet: uncompressed.encode(0xef, Buffer.from(key), true),
    uncompressed: uncompressed.encode(0x80, Buffer.from(key), false),
    zero: uncompressed.encode(0x80, Buffer.alloc(32), true),
    empty: '',
    long: wif.repeat(3),
  })) {
    assert.is(
      errorCode(() => wifToSecretKey(bad)),
      'WIF_INVALID',
      name,
    );
  }
});

test('wrong argument types and values are ArgumentError, never a crash', () => {
  assert.is(
    errorCode(() => mnemonicToSecretKey(generateMnemonic(), { block: -1, group: 0 })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => mnemonicToSecretKey(generateMnemonic(), { block: 1.5, group: 0 })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => mnemonicToSecretKey(42 as never, { block: 1, group: 0 })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => generateMnemonic(13)),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => readWalletExport({} as never, 'x')),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => writeWalletExport({ secretKey: generateSecretKey(), address: randomAddress(), passphrase: '' })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => writeWalletExport({ secretKey: generateSecretKey(), address: randomAddress(), passphrase: 'p', hint: 'p' })),
    'INVALID_ARGUMENT',
  );
  assert.is(
    errorCode(() => writeWalletExport({ secretKey: new Uint8Array(32), address: randomAddress(), passphrase: 'p' })),
    'KEY_INVALID',
  );
  assert.is(
    errorCode(() => writeWalletExport({ secretKey: generateSecretKey(), address: 'AA1', passphrase: 'p' })),
    'ADDRESS_INVALID',
  );
});

test.run();
