// The playground's "Keys from the official wallets" section in real Chromium, with the
// official SDK (unchanged) on the other side: a seed phrase gives the SDK's key (for an
// address, and for the node's allocation block); an SDK export file is imported, a wrong
// passphrase is said in words; the key in the fields downloads as a file the SDK opens.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { isValidMnemonic } from '../../src/keys/mnemonic.js';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { fromWif, toWif } from '../helpers/tssdk-helpers.js';

interface SdkWalletExport {
  getExportData(wif: string, address: string, password: string, hint?: string): string;
  parseExportData(data: string, password: string): Promise<{ address: string; wif: string }>;
}
interface SdkCrypto {
  generateSeedPhrase(): string;
  generateKeyPairFromSeedPhrase(phrase: string, block: number, group: number): Promise<{ toWIF(): string }>;
  generateKeyPairFromSeedPhraseAndAddress(phrase: string, address: string): Promise<{ toWIF(): string }>;
}
const sdkRequire = createRequire(import.meta.url);
const { CryptoApi, WalletApi } = sdkRequire('@thepowereco/tssdk') as { CryptoApi: SdkCrypto; WalletApi: new (network: unknown) => SdkWalletExport };
const sdkWallet = new WalletApi({});

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const WAIT = { timeout: 20_000 };
let session: BrowserSession;
let node: TestNode;
let page: Page;
let pageErrors: string[] = [];

const text = async (id: string) => (await page.locator(`#${id}`).textContent()) ?? '';
const waitStatus = (id: string) =>
  page.waitForFunction((ids) => ids.some((i) => (document.getElementById(i)?.textContent ?? '') !== '' && !document.getElementById(i)!.hidden), [id, 'official-error'], WAIT);

const setup = browserSetup(async () => {
  for (const file of ['index.html', 'official-keys-panel.js', 'browser/tpkit.js']) {
    // The page's browser/ is dist/browser itself (the node serves it there; dist/web holds no copy).
    if (!existsSync(WEB_DIR + (file.startsWith('browser/') ? '../' : '') + file)) throw new Error(`dist/web/${file} is missing: run npm run build`);
  }
  node = await startTestNode({ difficulty: 12, accounts: 1 });
  session = await openBrowser();
  ({ page, errors: pageErrors } = await session.newPage(node.url + '/'));
  await page.waitForFunction(() => document.body.dataset.ready === 'true' && document.getElementById('node-difficulty')?.textContent === '12', null, WAIT);
});
test.before(setup.before);
test.before.each(setup.check);
test.after(async () => {
  await session?.close();
  await node?.close();
});

test("a seed phrase with its address gives the SDK's key and fills the wallet fields", async () => {
  const phrase = CryptoApi.generateSeedPhrase();
  const address = 'AA100000001677721780';
  await page.fill('#mnemonic', phrase.toUpperCase());
  await page.fill('#mnemonic-address', address);
  await page.click('#mnemonic-import');
  await waitStatus('official-status');
  assert.match(await text('official-status'), /^Key derived at m\/44\/31337'\/0'\/10'\/1' for wallet AA100000001677721780/, await text('official-error'));
  const sdkKey = fromWif((await CryptoApi.generateKeyPairFromSeedPhraseAndAddress(phrase, address)).toWIF());
  assert.is(await page.inputValue('#secret-key'), bytesToHex(sdkKey));
  assert.is(await page.inputValue('#address'), address);
  assert.is(await text('public-key'), bytesToHex(publicKeyOf(sdkKey), true), 'the wallet panel saw the new key');
  assert.is(await page.inputValue('#mnemonic'), '', 'the phrase does not stay on the page');
});

test("a seed phrase without an address gives the key for the node's allocation block; a wrong word is said", async () => {
  await page.fill('#mnemonic-address', '');
  const phrase = CryptoApi.generateSeedPhrase();
  await page.fill('#mnemonic', phrase);
  await page.evaluate(() => (document.getElementById('official-status')!.textContent = ''));
  await page.click('#mnemonic-import');
  await waitStatus('official-status');
  const alloc = (await node.get('/api/settings')).body.settings.current.allocblock as { block: number; group: number };
  const sdkKey = fromWif((await CryptoApi.generateKeyPairFromSeedPhrase(phrase, alloc.block, alloc.group)).toWIF());
  assert.is(await page.inputValue('#secret-key'), bytesToHex(sdkKey), await text('official-error'));
  assert.is(await page.inputValue('#address'), '');
  assert.match(await text('official-status'), /allocation block, for a new wallet: press Register/);

  const words = phrase.split(' ');
  // A last word from the list that breaks the checksum (15 of 16 do; any one may not).
  const wrong = wordlist.find((w) => !isValidMnemonic([...words.slice(0, 11), w].join(' ')))!;
  await page.fill('#mnemonic', [...words.slice(0, 11), wrong].join(' '));
  await page.click('#mnemonic-import');
  await page.waitForSelector('#official-error:not([hidden])', WAIT);
  assert.match(await text('official-error'), /checksum does not match.*compare with the written phrase/);
});

test('an SDK export file imports with its passphrase; a wrong one is said in words', async () => {
  const dev = node.chain.accounts[0];
  const address = addressToText(dev.address);
  const file = sdkWallet.getExportData(toWif(dev.secretKey), address, 'sdk passphrase', 'the usual one');
  await page.setInputFiles('#export-file', { name: 'wallet.pem', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await page.fill('#export-passphrase', 'not it');
  await page.click('#export-import');
  await page.waitForFunction(() => /passphrase/.test(document.getElementById('official-error')?.textContent ?? ''), null, WAIT);
  assert.match(await text('official-error'), /does not open the wallet export file.*Type the passphrase you chose/);

  await page.fill('#export-passphrase', 'sdk passphrase');
  await page.click('#export-import');
  await page.waitForFunction(() => /^Imported wallet/.test(document.getElementById('official-status')?.textContent ?? ''), null, WAIT);
  assert.is(await page.inputValue('#secret-key'), bytesToHex(dev.secretKey));
  assert.is(await page.inputValue('#address'), address);
  assert.match(await text('official-status'), /its hint: "the usual one"/);
  // The session's wallet list keeps it, with its address, beside the keys imported before.
  const listed = await page.$$eval('#wallet-list option', (options) => options.map((o) => o.textContent ?? ''));
  assert.ok(listed.includes(`${address} (imported)`), listed.join(' | '));
  assert.is(listed.length, 3, listed.join(' | '));
  assert.ok(await page.isHidden('#official-error'));
  // The imported wallet loads and can send: its key is the one the node records.
  await page.click('#load-wallet');
  await page.waitForFunction(() => /ready to send/.test(document.getElementById('wallet-status')?.textContent ?? ''), null, WAIT);
});

test('the key in the fields downloads as an official export file the SDK opens', async () => {
  const address = await page.inputValue('#address');
  const secretKey = hexToBytes(await page.inputValue('#secret-key'));
  await page.fill('#new-export-passphrase', 'short');
  await page.click('#export-download');
  await page.waitForFunction(() => /at least 12 characters/.test(document.getElementById('official-error')?.textContent ?? ''), null, WAIT);

  await page.fill('#new-export-passphrase', 'a long export passphrase');
  await page.fill('#new-export-hint', 'from the playground');
  const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#export-download')]);
  assert.is(download.suggestedFilename(), `thepower-wallet-${address}.pem`);
  const saved = readFileSync((await download.path())!, 'utf8');
  assert.is(saved.split('\n')[0], '{"version":2,"hint":"from the playground"}');
  assert.equal(await sdkWallet.parseExportData(saved, 'a long export passphrase'), { address, wif: toWif(secretKey) });
  assert.equal(pageErrors, []);
});

test.run();
