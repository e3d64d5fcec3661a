// The playground as a newcomer uses it, in Chromium against nodes started here: the node's
// development accounts listed with a Use button; Send refusing, before anything is signed,
// an amount above the balance, a currency the wallet lacks, and (until confirmed) an address
// with no wallet; the form cleared after a send; a warning before a reload loses a key
// registered here; long key errors wrapped at desktop width and at 390 px; and a Node URL
// of another node explained (the node's page may talk to its own node only), never
// reported as a node that does not run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { addressToText } from '../../src/codec/address.js';
import { openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const WAIT = { timeout: 20_000 };
let session: BrowserSession;
let node: TestNode;
let other: TestNode;
let page: Page;
let pageErrors: string[] = [];

const text = async (id: string) => (await page.locator(`#${id}`).textContent()) ?? '';
const devAddress = (i: number) => addressToText(node.chain.accounts[i].address);

async function sendForm(to: string, amount: string, currency = 'SK') {
  await page.fill('#transfer-to', to);
  await page.fill('#transfer-amount', amount);
  await page.fill('#transfer-currency', currency);
  await page.click('#send');
}

async function transferError(): Promise<string> {
  await page.waitForSelector('#transfer-error:not([hidden])', WAIT);
  return text('transfer-error');
}

test.before(async () => {
  node = await startTestNode({ difficulty: 0, accounts: 2 });
  other = await startTestNode({ difficulty: 0 });
  session = await openBrowser();
  ({ page, errors: pageErrors } = await session.newPage(node.url + '/'));
  await page.waitForFunction(() => document.getElementById('node-dev-api')?.textContent?.startsWith('yes'), null, WAIT);
});

test.after(async () => {
  await session?.close();
  await node?.close();
  await other?.close();
});

test("the node's development accounts are listed; Use puts one into the Wallet fields, ready to send", async () => {
  await page.waitForSelector('#dev-accounts-panel:not([hidden])', WAIT);
  const listed = await page.$$eval('#dev-accounts button', (bs) => bs.map((b) => (b as HTMLButtonElement).dataset.address));
  assert.equal(listed, [devAddress(0), devAddress(1)]);
  await page.click(`#dev-accounts button[data-address="${devAddress(0)}"]`);
  await page.waitForFunction(() => document.getElementById('wallet-status')?.textContent?.includes('ready to send'), null, WAIT);
  assert.is(await page.inputValue('#address'), devAddress(0));
  assert.is(await page.inputValue('#secret-key'), Buffer.from(node.chain.accounts[0].secretKey).toString('hex'));
});

test('Send refuses, before signing, more than the balance and a currency the wallet lacks', async () => {
  const pending = node.chain.mempool.size;
  const seq = (await node.get(`/api/address/${devAddress(0)}`)).body.info.seq;
  await sendForm(devAddress(1), '1000000000000000000');
  assert.match(await transferError(), /^Nothing was sent: 1,000,000,000,000,000,000 SK is more than wallet AA\d{18} holds \([\d,]+ SK\)/);
  await sendForm(devAddress(1), '5', 'XYZ');
  assert.match(await transferError(), /^Nothing was sent: wallet AA\d{18} holds no XYZ\. It holds [\d,]+ SK: check the currency\./);
  assert.is(await page.locator('#transfers li').count(), 0, 'no transfer was started');
  assert.is(node.chain.mempool.size, pending);
  assert.is((await node.get(`/api/address/${devAddress(0)}`)).body.info.seq, seq, 'nothing was signed and sent');
});

test('an address with no wallet needs the explicit confirmation; after a send the form is empty again', async () => {
  const fresh = 'AA100000001677736914';
  await sendForm(fresh, '7');
  assert.match(await transferError(), new RegExp(`^Nothing was sent: ${fresh} has no wallet on this node\\. .*tick "Create a new wallet at this address"`));
  assert.ok(await page.isVisible('#transfer-create'));
  assert.is((await node.get(`/api/address/${fresh}`)).status, 404);
  await page.check('#transfer-create');
  await page.click('#send');
  await page.waitForSelector('#transfers li:is([data-state="included"], [data-state="failed"])', WAIT);
  assert.is(await page.locator('#transfers li').first().getAttribute('data-state'), 'included');
  assert.equal((await node.get(`/api/address/${fresh}`)).body.info.amount, { SK: 7 });
  for (const id of ['transfer-to', 'transfer-amount', 'transfer-message']) assert.is(await page.inputValue(`#${id}`), '', `#${id} is cleared`);
  assert.is(await page.inputValue('#transfer-currency'), 'SK', 'the currency stays');
  assert.not.ok(await page.isVisible('#transfer-create'), 'the confirmation belonged to that address');
  // Chromium logs the two 404 answers (the recipient looked up) itself.
  assert.equal(
    pageErrors.splice(0).filter((e) => !/status of 404/.test(e)),
    [],
  );
});

/** Whether the page asks before it unloads, as the browser sees its beforeunload handlers. */
const asksBeforeUnload = () => page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })));

test('a reload asks first once a wallet is registered in the page, and not before', async () => {
  assert.is(await asksBeforeUnload(), false, 'a development account and keys pasted in are not lost');
  await page.click('#generate-key');
  await page.click('#register');
  await page.waitForFunction(() => /registered/i.test(document.getElementById('wallet-status')?.textContent ?? ''), null, WAIT);
  assert.is(await asksBeforeUnload(), true);
});

test('a long key error wraps inside the page, on a desktop and at 390 px', async () => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    // a valid key that is not this wallet's: the error quotes the wallet's 66-digit public key
    await page.fill('#secret-key', '11'.repeat(32));
    await page.fill('#address', devAddress(1));
    await page.click('#load-wallet');
    await page.waitForSelector('#wallet-error:not([hidden])', WAIT);
    assert.match(await text('wallet-error'), /public key is [0-9A-Fa-f]{66}/);
    const box = await page.evaluate(() => {
      const error = document.getElementById('wallet-error')!;
      return { scroll: error.scrollWidth, client: error.clientWidth, page: document.documentElement.scrollWidth, view: window.innerWidth };
    });
    assert.ok(box.scroll <= box.client, `${width} px: the error is ${box.scroll} px wide in a ${box.client} px box`);
    assert.ok(box.page <= box.view, `${width} px: the page scrolls sideways (${box.page} > ${box.view})`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("another node's URL: the page says it may talk to its own node only and links that node's playground", async () => {
  const p = await session.browser.newPage();
  try {
    await p.goto(`${node.url}/?node=${encodeURIComponent(other.url)}`);
    await p.waitForSelector('#node-error:not([hidden])', WAIT);
    const error = (await p.locator('#node-error').textContent()) ?? '';
    assert.match(error, new RegExp(`^This page cannot talk to ${other.url}: it was served by ${node.url}, whose security policy`));
    assert.not.match(error, /check that the node runs|unreachable/i);
    assert.is(await p.getAttribute('#node-elsewhere', 'href'), `${other.url}/`);
    // the link leads to a playground that connects to that node
    await p.click('#node-elsewhere');
    await p.waitForFunction(() => document.getElementById('node-chain')?.textContent !== '', null, WAIT);
    assert.is(new URL(p.url()).origin, other.url);
    assert.ok(await p.isHidden('#node-error'));
  } finally {
    await p.close();
  }
});

test.run();
