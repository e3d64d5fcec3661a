// The lean entry (tpkit/browser/lean) bundled into a page with none of its files copied
// beside it, in real Chromium: tpkit.js and its code chunks are served, the kernels' .wasm
// files and miner-worker.js are not (404). As the docs say, the calling thread carries on
// alone, and with no kernel file it mines with the JS kernel; the result says why.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { hexToBytes } from '../../src/bytes.js';
import { powBits } from '../../src/pow/bits.js';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

type Tpkit = typeof import('../../src/browser.js');

const BUNDLE = fileURLToPath(new URL('../../browser/', import.meta.url));
/** What a bundler leaves when it copies no asset: every script but the worker's. */
const SERVED = /\/lean-alone\/((?!miner-worker)[\w.-]+\.js)$/;

let node: TestNode;
let session: BrowserSession;
let page: Page;

const setup = browserSetup(async () => {
  node = await startTestNode({});
  session = await openBrowser();
  ({ page } = await session.newPage(`${node.url}/lean-alone/index.html`, { html: '<!doctype html><meta charset="utf-8"><title>lean, nothing copied</title>' }));
  // Scripts from dist/browser; anything else under /lean-alone/ goes on to the node, which has no such file (404).
  await page.route(SERVED, (route) => {
    const name = SERVED.exec(new URL(route.request().url()).pathname)![1];
    return route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: readFileSync(BUNDLE + name, 'utf8') });
  });
});
test.before(setup.before);
test.before.each(setup.check);
test.after(async () => {
  await session?.close();
  await node?.close();
});

test('no .wasm and no worker file beside the bundle: the calling thread mines with the JS kernel, and the result says why', async () => {
  const mined = await page.evaluate(async (url) => {
    const tpkit = (await import(url)) as Tpkit;
    const key = new Uint8Array(33).fill(3);
    key[0] = 2;
    const r = await tpkit.mineRegister({ publicKeys: [key], timestamp: 1, difficulty: 10 });
    return { body: tpkit.bytesToHex(r.body), kernel: r.kernel, kernelReason: r.kernelReason, hashes: r.hashes, callingThreadHashes: r.callingThreadHashes, poolFailure: r.poolFailure };
  }, `${node.url}/lean-alone/tpkit.js`);
  assert.is(mined.kernel, 'js');
  assert.match(mined.kernelReason, /did not load/);
  assert.ok(mined.callingThreadHashes > 0, 'the calling thread hashed');
  assert.ok(powBits(hexToBytes(mined.body)) >= 10, 'the body reaches the difficulty (checked here)');
});

test.run();
