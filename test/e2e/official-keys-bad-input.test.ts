// Keys as the official wallets keep them, given bad input: wrong passphrases, damaged export
// files, foreign curves, files that are no export, bad seed phrases and WIFs, wrong argument
// types, each refused with its one code (the SDK writes the files the damage starts from).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { base64ToBytes, bytesToBase64, bytesToHex } from '../../src/bytes.js';
import { makeAddress } from '../../src/codec/address.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { encryptPemBlock } from '../../src/keys/legacy-pem.js';
import { writeAddressDer } from '../../src/keys/wallet-der.js';
import { generateMnemonic, isValidMnemonic, mnemonicToSecretKey, normalizeMnemonic, readWalletExport, secretKeyToWif, wifToSecretKey, writeWalletExport } from '../../src/index.js';
import { errorCode } from '../helpers/helpers.js';
import { toWif } from '../helpers/tssdk-helpers.js';
import { sdkWallet, randomAddress, PLACES } from '../helpers/official-sdk-keys.js';

const sdkRequire = createRequire(import.meta.url);

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
