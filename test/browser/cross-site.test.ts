// A web page the developer happens to open while the node runs, in real Chromium. The page
// lives on another origin (http://attacker.test, a second server on another loopback port),
// and a second name, rebind.test, plays DNS rebinding: Chromium's --host-resolver-rules maps
// both to 127.0.0.1. From there it tries fetch (JSON, text/plain, no-cors), HTML forms and
// WebSockets against the node, by IP and by name; a page at http://rebind.test:PORT tries the
// same as the node's "own" origin. Every attempt fails and nothing on the node changes, while
// the node's own playground (same origin) still registers a wallet and sends a transfer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { addressToText } from '../../src/codec/address.js';
import { bytesToHex } from '../../src/bytes.js';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { fee, pay, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

const WAIT = { timeout: 30_000 };
let session: BrowserSession;
let node: TestNode;
let attacker: http.Server;
let attackerUrl: string;
let port: string;

const setup = browserSetup(async () => {
  node = await startTestNode({ difficulty: 10, accounts: 2 });
  port = new URL(node.url).port;
  attacker = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>a page</title><iframe name="sink"></iframe>'));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://attacker.test:${(attacker.address() as AddressInfo).port}/`;
  session = await openBrowser(['--host-resolver-rules=MAP attacker.test 127.0.0.1, MAP rebind.test 127.0.0.1']);
});
test.before(setup.before);
test.before.each(setup.check);

test.after(async () => {
  await session?.close();
  await node?.close();
  await new Promise((resolve) => attacker?.close(resolve));
});

/** Everything an attempt could have changed on the node. */
async function fingerprint(): Promise<string> {
  await node.chain.settle();
  return JSON.stringify({
    height: node.chain.height,
    pending: node.chain.mempool.size,
    wallets: [...node.chain.wallets.entries()].map(([a, w]) => [a, w.seq.toString(), [...w.amount.entries()].map(([c, v]) => `${c}:${v}`)]),
  });
}

interface Attempt {
  what: string;
  outcome: string;
}

/** Runs every attack from `page` against `base`; each outcome says what the page could see. */
function attack(page: Page, base: string, tx: string, address: string): Promise<Attempt[]> {
  return page.evaluate(
    async ({ base, tx, address }) => {
      const out: { what: string; outcome: string }[] = [];
      const faucet = JSON.stringify({ address, amount: 777 });
      const tryFetch = async (what: string, path: string, init?: RequestInit) => {
        try {
          const res = await fetch(base + path, init);
          out.push({ what, outcome: res.type === 'opaque' ? 'opaque' : `read ${res.status} ${(await res.text()).slice(0, 300)}` });
        } catch (err) {
          out.push({ what, outcome: `blocked ${(err as Error).name}` });
        }
      };
      await tryFetch('GET accounts', '/api/dev/accounts');
      await tryFetch('GET accounts, no /api', '/dev/accounts');
      await tryFetch('POST faucet JSON', '/api/dev/faucet', { method: 'POST', headers: { 'content-type': 'application/json' }, body: faucet });
      await tryFetch('POST faucet text/plain', '/api/dev/faucet', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: faucet });
      await tryFetch('POST faucet text/plain no-cors', '/dev/faucet', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: faucet });
      await tryFetch('POST mine no-cors', '/api/dev/mine', { method: 'POST', mode: 'no-cors', body: '{}' });
      await tryFetch('POST tx/new text/plain no-cors', '/api/tx/new', { method: 'POST', mode: 'no-cors', body: JSON.stringify({ tx }) });
      await tryFetch('POST tx/new JSON', '/tx/new', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx }) });
      // HTML forms need no script permission at all: text/plain can spell JSON
      const submit = (what: string, action: string, enctype: string, name: string, value: string) =>
        new Promise<void>((resolve) => {
          const sink = document.querySelector('iframe[name=sink]') as HTMLIFrameElement | null;
          const frame = sink ?? Object.assign(document.body.appendChild(document.createElement('iframe')), { name: 'sink' });
          const form = document.body.appendChild(document.createElement('form'));
          Object.assign(form, { action, method: 'POST', enctype, target: 'sink' });
          const input = form.appendChild(document.createElement('input'));
          Object.assign(input, { type: 'hidden', name, value });
          const done = () => (out.push({ what, outcome: 'form sent' }), resolve());
          frame.addEventListener('load', done, { once: true });
          setTimeout(done, 5000);
          form.submit();
        });
      await submit('form faucet text/plain', base + '/api/dev/faucet', 'text/plain', `{"address":"${address}","amount":777,"x":"`, '"}');
      await submit('form mine urlencoded', base + '/dev/mine', 'application/x-www-form-urlencoded', 'blocks', '1');
      const socket = (what: string, url: string) =>
        new Promise<void>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => (out.push({ what, outcome: 'open' }), ws.close(), resolve());
          ws.onerror = () => (out.push({ what, outcome: 'blocked error' }), resolve());
        });
      await socket('WebSocket /api/ws', base.replace(/^http/, 'ws') + '/api/ws');
      await socket('WebSocket /ws', base.replace(/^http/, 'ws') + '/ws');
      return out;
    },
    { base, tx, address },
  );
}

test('a page of another origin gets nothing from the node by IP or by a rebound name, and changes nothing', async () => {
  const before = await fingerprint();
  const dev = node.chain.accounts[0];
  const target = addressToText(node.chain.accounts[1].address);
  // A transaction the node would accept: only the page's origin stops it.
  const tx = transfer({ key: dev.secretKey, from: dev.address, to: node.chain.accounts[1].address, seq: 1, t: Date.now(), payload: [pay(5), fee(100)] });
  const { page } = await session.newPage(attackerUrl);
  for (const base of [`http://127.0.0.1:${port}`, `http://rebind.test:${port}`]) {
    const attempts = await attack(page, base, tx, target);
    assert.is(attempts.length, 12, base);
    for (const { what, outcome } of attempts) {
      assert.match(outcome, /^(blocked|opaque|form sent)/, `${base} ${what}: ${outcome}`);
      assert.not.match(outcome, /secret_key/, `${base} ${what}`);
    }
  }
  assert.is(await fingerprint(), before, 'no faucet, no block, no transaction, no wallet changed');
  assert.is((await node.get('/api/node/status')).status, 200);
});

test('a page on a rebound name (http://rebind.test:PORT, the node as its own origin) is refused by Host', async () => {
  const before = await fingerprint();
  // After the rebinding the name leads to the node itself: the page's own load is refused
  // already, and every script request of that origin after it.
  const { page } = await session.newPage(`http://rebind.test:${port}/`);
  assert.match((await page.textContent('body')) ?? '', /HOST_NOT_ALLOWED/);
  const seen = await page.evaluate(async () => {
    const res = await fetch('/api/dev/accounts');
    const faucet = await fetch('/api/dev/faucet', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"address":"AA100000001677721780","amount":1}' });
    return { status: res.status, body: await res.text(), faucet: faucet.status, faucetBody: await faucet.text() };
  });
  assert.is(seen.status, 403);
  assert.is(JSON.parse(seen.body).error, 'HOST_NOT_ALLOWED');
  assert.not.match(seen.body, /secret_key/);
  assert.is(seen.faucet, 403);
  assert.is(JSON.parse(seen.faucetBody).error, 'HOST_NOT_ALLOWED');
  const tx = transfer({ key: node.chain.accounts[0].secretKey, from: node.chain.accounts[0].address, to: node.chain.accounts[1].address, seq: 1, t: Date.now(), payload: [pay(5), fee(100)] });
  const attempts = await attack(page, `http://rebind.test:${port}`, tx, addressToText(node.chain.accounts[1].address));
  for (const { what, outcome } of attempts) {
    // same origin, so the page reads the answers: each one is the Host refusal
    if (outcome.startsWith('read')) assert.match(outcome, /^read 403 .*HOST_NOT_ALLOWED/, what);
    else assert.match(outcome, /^(blocked|form sent)/, `${what}: ${outcome}`);
  }
  assert.is(await fingerprint(), before);
});

test("the node's own playground still registers a wallet and sends a transfer", async () => {
  const { page, errors } = await session.newPage(node.url + '/');
  await page.waitForFunction(() => document.getElementById('node-difficulty')?.textContent === '10', null, WAIT);
  await page.click('#generate-key');
  await page.click('#register');
  await page.waitForFunction(() => document.getElementById('mining')?.dataset.state !== 'running', null, WAIT);
  assert.is(await page.getAttribute('#mining', 'data-state'), 'done', (await page.locator('#wallet-error').textContent()) ?? '');
  const registered = await page.inputValue('#address');
  assert.match(registered, /^AA\d{18}$/);
  assert.is((await node.get(`/api/address/${registered}`)).status, 200);

  const dev = node.chain.accounts[0];
  await page.fill('#secret-key', bytesToHex(dev.secretKey));
  await page.fill('#address', addressToText(dev.address));
  await page.click('#load-wallet');
  await page.waitForFunction(() => document.getElementById('wallet-status')?.textContent?.includes('ready to send'), null, WAIT);
  await page.fill('#transfer-to', registered);
  await page.fill('#transfer-amount', '4321');
  await page.click('#send');
  await page.waitForSelector('#transfers li:is([data-state="included"], [data-state="failed"])', WAIT);
  assert.is(await page.locator('#transfers li').first().getAttribute('data-state'), 'included');
  assert.equal((await node.get(`/api/address/${registered}`)).body.info.amount, { SK: 4321 });
  assert.equal(errors, [], 'no script error and no CSP violation on the playground');
});

test.run();
