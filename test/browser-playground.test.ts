// The wallet playground in real Chromium against nodes started here: it shows the node and
// an expected time, registers at difficulty 12, cancels a hopeless registration with every
// worker stopped, sends a transfer that reaches `included`, and charts the benchmark.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { bytesToHex } from '../src/bytes.js';
import { addressToText } from '../src/codec/address.js';
import { openBrowser, type BrowserSession } from './browser-harness.js';
import { startTestNode, type TestNode } from './node-helpers.js';

let node: TestNode;
let session: BrowserSession;
let page: Page;
let registered = '';

test.before(async () => {
  node = await startTestNode({ difficulty: 12, accounts: 1, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } } });
  session = await openBrowser();
  const opened = await session.newPage(node.url + '/');
  page = opened.page;
});

test.after(async () => {
  await session?.close();
  await node?.close();
});

const text = (id: string) => page.locator(`#${id}`).innerText();

test('the page connects to its node: difficulty, fees and an expected time from calibration', async () => {
  await page.waitForFunction(() => document.getElementById('node-difficulty')?.textContent?.includes('12'), null, { timeout: 10_000 });
  await page.waitForFunction(() => /\d/.test(document.getElementById('estimate')?.textContent ?? ''), null, { timeout: 10_000 });
  assert.match(await text('node-chain'), /1/);
  assert.match(await text('estimate'), /(ms|s)\b/);
  assert.is(await page.evaluate(() => crossOriginIsolated), true);
});

test('generate a key and register at difficulty 12: progress shows, the address appears and exists on the node', async () => {
  await page.click('#generate-key');
  assert.match(await page.inputValue('#secret-key'), /^[0-9a-fA-F]{64}$/);
  await page.click('#register');
  await page.waitForSelector('#mining[data-state="done"]', { timeout: 20_000 });
  registered = await page.inputValue('#address');
  assert.match(registered, /^AA\d{18}$/);
  assert.match(await text('wallet-status'), new RegExp(`Registered ${registered}`));
  assert.is.not(await text('mine-hashes'), '0');
  const onNode = await node.get(`/api/address/${registered}`);
  assert.is(onNode.status, 200);
  assert.is(onNode.body.txtaddress, registered);
});

test('a transfer from the development account goes pending -> included and the balance is right on the node', async () => {
  const dev = node.chain.accounts[0];
  await page.fill('#secret-key', bytesToHex(dev.secretKey));
  await page.fill('#address', addressToText(dev.address));
  await page.click('#load-wallet');
  await page.fill('#transfer-to', registered);
  await page.fill('#transfer-amount', '5000');
  await page.fill('#transfer-currency', 'SK');
  await page.click('#send');
  const item = page.locator('#transfers li').first();
  await page.waitForSelector('#transfers li[data-state="included"]', { timeout: 15_000 });
  const history = (await item.getAttribute('data-history')) ?? '';
  assert.match(history, /pending included$/);
  assert.match(await item.innerText(), /included/);
  const onNode = await node.get(`/api/address/${registered}`);
  assert.is(BigInt(onNode.body.info.amount.SK), 5000n);
});

test('Cancel stops every worker: progress freezes, the page says so, nothing reaches the node', async () => {
  const hard = await startTestNode({ difficulty: 40 });
  try {
    const { page: p } = await session.newPage(hard.url + '/');
    await p.waitForFunction(() => document.getElementById('node-difficulty')?.textContent?.includes('40'), null, { timeout: 10_000 });
    await p.click('#generate-key');
    await p.click('#register');
    await p.waitForFunction(() => Number((document.getElementById('mine-hashes')?.textContent ?? '0').replace(/[^\d.]/g, '')) > 0, null, { timeout: 10_000 });
    await p.click('#cancel');
    await p.waitForSelector('#mining[data-state="cancelled"]', { timeout: 5000 });
    assert.match(await p.locator('#wallet-status').innerText(), /Cancelled/);
    const before = await p.locator('#mine-hashes').innerText();
    await p.waitForTimeout(600);
    assert.is(await p.locator('#mine-hashes').innerText(), before, 'no progress after Cancel');
    const status = await hard.get('/api/node/status');
    assert.is(status.body.status.blockchain.header.height, 0);
    assert.is(status.body.status.pending, 0);
  } finally {
    await hard.close();
  }
});

test('the benchmark charts one bar per worker count (rates printed)', async () => {
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.click('#bench-run');
  await page.waitForFunction((n) => document.querySelectorAll('#bench-rows tr').length === n && !(document.getElementById('bench-run') as HTMLButtonElement).disabled, workers, { timeout: 30_000 });
  const rows = await page.$$eval('#bench-rows tr', (trs) => trs.map((tr) => ({ workers: Number(tr.getAttribute('data-workers')), rate: Number(tr.getAttribute('data-rate')) })));
  assert.is(rows.length, workers);
  assert.ok(await page.locator('#bench-chart svg, #bench-chart rect').count() > 0, 'a chart is drawn');
  for (const r of rows) {
    assert.ok(r.rate > 0);
    console.log(`  playground benchmark: ${r.workers} worker(s) ${(r.rate / 1e6).toFixed(2)} MH/s, ${(r.rate / r.workers / 1e6).toFixed(2)} MH/s per worker`);
  }
});

test.run();
