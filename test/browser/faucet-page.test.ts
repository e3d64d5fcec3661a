// The faucet page (web/faucet.html) in real Chromium on the node's own origin, under the
// node's Content-Security-Policy: it fills in the address a wallet's link passes, funds the
// wallet through the development faucet with the SDK's gas reserve covered, and says why it
// cannot when the node refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const WAIT = { timeout: 20_000 };
/** The official SDK's gas reserve on a contract call (TransactionsApi.autoAddGas), in units. */
const SDK_GAS_RESERVE = 2_000_000_000_000_000_000n;

let session: BrowserSession;
let node: TestNode;
const fresh = addressToText(makeAddress({ group: 10, block: 1, wallet: 4242 }));

const setup = browserSetup(async () => {
  for (const file of ['faucet.html', 'faucet.js', 'browser/tpkit.js']) {
    // The page's browser/ is dist/browser itself (the node serves it there; dist/web holds no copy).
    if (!existsSync(WEB_DIR + (file.startsWith('browser/') ? '../' : '') + file)) throw new Error(`dist/web/${file} is missing: run npm run build`);
  }
  node = await startTestNode({ accounts: 1 });
  session = await openBrowser();
});
test.before(setup.before);
test.before.each(setup.check);

test.after(async () => {
  await session?.close();
  await node?.close();
});

const text = async (p: Page, id: string) => (await p.locator(`#${id}`).textContent()) ?? '';

test("GET /faucet.html is served with the node's Content-Security-Policy", async () => {
  const res = await fetch(`${node.url}/faucet.html`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-security-policy') ?? '', "script-src 'self'");
  assert.match(await res.text(), '<script type="module" src="./faucet.js">');
});

test('?address= fills the form; the default amount covers the SDK gas reserve; Fund credits the wallet on the node', async () => {
  const { page, errors } = await session.newPage(`${node.url}/faucet.html?address=${fresh}`);
  await page.waitForFunction(() => (document.getElementById('faucet-amount') as HTMLInputElement).value !== '', null, WAIT);
  assert.is(await page.inputValue('#faucet-address'), fresh);
  const amount = BigInt(await page.inputValue('#faucet-amount'));
  assert.ok(amount >= SDK_GAS_RESERVE, `${amount} covers ${SDK_GAS_RESERVE}`);
  await page.click('#faucet-send');
  await page.waitForFunction(() => document.getElementById('faucet-status')?.classList.contains('ok'), null, WAIT);
  assert.match(await text(page, 'faucet-status'), new RegExp(`^Credited ${amount} SK to ${fresh} in block \\d+; it holds ${amount} SK\\.$`));
  assert.is((await node.get(`/api/address/${fresh}`)).body.info.amount.SK, Number(amount));
  assert.equal(errors, []);
});

test("a wallet's link names the address in its hash or as ?wallet=: the field is filled", async () => {
  for (const link of [`#${fresh}`, `#address=${fresh}`, `?wallet=${fresh}`]) {
    const { page, errors } = await session.newPage(`${node.url}/faucet.html${link}`);
    await page.waitForFunction(() => (document.getElementById('faucet-amount') as HTMLInputElement).value !== '', null, WAIT);
    assert.is(await page.inputValue('#faucet-address'), fresh, link);
    assert.equal(errors, []);
    await page.close();
  }
});

test('a bad address or amount is explained on the page, and nothing is credited', async () => {
  const { page } = await session.newPage(`${node.url}/faucet.html`);
  await page.waitForFunction(() => (document.getElementById('faucet-amount') as HTMLInputElement).value !== '', null, WAIT);
  const height = node.chain.height;
  await page.fill('#faucet-address', 'AA100000001677721781');
  await page.click('#faucet-send');
  await page.waitForSelector('#faucet-error:not([hidden])', WAIT);
  assert.match(await text(page, 'faucet-error'), /address/i);
  await page.fill('#faucet-address', fresh);
  await page.fill('#faucet-amount', '1.5');
  await page.click('#faucet-send');
  await page.waitForFunction(() => document.getElementById('faucet-error')?.textContent?.includes('whole number'), null, WAIT);
  assert.is(node.chain.height, height, 'no block was made');
});

test.run();
