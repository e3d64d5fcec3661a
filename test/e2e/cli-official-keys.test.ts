// Keys moving between tpkit and the official wallets, through the real `tpkit` binary and a
// real node: an SDK export imported and exported back to the SDK, a seed phrase made,
// registered and imported again, and imported keys that record (and check) their address.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { fromWif, toWif } from '../helpers/tssdk-helpers.js';
import { runTpkit, type CliRun, type CliRunOptions } from '../helpers/cli-run.js';

interface SdkWalletExport {
  getExportData(wif: string, address: string, password: string, hint?: string): string;
  parseExportData(data: string, password: string): Promise<{ address: string; wif: string }>;
}
interface SdkCrypto {
  generateKeyPairFromSeedPhraseAndAddress(phrase: string, address: string): Promise<{ toWIF(): string }>;
}
const sdkRequire = createRequire(import.meta.url);
const { CryptoApi, WalletApi } = sdkRequire('@thepowereco/tssdk') as { CryptoApi: SdkCrypto; WalletApi: new (network: unknown) => SdkWalletExport };
const sdkWallet = new WalletApi({});

const dir = mkdtempSync(join(tmpdir(), 'tpkit-official-keys-'));
const PASSPHRASE = 'a passphrase for tests';
const WALLET_PASSPHRASE = 'the official wallet passphrase';
let node: TestNode;
let dev: { key: Uint8Array; address: string };

function tpkit(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return runTpkit(args, { ...options, env: { TPKIT_PASSPHRASE: PASSPHRASE, TPKIT_WALLET_PASSPHRASE: WALLET_PASSPHRASE, TPKIT_NODE: node.url, ...options.env } });
}

const file = (name: string) => join(dir, name);
const recorded = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { address?: string; chain?: number; node?: string; publicKey: string };

test.before(async () => {
  node = await startTestNode({ difficulty: 8, accounts: 1 });
  const account = node.chain.accounts[0];
  dev = { key: account.secretKey, address: addressToText(account.address) };
});

test.after(async () => {
  await node.close();
});

test('SDK export -> keygen --import-wallet (address recorded, checked on the node) -> export -> SDK parseExportData', async () => {
  writeFileSync(file('dev.export'), sdkWallet.getExportData(toWif(dev.key), dev.address, WALLET_PASSPHRASE, 'the usual'));
  const imported = await tpkit(['keygen', '--import-wallet', file('dev.export'), '--out', file('dev.key')]);
  assert.is(imported.code, 0, imported.err);
  assert.match(imported.out, new RegExp(`address     ${dev.address} \\(checked on ${node.url.replace(/[.]/g, '\\.')}, chain \\d+\\)`));
  assert.equal([recorded(file('dev.key')).address, recorded(file('dev.key')).publicKey], [dev.address, bytesToHex(publicKeyOf(dev.key))]);
  assert.is(typeof recorded(file('dev.key')).chain, 'number');
  assert.not.match(imported.out + imported.err, new RegExp(bytesToHex(dev.key), 'i'));

  const exported = await tpkit(['export', '--key', file('dev.key'), '--out', file('back.export'), '--hint', 'from tpkit'], { env: { TPKIT_WALLET_PASSPHRASE: 'another long passphrase' } });
  assert.is(exported.code, 0, exported.err);
  assert.match(exported.err, /warning: .*legacy encryption .*keep it private/);
  const text = readFileSync(file('back.export'), 'utf8');
  assert.is(text.split('\n')[0], '{"version":2,"hint":"from tpkit"}');
  assert.equal(await sdkWallet.parseExportData(text, 'another long passphrase'), { address: dev.address, wif: toWif(dev.key) });
  // Never overwritten.
  const again = await tpkit(['export', '--key', file('dev.key'), '--out', file('back.export')]);
  assert.is(again.code, 2);
  assert.match(again.err, /already exists/);
});

test('--import-wallet: a wrong passphrase, a key that does not own the address, a damaged file: each its code, no key file', async () => {
  const wrong = await tpkit(['keygen', '--import-wallet', file('dev.export'), '--out', file('x1.key')], { env: { TPKIT_WALLET_PASSPHRASE: 'not it' } });
  assert.is(wrong.code, 1);
  assert.match(wrong.err, /\[WALLET_PASSPHRASE\]/);
  writeFileSync(file('stranger.export'), sdkWallet.getExportData(toWif(generateSecretKey()), dev.address, WALLET_PASSPHRASE));
  const stranger = await tpkit(['keygen', '--import-wallet', file('stranger.export'), '--out', file('x2.key')]);
  assert.is(stranger.code, 1);
  assert.match(stranger.err, new RegExp(`The key is not the key of wallet ${dev.address}.*\\[WALLET_KEY_MISMATCH\\]`));
  writeFileSync(file('cut.export'), readFileSync(file('dev.export'), 'utf8').replace(/-----BEGIN EXTRA DATA-----[\s\S]*$/, ''));
  const cut = await tpkit(['keygen', '--import-wallet', file('cut.export'), '--out', file('x3.key'), '--json']);
  assert.is(cut.code, 1);
  assert.is(JSON.parse(cut.out).error.code, 'WALLET_FILE_CORRUPT');
  writeFileSync(file('huge.export'), Buffer.alloc(100_000, 0x41));
  const huge = await tpkit(['keygen', '--import-wallet', file('huge.export'), '--out', file('x4.key')]);
  assert.match(huge.err, /100000 bytes; an export is under 1 KiB \[WALLET_FILE_UNKNOWN\]/);
  for (const name of ['x1.key', 'x2.key', 'x3.key', 'x4.key']) assert.not.ok(existsSync(file(name)), name);
});

test('keygen --mnemonic (node allocation block) -> register -> --import-mnemonic --address gives the same key, as the SDK does', async () => {
  const made = await tpkit(['keygen', '--mnemonic', '--out', file('phrase.key'), '--json']);
  assert.is(made.code, 0, made.err);
  const shown = JSON.parse(made.out) as { mnemonic: string; path: string; publicKey: string };
  assert.is(shown.mnemonic.split(' ').length, 12);
  assert.match(shown.path, /^m\/44\/31337'\/0'\/\d+'\/\d+'$/);
  assert.match(made.err, /write these 12 words down/);
  const reg = await tpkit(['register', '--key', file('phrase.key'), '--json']);
  assert.is(reg.code, 0, reg.err);
  const address = JSON.parse(reg.out).address as string;

  const again = await tpkit(['keygen', '--import-mnemonic', '--address', address, '--out', file('phrase2.key'), '--json'], { stdin: `${shown.mnemonic.toUpperCase()}\n` });
  assert.is(again.code, 0, again.err);
  const second = JSON.parse(again.out) as { publicKey: string; address: string; mnemonic?: string };
  assert.equal([second.publicKey, second.address, second.mnemonic], [shown.publicKey, address, undefined]);
  assert.is(recorded(file('phrase2.key')).address, address);
  const sdkKey = fromWif((await CryptoApi.generateKeyPairFromSeedPhraseAndAddress(shown.mnemonic, address)).toWIF());
  assert.is(bytesToHex(publicKeyOf(sdkKey), true), shown.publicKey.replace(/^0x/, ''));

  // Text output: the phrase on stdout once, the warning on stderr.
  const text = await tpkit(['keygen', '--mnemonic', '--block', '5', '--group', '10', '--out', file('phrase3.key')]);
  assert.is(text.code, 0, text.err);
  assert.match(text.out, /^derived at  m\/44\/31337'\/0'\/10'\/5' \(given with --block\/--group\)$/m);
  assert.match(text.out, /^seed phrase (\w+ ){11}\w+$/m);
  assert.match(text.err, /They are the wallet/);
});

test('--import-mnemonic: a bad checksum word, 13 words, and a missing place each get their code', async () => {
  const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon';
  const bad = await tpkit(['keygen', '--import-mnemonic', '--block', '1', '--group', '1', '--out', file('m1.key')], { stdin: phrase });
  assert.is(bad.code, 1);
  assert.match(bad.err, /\[MNEMONIC_CHECKSUM\]/);
  assert.not.match(bad.err, /abandon/);
  const long = await tpkit(['keygen', '--import-mnemonic', '--block', '1', '--group', '1', '--out', file('m2.key')], { stdin: `${phrase} about` });
  assert.match(long.err, /has 13 words: .*\[MNEMONIC_LENGTH\]/);
  const nowhere = await tpkit(['keygen', '--import-mnemonic', '--out', file('m3.key')], { stdin: phrase });
  assert.is(nowhere.code, 2);
  assert.match(nowhere.err, /needs --address ADDR .* or --block N --group N/);
});

test('keygen --import --address: checked on the node when one is given, recorded unchecked with a note otherwise', async () => {
  const hex = `${bytesToHex(dev.key)}\n`;
  const checked = await tpkit(['keygen', '--import', '--address', dev.address, '--out', file('i1.key')], { stdin: hex });
  assert.is(checked.code, 0, checked.err);
  assert.is(recorded(file('i1.key')).address, dev.address);
  assert.is(recorded(file('i1.key')).node, node.url);
  const mismatch = await tpkit(['keygen', '--import', '--address', dev.address, '--out', file('i2.key')], { stdin: `${bytesToHex(generateSecretKey())}\n` });
  assert.is(mismatch.code, 1);
  assert.match(mismatch.err, /\[WALLET_KEY_MISMATCH\]/);
  assert.not.ok(existsSync(file('i2.key')));
  const unchecked = await tpkit(['keygen', '--import', '--address', dev.address, '--out', file('i3.key')], { stdin: hex, env: { TPKIT_NODE: '' } });
  assert.is(unchecked.code, 0, unchecked.err);
  assert.match(unchecked.err, /recorded without a check; pass --node URL/);
  assert.equal([recorded(file('i3.key')).address, recorded(file('i3.key')).node], [dev.address, undefined]);
});

test('an imported key with no address: keygen, send and balance say how to find or record it, never just "register"', async () => {
  const imported = await tpkit(['keygen', '--import', '--out', file('bare.key')], { stdin: `${bytesToHex(dev.key)}\n` });
  assert.is(imported.code, 0, imported.err);
  assert.match(imported.err, /no wallet address recorded: if this key already has a wallet, .*tpkit keygen --key .*bare\.key --address ADDRESS/);
  const send = await tpkit(['send', '--key', file('bare.key'), '--to', dev.address, '--amount', '1', '--currency', 'SK']);
  assert.is(send.code, 2);
  assert.match(send.err, /records no wallet address: if this key already has a wallet, pass --from ADDRESS/);
  assert.not.match(send.err, /register it first/);
  const balance = await tpkit(['balance', '--key', file('bare.key')]);
  assert.match(balance.err, /give the ADDRESS or record it once/);

  const wrongAddress = await tpkit(['keygen', '--key', file('phrase.key'), '--address', dev.address]);
  assert.is(wrongAddress.code, 2, 'phrase.key already records its own wallet');
  const record = await tpkit(['keygen', '--key', file('bare.key'), '--address', dev.address]);
  assert.is(record.code, 0, record.err);
  assert.match(record.out, /now records wallet .* \(checked on /);
  assert.is(recorded(file('bare.key')).address, dev.address);
  const after = await tpkit(['balance', '--key', file('bare.key'), '--json']);
  assert.is(after.code, 0, after.err);

  const noAddress = await tpkit(['keygen', '--import', '--out', file('bare2.key')], { stdin: `${bytesToHex(generateSecretKey())}\n` });
  assert.is(noAddress.code, 0);
  const stranger = await tpkit(['keygen', '--key', file('bare2.key'), '--address', dev.address]);
  assert.is(stranger.code, 1);
  assert.match(stranger.err, /\[WALLET_KEY_MISMATCH\]/);
  assert.is(recorded(file('bare2.key')).address, undefined);
  const exportless = await tpkit(['export', '--key', file('bare2.key'), '--out', file('bare2.export')]);
  assert.is(exportless.code, 2);
  assert.match(exportless.err, /records no wallet address, and the export needs one/);
});

test.run();
