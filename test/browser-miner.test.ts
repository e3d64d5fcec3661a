// The browser bundle in real Chromium: loaded from the node, mining on Web Workers with the
// same API as in Node, results checked here in Node; abort; signing; the fallback for pages
// without cross-origin isolation; and the in-browser hash rate per worker.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, bytesToHex, hexToBytes } from '../src/bytes.js';
import { decodeBody } from '../src/codec/body-decode.js';
import { decodeTx } from '../src/codec/container.js';
import { keysHash } from '../src/crypto/keys-hash.js';
import { verifyTx } from '../src/crypto/sign-tx.js';
import { powBits } from '../src/pow/bits.js';
import { openBrowser, type BrowserSession } from './browser-harness.js';
import { startTestNode, type TestNode } from './node-helpers.js';
import type { Page } from 'playwright-core';

/** The bundle's API, as the page sees it (imported there by URL). */
type Tpkit = typeof import('../src/browser.js');

let node: TestNode;
let session: BrowserSession;
let isolated: Page;
let plain: Page;

test.before(async () => {
  node = await startTestNode({});
  session = await openBrowser();
  isolated = (await session.newPage(node.url + '/')).page;
  // Same origin, served without COOP/COEP: no SharedArrayBuffer there.
  const plainUrl = node.url + '/plain-test-page.html';
  const opened = await session.browser.newPage();
  await opened.route(plainUrl, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>plain</title>' }));
  await opened.goto(plainUrl);
  plain = opened;
});

test.after(async () => {
  await session?.close();
  await node?.close();
});

interface BrowserMined {
  body: string;
  nonce: string;
  bits: number;
  hashes: number;
  publicKey: string;
  progressCalls: number;
}

/** Mines a register body in the page and returns it as hex for Node to check. */
function mineInPage(page: Page, difficulty: number, threads?: number): Promise<BrowserMined> {
  return page.evaluate(
    async ({ difficulty, threads }) => {
      const t: Tpkit = await import('/browser/tpkit.js' as string);
      const publicKey = t.publicKeyOf(t.generateSecretKey());
      let progressCalls = 0;
      const r = await t.mineRegister({ publicKeys: [publicKey], difficulty, threads, onProgress: () => progressCalls++ });
      return { body: t.bytesToHex(r.body), nonce: String(r.nonce), bits: r.bits, hashes: r.hashes, publicKey: t.bytesToHex(publicKey), progressCalls };
    },
    { difficulty, threads },
  );
}

function checkInNode(mined: BrowserMined, difficulty: number): void {
  const body = hexToBytes(mined.body);
  assert.ok(powBits(body) >= difficulty, `SHA-512 in Node gives ${powBits(body)} bits`);
  assert.is(powBits(body), mined.bits);
  const decoded = decodeBody(body);
  assert.is(decoded.kind, 'register');
  if (decoded.kind === 'register') {
    assert.is(decoded.nonce, BigInt(mined.nonce));
    assert.is(bytesToHex(decoded.keysHash), bytesToHex(keysHash([hexToBytes(mined.publicKey)])));
  }
}

test('the page is cross-origin isolated and the bundle detects SIMD', async () => {
  const info = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    return { isolated: crossOriginIsolated, sab: typeof SharedArrayBuffer, simd: t.simdSupported(), cores: navigator.hardwareConcurrency, pool: t.sharedWebMinerPool().shared };
  });
  assert.ok(info.isolated);
  assert.is(info.sab, 'function');
  assert.ok(info.simd, 'Chromium runs the SIMD binary');
  assert.ok(info.pool, 'the pool shares its stop flag with the workers');
  assert.ok(info.cores >= 1);
});

test('mineRegister on Web Workers: one worker and all of them; Node verifies every result', async () => {
  const one = await mineInPage(isolated, 14, 1);
  checkInNode(one, 14);
  const all = await mineInPage(isolated, 16);
  checkInNode(all, 16);
  assert.ok(all.progressCalls >= 0);
});

test('abort stops every worker: the search rejects with ABORTED and no hashing continues', async () => {
  const r = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const controller = new AbortController();
    let abortedAt = 0;
    let lastHashes = 0;
    const started = performance.now();
    const outcome = await t
      .mineRegister({
        publicKeys: [t.publicKeyOf(t.generateSecretKey())],
        difficulty: 40,
        signal: controller.signal,
        onProgress: (p: { hashes: number }) => {
          lastHashes = p.hashes;
          if (p.hashes > 200_000 && !controller.signal.aborted) {
            abortedAt = performance.now();
            controller.abort();
          }
        },
      })
      .then(
        () => ({ code: 'resolved' as string | undefined, name: undefined as string | undefined }),
        (err: { code?: string; name?: string }) => ({ code: err.code, name: err.name }),
      );
    const stopMs = performance.now() - abortedAt;
    // after the rejection every task has returned; a fresh search starts from zero
    const after = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 8 });
    return { ...outcome, stopMs, lastHashes, totalMs: performance.now() - started, afterBits: after.bits };
  });
  assert.is(r.code, 'ABORTED');
  assert.is(r.name, 'AbortError');
  assert.ok(r.stopMs < 500, `every worker stopped ${r.stopMs.toFixed(0)} ms after abort`);
  assert.ok(r.afterBits >= 8, 'the pool mines again after an abort');
  console.log(`  abort -> all workers stopped in ${r.stopMs.toFixed(1)} ms (isolated page)`);
});

test('a transaction built and signed in the browser verifies in Node', async () => {
  const tx = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const key = t.generateSecretKey();
    const body = t.genericBody({
      from: 'AA100000001677721780',
      to: t.makeAddress({ group: 10, block: 1, wallet: 9 }),
      seq: 3n,
      timestamp: 1_700_000_000_000,
      payload: [{ purpose: 'transfer', currency: 'SK', amount: 12345678901234567890n }],
    });
    return t.bytesToBase64(t.signTx(body, key, { timestamp: 1_700_000_000_001 }));
  });
  const bytes = base64ToBytes(tx);
  assert.ok(verifyTx(bytes).valid);
  const decoded = decodeBody(decodeTx(bytes).body);
  assert.is(decoded.kind, 'generic');
  if (decoded.kind === 'generic') assert.is(decoded.payload[0].amount, 12345678901234567890n);
});

test('without cross-origin isolation the miner falls back to short runs: same results, abort still works', async () => {
  const info = await plain.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    return { isolated: crossOriginIsolated, sab: typeof SharedArrayBuffer, shared: t.sharedWebMinerPool().shared };
  });
  assert.is(info.isolated, false);
  assert.is(info.sab, 'undefined');
  assert.is(info.shared, false);
  const mined = await mineInPage(plain, 14);
  checkInNode(mined, 14);
  const r = await plain.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const began = performance.now();
    const code = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 40, signal: controller.signal }).then(
      () => 'resolved',
      (err: { code?: string }) => err.code,
    );
    return { code, ms: performance.now() - began };
  });
  assert.is(r.code, 'ABORTED');
  assert.ok(r.ms < 1500, `stopped after ${r.ms.toFixed(0)} ms`);
});

test('in-browser hash rate per worker (printed)', async () => {
  const rates = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const out: { workers: number; hashRate: number }[] = [];
    for (let workers = 1; workers <= navigator.hardwareConcurrency; workers++) {
      const controller = new AbortController();
      const samples: { hashes: number; elapsedMs: number }[] = [];
      setTimeout(() => controller.abort(), 1500);
      await t
        .mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 64, threads: workers, signal: controller.signal, onProgress: (p: { hashes: number; elapsedMs: number }) => samples.push(p) })
        .catch(() => undefined);
      const steady = samples.filter((s) => s.elapsedMs > 400);
      const a = steady[0];
      const b = steady[steady.length - 1];
      out.push({ workers, hashRate: a && b && b.elapsedMs > a.elapsedMs ? ((b.hashes - a.hashes) / (b.elapsedMs - a.elapsedMs)) * 1000 : 0 });
    }
    return out;
  });
  for (const r of rates) {
    assert.ok(r.hashRate > 0);
    console.log(`  Chromium: ${r.workers} worker(s) ${(r.hashRate / 1e6).toFixed(2)} MH/s total, ${(r.hashRate / r.workers / 1e6).toFixed(2)} MH/s per worker`);
  }
});

test.run();
