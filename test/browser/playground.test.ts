// The wallet playground (web/, served from dist/web by the node) in real Chromium against
// nodes started here: the page warms the miner at load and shows the node's difficulty and
// an expected time counting the measured start-up; a registration at difficulty 12 completes and the node holds the page's key
// at the address the page shows; Cancel on a difficulty-40 node stops every worker (each
// request to a worker is answered and the shared hash counters stop) and sends nothing; a transfer from a development account
// goes pending -> included with exact balances on the node; the benchmark draws one bar per
// worker count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const WAIT = { timeout: 20_000 };

let session: BrowserSession;
let node: TestNode;
let page: Page;
let pageErrors: string[] = [];
let registered = '';

const text = async (p: Page, id: string) => (await p.locator(`#${id}`).textContent()) ?? '';
const count = async (p: Page, id: string) => Number((await text(p, id)).replace(/,/g, ''));

/**
 * Installed before the page's scripts: counts the miner's requests to its Web Workers and
 * their replies (one each), and keeps every search's shared hash counter, so a test sees
 * whether any worker still runs or hashes without measuring time or CPU.
 */
function watchMinerWorkers() {
  const w = window as unknown as { __miner: { posted: number; replied: number; counters: BigInt64Array[] } };
  w.__miner = { posted: 0, replied: 0, counters: [] };
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.addEventListener('message', () => w.__miner.replied++);
    }
    override postMessage(message: any, transfer?: any) {
      w.__miner.posted++;
      const counter = message?.task?.counter;
      if (counter instanceof SharedArrayBuffer) w.__miner.counters.push(new BigInt64Array(counter));
      return super.postMessage(message, transfer);
    }
  } as typeof Worker;
}

/** Requests the miner's workers have not answered, and every hash they have counted. */
const minerActivity = (p: Page) =>
  p.evaluate(() => {
    const m = (window as unknown as { __miner: { posted: number; replied: number; counters: BigInt64Array[] } }).__miner;
    return { inFlight: m.posted - m.replied, hashes: String(m.counters.reduce((sum, c) => sum + Atomics.load(c, 0), 0n)) };
  });

test.before(async () => {
  for (const file of ['index.html', 'app.js', 'browser/tpkit.js', 'browser/miner-worker.js']) {
    // The page's browser/ is dist/browser itself (the node serves it there; dist/web holds no copy).
    if (!existsSync(WEB_DIR + (file.startsWith('browser/') ? '../' : '') + file)) throw new Error(`dist/web/${file} is missing: run npm run build (scripts/build-web.mjs writes dist/web)`);
  }
  node = await startTestNode({ difficulty: 12 });
  session = await openBrowser();
  ({ page, errors: pageErrors } = await session.newPage(node.url + '/'));
});

test.after(async () => {
  await session?.close();
  await node?.close();
});

test('the page warms the miner at load and shows the node, its difficulty and an expected time with the measured start-up', async () => {
  await page.waitForFunction(() => document.getElementById('estimate')?.textContent?.includes('median'), null, WAIT);
  assert.is(await text(page, 'node-difficulty'), '12');
  assert.match(await text(page, 'node-chain'), /^1 \(tpkit\)$/);
  assert.match(await text(page, 'node-fees'), /^SK: base 1/);
  const estimate = await text(page, 'estimate');
  assert.match(
    estimate,
    /^Registration at difficulty 12: [\d.]+ (ms|s) \(median; start-up paid at page load \([\d.]+ (ms|s), measured\) \+ [\d.]+ (ms|s) hashing\), at most [\d.]+ (ms|s) 95 times in 100, at [\d.]+ [kMG]?H\/s: \d+ workers? after warming up, [\d.]+ [kMG]?H\/s each \((hybrid|simd|scalar|memsched|js) kernel\)\.$/,
  );
  // one rate: the total and the per-worker figure are the same measurement
  const [total, each] = [...estimate.matchAll(/([\d.]+) ([kMG]?)H\/s/g)].map((m) => Number(m[1]) * ({ '': 1, k: 1e3, M: 1e6, G: 1e9 } as Record<string, number>)[m[2]]);
  const workers = Number(/(\d+) workers? after/.exec(estimate)![1]);
  assert.ok(Math.abs(total / workers - each) / each < 0.01, `${total} / ${workers} = ${each}`);
  assert.match(await text(page, 'isolation'), /cross-origin isolated: Cancel reaches every worker/);
  // What this browser offers the miner, from minerSupport(): everything here, and the expected time at the node's difficulty.
  await page.waitForFunction(() => document.getElementById('miner-support')?.dataset.ready === 'true', null, WAIT);
  const support = await text(page, 'miner-support');
  assert.match(support, /WebAssemblyyes/);
  assert.match(support, /SIMDpresent, and its known answers are right/);
  assert.match(support, /Workers\d+ running/);
  assert.match(support, /Shared memoryyes/);
  assert.match(support, /Expecteddifficulty 12 on \d+ threads? at [\d.]+ [kMG]?H\/s/);
  // an untouched form shows no field as wrong, though its required fields are empty
  const errorBorder = await page.evaluate(() => {
    const probe = document.createElement('input');
    probe.required = true;
    probe.dataset.touched = 'true';
    document.body.append(probe);
    const color = getComputedStyle(probe).borderColor;
    probe.remove();
    return color;
  });
  const borders = await page.$$eval('input', (inputs) => inputs.map((i) => `${i.id} ${getComputedStyle(i).borderColor}`));
  assert.equal(
    borders.filter((b) => b.endsWith(errorBorder)),
    [],
    'no red border before the user touched a field',
  );
});

test('the height follows the node live, from its /api/ws stream, without a reconnect', async () => {
  await page.waitForSelector('#node-height[data-live]', WAIT);
  const before = node.chain.height;
  await node.chain.mineBlock();
  await node.chain.mineBlock();
  await page.waitForFunction((h) => document.getElementById('node-height')?.textContent === String(h), before + 2, WAIT);
  assert.is(await page.getAttribute('#node-height', 'data-live'), 'true');
});

test('generate a key and register at difficulty 12: the address appears and the node holds the key there', async () => {
  await page.click('#generate-key');
  const secretKey = await page.inputValue('#secret-key');
  assert.match(secretKey, /^[0-9a-f]{64}$/);
  const publicKey = bytesToHex(publicKeyOf(hexToBytes(secretKey)), true);
  assert.is(await text(page, 'public-key'), publicKey);
  await page.click('#register');
  await page.waitForFunction(() => document.getElementById('mining')?.dataset.state !== 'running', null, WAIT);
  assert.is(await page.getAttribute('#mining', 'data-state'), 'done', await text(page, 'wallet-error'));
  assert.is(await page.$eval('#mine-bar', (bar) => (bar as HTMLProgressElement).value), 1);
  assert.ok((await count(page, 'mine-hashes')) > 0, 'hashes tried shown');
  assert.ok(await page.isHidden('#mining'), 'the mining panel closes once the registration is done');

  registered = await page.inputValue('#address');
  assert.match(registered, /^AA\d{18}$/);
  assert.match(await text(page, 'wallet-status'), new RegExp(`^Registered ${registered} in block [0-9A-F]{8}…`));
  assert.is(await text(page, 'wallet-address'), registered);
  // the page now offers the wallet it made, and says how to make another
  assert.ok(await page.isHidden('#register'));
  assert.ok(await page.isVisible('#load-wallet'));
  assert.match(await text(page, 'address-hint'), /Load wallet shows its balance.*Clear the field to register another wallet/);
  const onNode = await node.get(`/api/address/${registered}`);
  assert.is(onNode.status, 200);
  assert.is(onNode.body.info.pubkey, publicKey, 'the node holds the page key at the address the page shows');
  // the estimate now counts the start-up this registration measured
  await page.waitForFunction(() => document.getElementById('estimate')?.textContent?.includes('measured on the last registration'), null, WAIT);
  assert.match(await text(page, 'estimate'), /: [\d.]+ (ms|s) \(median; [\d.]+ (ms|s) start-up, measured on the last registration, \+ [\d.]+ (ms|s) hashing\)/);
});

test('a transfer from a development account goes pending -> included; the node has the exact balances', async () => {
  const dev = node.chain.accounts[0];
  const from = addressToText(dev.address);
  const before = BigInt((await node.get(`/api/address/${from}`)).body.info.amount.SK);
  await page.fill('#secret-key', bytesToHex(dev.secretKey));
  await page.fill('#address', from);
  await page.click('#load-wallet');
  await page.waitForFunction(() => document.getElementById('wallet-status')?.textContent?.includes('ready to send'), null, WAIT);

  await page.fill('#transfer-to', registered);
  await page.fill('#transfer-amount', '12345');
  await page.click('#send');
  await page.waitForSelector('#transfers li:is([data-state="included"], [data-state="failed"])', WAIT);
  const item = page.locator('#transfers li').first();
  assert.is(await item.getAttribute('data-state'), 'included', (await item.textContent()) ?? '');
  assert.is(await item.getAttribute('data-history'), 'preparing submitting pending included');
  const shown = (await item.textContent()) ?? '';
  const fee = BigInt(/fee (\d+) SK/.exec(shown)?.[1] ?? '0');
  assert.ok(fee > 0n, `the page shows the fee: ${shown}`);

  assert.equal((await node.get(`/api/address/${registered}`)).body.info.amount, { SK: 12345 });
  const after = BigInt((await node.get(`/api/address/${from}`)).body.info.amount.SK);
  assert.is(after, before - 12345n - fee);
  await page.waitForSelector(`#balance-rows tr[data-currency="SK"] td[data-amount="${after}"]`, WAIT);
  assert.equal(pageErrors, [], 'no script error or failed request so far');
});

test('every key stays in the wallet list: choosing the registered one brings back its key; Fund from faucet credits it', async () => {
  const dev = addressToText(node.chain.accounts[0].address);
  const listed = () => page.$$eval('#wallet-list option', (os) => (os as HTMLOptionElement[]).map((o) => ({ value: o.value, text: o.textContent ?? '', address: o.dataset.address })));
  const options = await listed();
  // the key generated and registered here, and the development account loaded after it
  const mine = options.find((o) => o.address === registered);
  assert.ok(mine && /registered here/.test(mine.text), JSON.stringify(options));
  assert.ok(
    options.some((o) => o.address === dev && /imported/.test(o.text)),
    JSON.stringify(options),
  );
  assert.match(await text(page, 'wallet-count'), /^\d+$/);
  await page.selectOption('#wallet-list', mine!.value);
  await page.waitForFunction((a) => document.getElementById('wallet-address')?.textContent === a && document.getElementById('wallet-status')?.textContent?.includes('ready to send'), registered, WAIT);
  assert.is(bytesToHex(publicKeyOf(hexToBytes(await page.inputValue('#secret-key'))), true), mine!.value, 'its own secret key is back in the field');
  assert.is(await page.inputValue('#address'), registered);

  // this node has the development API, so the faucet is offered and credits the wallet shown
  assert.is(await text(page, 'node-dev-api'), 'yes: faucet and development accounts');
  assert.ok(await page.isVisible('#faucet'));
  const before = BigInt((await node.get(`/api/address/${registered}`)).body.info.amount.SK ?? 0);
  await page.click('#faucet');
  await page.waitForFunction(() => document.getElementById('wallet-status')?.textContent?.startsWith('The faucet credited'), null, WAIT);
  const after = BigInt((await node.get(`/api/address/${registered}`)).body.info.amount.SK);
  assert.is(after, before + 1_000_000n);
  await page.waitForSelector(`#balance-rows tr[data-currency="SK"] td[data-amount="${after}"]`, WAIT);

  // a new key joins the list; the others stay
  await page.click('#generate-key');
  const now = await listed();
  assert.is(now.length, options.length + 1);
  assert.ok(now.some((o) => o.address === registered) && now.some((o) => o.address === dev));
  // Export… takes the chosen wallet to the export form
  await page.selectOption('#wallet-list', mine!.value);
  await page.click('#wallet-export');
  await page.waitForFunction(() => document.activeElement?.id === 'new-export-passphrase', null, WAIT);
  assert.is(await page.inputValue('#address'), registered);
  assert.match(await text(page, 'official-status'), /press Download export file/);
});

test('Cancel on a difficulty-40 node stops every worker, the page says so, nothing reaches the node', async () => {
  const hard = await startTestNode({ difficulty: 40, devApi: false });
  const p = await session.browser.newPage();
  try {
    const errors: string[] = [];
    p.on('pageerror', (err) => errors.push(err.message));
    p.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await p.addInitScript(watchMinerWorkers);
    await p.goto(hard.url + '/');
    await p.waitForFunction(() => document.getElementById('node-difficulty')?.textContent === '40', null, WAIT);
    // no development API on this node: the page says so and offers no faucet
    await p.waitForFunction(() => document.getElementById('node-dev-api')?.textContent === 'no', null, WAIT);
    await p.click('#generate-key');
    await p.click('#register');
    await p.waitForFunction(() => document.getElementById('mine-hashes')?.textContent !== '0', null, WAIT);
    const first = await count(p, 'mine-hashes');
    await p.waitForFunction((n) => Number(document.getElementById('mine-hashes')?.textContent?.replace(/,/g, '')) > n, first, WAIT);
    assert.match(await text(p, 'mine-rate'), /H\/s$/);
    assert.match(await text(p, 'mine-p95'), /(h|min|days|years)$/);
    const mining = await minerActivity(p);
    assert.ok(mining.inFlight > 0 && BigInt(mining.hashes) > 0n, `workers are searching: ${JSON.stringify(mining)}`);

    await p.click('#cancel');
    await p.waitForFunction(() => document.getElementById('mining')?.dataset.state !== 'running', null, WAIT);
    assert.is(await p.getAttribute('#mining', 'data-state'), 'cancelled');
    const status = await text(p, 'wallet-status');
    assert.match(status, /^Cancelled after [\d,]+ hashes: every worker stopped [\d.]+ ms after Cancel\. Nothing was sent/);
    // Every request the miner made has been answered: no worker holds a search.
    await p.waitForFunction(
      () => {
        const m = (window as unknown as { __miner: { posted: number; replied: number } }).__miner;
        return m.posted === m.replied;
      },
      null,
      WAIT,
    );
    const stopped = await minerActivity(p);
    const frozen = await text(p, 'mine-hashes');
    await p.waitForTimeout(1000);
    assert.equal(await minerActivity(p), stopped, 'no worker hashes after Cancel');
    assert.is(await text(p, 'mine-hashes'), frozen, 'the progress no longer changes');
    console.log(`  cancel: ${status.split(':')[1].trim()}`);

    const node40 = (await hard.get('/api/node/status')).body.status;
    assert.is(node40.pending, 0);
    assert.is(node40.blockchain.header.height, 1, 'only the start-up block, so no registration');
    // Chromium logs the refused /api/dev/accounts probe (403 DEV_API_DISABLED) itself; nothing else went wrong.
    assert.equal(errors, ['Failed to load resource: the server responded with a status of 403 (Forbidden)']);
  } finally {
    await p.close();
    await hard.close();
  }
});

test('errors are shown in words: what is wrong and what to do', async () => {
  const shownError = async () => {
    await page.waitForSelector('#wallet-error:not([hidden])', WAIT);
    return text(page, 'wallet-error');
  };
  await page.fill('#address', 'AA100000001677722413');
  await page.click('#load-wallet');
  assert.is(
    await shownError(),
    'Address: Address checksum does not match: "AA100000001677722413" ends in 13, the checksum is 12. A character of the address is wrong. Copy it again from the wallet that owns it.',
  );
  // the error goes as soon as the user types in the form again
  await page.type('#address', ' ');
  assert.ok(await page.isHidden('#wallet-error'), 'typing clears the error');
  await page.fill('#address', 'AA100000001677722412');
  await page.click('#load-wallet');
  await page.waitForFunction(() => document.getElementById('wallet-error')?.textContent?.includes('No wallet'), null, WAIT);
  assert.match(
    await text(page, 'wallet-error'),
    /^Node refused GET \/api\/address\/AA100000001677722412: HTTP 404 .*No wallet has this address on this node\. Check the address, or clear the Address field and press Register/,
  );
  // an amount no wallet can hold is refused in words, before anything is signed
  await page.fill('#transfer-to', registered);
  await page.fill('#transfer-amount', '18446744073709551616');
  await page.click('#send');
  await page.waitForSelector('#transfer-error:not([hidden])', WAIT);
  const amountError = await text(page, 'transfer-error');
  assert.match(amountError, /^Amount: 18446744073709551616 is more than any wallet can hold/);
  assert.not.match(amountError, /p\[0\]|\.amount|"/);
  await page.type('#transfer-amount', '0');
  assert.ok(await page.isHidden('#transfer-error'), 'typing clears the error');
  // no wallet in the fields: the page says to load or register one
  await page.fill('#address', '');
  await page.fill('#secret-key', '');
  await page.fill('#transfer-amount', '5');
  await page.click('#send');
  await page.waitForSelector('#transfer-error:not([hidden])', WAIT);
  assert.match(await text(page, 'transfer-error'), /^No wallet to send from: load or register a wallet first/);
  // Chromium logs the 404 answer itself; nothing else went wrong.
  assert.equal(pageErrors.splice(0), ['Failed to load resource: the server responded with a status of 404 (Not Found)']);
});

test('the benchmark draws one bar per worker count', async () => {
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.click('#bench-run');
  await page.waitForFunction(() => document.getElementById('bench-figure')?.dataset.complete === 'true' || !document.getElementById('bench-error')?.hidden, null, { timeout: 30_000 });
  assert.is(await text(page, 'bench-error'), '');
  const rows = await page.$$eval('#bench-rows tr', (trs) => trs.map((tr) => ({ workers: Number(tr.getAttribute('data-workers')), rate: Number(tr.getAttribute('data-rate')) })));
  assert.equal(
    rows.map((r) => r.workers),
    Array.from({ length: workers }, (_, i) => i + 1),
  );
  const bars = await page.$$eval('#bench-chart svg rect.bar', (rects) => rects.map((r) => Number(r.getAttribute('data-value'))));
  assert.is(bars.length, workers);
  for (const [i, r] of rows.entries()) {
    assert.ok(r.rate > 0, `${r.workers} workers: ${r.rate} H/s`);
    assert.is(Math.round(bars[i]), r.rate, 'the bar shows the table figure');
    console.log(`  benchmark in Chromium: ${r.workers} worker${r.workers === 1 ? '' : 's'} ${(r.rate / 1e6).toFixed(2)} MH/s (${(r.rate / r.workers / 1e6).toFixed(2)} per worker)`);
  }
  // every figure from one source: the rate is now the benchmark's, and the per-worker one it shared out
  const all = rows[rows.length - 1];
  assert.match(await text(page, 'estimate'), new RegExp(`at [\\d.]+ [kMG]?H/s: ${all.workers} workers? as the benchmark measured, [\\d.]+ [kMG]?H/s each`));
  assert.equal(pageErrors, []);
});

test.run();
