// The browser bundle in real Chromium: loaded from the node, mining on Web Workers with the
// same API as in Node, results checked here in Node; abort and pool shutdown stop every
// worker; signing both ways; the fallback for pages without cross-origin isolation; and
// the in-browser hash rate per worker, printed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { base64ToBytes, bytesToBase64, hexToBytes } from '../../src/bytes.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { decodeTx } from '../../src/codec/container.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { signTx, verifyTx } from '../../src/crypto/sign-tx.js';
import { ISOLATION_HEADERS } from '../../src/node/http/static.js';
import { powBits } from '../../src/pow/bits.js';
import { browserSetup, openBrowser, requireChromium, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { TEST_PAGE, checkInNode, mineInPage, type Tpkit } from '../helpers/browser-miner-page.js';

let node: TestNode;
let session: BrowserSession;
/** Served with COOP + COEP: cross-origin isolated, SharedArrayBuffer available. */
let isolated: Page;
/** Same origin, served without those headers: no SharedArrayBuffer. */
let plain: Page;
/** Each page's uncaught and console errors, as they come. */
const pageErrors: string[][] = [];
/** Requests for the .wasm files, by page (the page's and its workers'). */
const wasmRequests = new Map<Page, string[]>();

const setup = browserSetup(async () => {
  node = await startTestNode({});
  session = await openBrowser();
  const a = await session.newPage(`${node.url}/isolated-test.html`, { html: TEST_PAGE, headers: ISOLATION_HEADERS });
  const b = await session.newPage(`${node.url}/plain-test.html`, { html: TEST_PAGE });
  isolated = a.page;
  plain = b.page;
  for (const page of [isolated, plain]) {
    const urls: string[] = [];
    wasmRequests.set(page, urls);
    page.on('request', (request) => {
      if (request.url().endsWith('.wasm')) urls.push(new URL(request.url()).pathname);
    });
  }
  pageErrors.push(a.errors, b.errors);
});
test.before(setup.before);
test.before.each(setup.check);
test.after(async () => {
  await session?.close();
  await node?.close();
});

test('a missing Chromium fails with the command that installs it', () => {
  assert.throws(() => requireChromium('/nonexistent/chromium'), /apt-get install chromium/);
});

test('the test page is cross-origin isolated and the bundle detects SIMD', async () => {
  const info = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const pool = t.sharedWebMinerPool();
    return { isolated: crossOriginIsolated, sab: typeof SharedArrayBuffer, simd: t.simdSupported(), cores: navigator.hardwareConcurrency, shared: pool.shared, threads: pool.threads };
  });
  assert.ok(info.isolated);
  assert.is(info.sab, 'function');
  assert.ok(info.simd, 'Chromium validates the SIMD binary');
  assert.ok(info.shared, 'the pool shares its stop flag with the workers');
  assert.ok(info.cores >= 1);
  assert.is(info.threads, info.cores, 'one worker per logical core');
});

test('mineRegister on Web Workers, one worker then all of them: Node verifies every result', async () => {
  const one = await mineInPage(isolated, 14, 1);
  checkInNode(one, 14);
  const all = await mineInPage(isolated, 16);
  checkInNode(all, 16);
});

test('each kernel mines in the workers: hybrid, two-lane SIMD, and the scalar binary where SIMD is missing', async () => {
  for (const kernel of ['hybrid', 'simd', 'scalar'] as const) {
    const mined = await mineInPage(isolated, 12, undefined, kernel);
    checkInNode(mined, 12);
    assert.equal(Object.keys(mined.byKernel), [kernel]);
  }
});

test('abort stops every worker: the search rejects with ABORTED and the hash counter freezes', async () => {
  const r = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const base = t.sharedWebMinerPool();
    let counter: BigInt64Array<ArrayBufferLike> = new BigInt64Array(1);
    const pool = { threads: base.threads, run: (task: Parameters<typeof base.run>[0]) => ((counter = new BigInt64Array(task.counter)), base.run(task)) };
    const controller = new AbortController();
    let abortedAt = 0;
    let hashesAtAbort = 0;
    const error = await t
      .mineRegister({
        publicKeys: [t.publicKeyOf(t.generateSecretKey())],
        difficulty: 40,
        pool,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.hashes > 500_000 && !controller.signal.aborted) {
            hashesAtAbort = p.hashes;
            abortedAt = performance.now();
            controller.abort();
          }
        },
      })
      .then(
        () => ({ code: 'resolved', name: '' }),
        (err: { code?: string; name?: string }) => ({ code: err.code, name: err.name }),
      );
    const stopMs = performance.now() - abortedAt;
    const atEnd = Atomics.load(counter, 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = Atomics.load(counter, 0);
    // The same workers serve the next search.
    const after = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 8 });
    return { ...error, stopMs, hashesAtAbort, atEnd: String(atEnd), later: String(later), afterBits: after.bits };
  });
  assert.is(r.code, 'ABORTED');
  assert.is(r.name, 'AbortError');
  assert.ok(BigInt(r.atEnd) > BigInt(r.hashesAtAbort), 'the workers were hashing when the signal fired');
  assert.is(r.later, r.atEnd, 'no worker hashes after the rejection');
  assert.ok(r.afterBits >= 8, 'the pool mines again after an abort');
  console.log(`  abort -> every worker stopped ${r.stopMs.toFixed(1)} ms after the signal (isolated page)`);
});

test('terminate() ends the workers: running and queued searches reject, the pool then starts new workers', async () => {
  const r = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const pool = t.createWebMinerPool(1);
    const search = () =>
      t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 40, pool }).then(
        () => 'resolved',
        (err: { code?: string }) => err.code,
      );
    const running = search();
    const queued = search();
    await new Promise((resolve) => setTimeout(resolve, 200));
    pool.terminate();
    const codes = await Promise.all([running, queued]);
    const again = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 8, pool });
    pool.terminate();
    return { codes, againBits: again.bits };
  });
  assert.equal(r.codes, ['ABORTED', 'ABORTED']);
  assert.ok(r.againBits >= 8);
});

test('a worker script that does not load rejects the search instead of hanging', async () => {
  const r = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const pool = t.createWebMinerPool(2, { workerUrl: '/browser/no-such-worker.js' });
    const mine = (difficulty: number, callingThread: boolean) =>
      t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty, pool, callingThread }).then(
        () => 'resolved',
        (err: { code?: string }) => err.code,
      );
    // The pool alone; then with the page's thread hashing too, at a difficulty it does not
    // meet before the workers fail.
    const codes = [await mine(8, false), await mine(40, true)];
    pool.terminate();
    return codes;
  });
  assert.equal(r, ['WASM_UNAVAILABLE', 'WASM_UNAVAILABLE']);
  // The page logs the failed script load itself; the last test allows only that.
});

test("the page's own thread mines while no worker answers, and runs the page's timers between its slices", async () => {
  for (const page of [isolated, plain]) {
    const r = await page.evaluate(async () => {
      const t: Tpkit = await import('/browser/tpkit.js' as string);
      // A pool whose one thread never starts: only the page's thread can find the nonce.
      const silent = { threads: 1, run: () => new Promise<never>(() => {}) };
      const publicKeys = [t.publicKeyOf(t.generateSecretKey())];
      // A page thread that did not hash would leave this search pending forever: fail instead.
      let guard: ReturnType<typeof setTimeout> | undefined;
      const never = new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error('no result in 60 s: the page thread did not mine')), 60_000)));
      const mined = await Promise.race([t.mineRegister({ publicKeys, difficulty: 14, pool: silent }), never]).finally(() => clearTimeout(guard));
      // Difficulty 64 is never met: only a timer can end this search, so it ends only if the
      // page's thread lets timers run.
      let hashes = 0;
      const code = await t.mineRegister({ publicKeys, difficulty: 64, pool: silent, signal: AbortSignal.timeout(50), onProgress: (p) => (hashes = p.hashes), progressIntervalMs: 10 }).then(
        () => 'resolved',
        (err: { code?: string }) => err.code,
      );
      return { body: t.bytesToHex(mined.body), hashes: mined.hashes, callingThreadHashes: mined.callingThreadHashes, code, abortedHashes: hashes };
    });
    assert.ok(powBits(hexToBytes(r.body)) >= 14, 'Node re-checks the bits');
    assert.is(r.callingThreadHashes, r.hashes, "every hash was the page thread's");
    assert.is(r.code, 'ABORTED');
    assert.ok(r.abortedHashes > 0, 'the page thread hashed until the timer stopped it');
  }
});

test('warm(): every worker starts and hashes, it reports its start-up, and a search after it works', async () => {
  const r = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const pool = t.createWebMinerPool(2);
    const first = pool.warm({ durationMs: 100 });
    const same = pool.warm();
    const warm = await first;
    const bad = await pool.warm({ durationMs: -1 }).then(
      () => 'resolved',
      (err: { code?: string }) => err.code,
    );
    const mined = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 10, pool });
    // A search started during a warm-up (as long as it may be) cuts it short.
    const long = pool.warm({ durationMs: 10_000 });
    // (The workers' part of a search starts the moment its modules are ready; the page's
    // thread alone might meet difficulty 12 before that, so it stays out of this one.)
    const during = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 12, pool, callingThread: false });
    const cut = await long;
    pool.terminate();
    return {
      sameCall: first === same,
      readyMs: warm.readyMs,
      hashRate: warm.hashRate,
      preempted: warm.preempted,
      bad,
      bits: mined.bits,
      duringBits: during.bits,
      cutPreempted: cut.preempted,
    };
  });
  assert.ok(r.sameCall, 'a warm-up under way is shared');
  assert.is(r.preempted, false);
  assert.ok(r.duringBits >= 12);
  assert.is(r.cutPreempted, true, 'the search preempted the warm-up');
  assert.ok(Number.isFinite(r.readyMs) && r.readyMs > 0, `readyMs ${r.readyMs}`);
  assert.ok(r.hashRate > 0, 'the workers hashed during the warm-up');
  assert.is(r.bad, 'INVALID_ARGUMENT');
  assert.ok(r.bits >= 10);
});

test('a transaction built and signed in the browser verifies in Node, and the reverse', async () => {
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
  if (decoded.kind === 'generic') {
    assert.is(decoded.seq, 3n);
    assert.is(decoded.payload[0].amount, 12345678901234567890n);
  }

  const fromNode = signTx(
    genericBody({ from: 'AA100000001677721780', to: 'AA100000001677721780', seq: 1n, timestamp: 1_700_000_000_000, payload: [{ purpose: 'transfer', currency: 'SK', amount: 7n }] }),
    generateSecretKey(),
  );
  const seen = await isolated.evaluate(async (b64) => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const bytes = t.base64ToBytes(b64);
    const body = t.decodeBody(t.decodeTx(bytes).body);
    return { valid: t.verifyTx(bytes).valid, amount: body.kind === 'generic' ? String(body.payload[0].amount) : '' };
  }, bytesToBase64(fromNode));
  assert.equal(seen, { valid: true, amount: '7' });
});

test('without cross-origin isolation the miner runs in short runs: same results, abort still stops every worker', async () => {
  const info = await plain.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    return { isolated: crossOriginIsolated, sab: typeof SharedArrayBuffer, shared: t.sharedWebMinerPool().shared };
  });
  assert.is(info.isolated, false);
  assert.is(info.sab, 'undefined');
  assert.is(info.shared, false);
  checkInNode(await mineInPage(plain, 14, 1), 14);
  checkInNode(await mineInPage(plain, 14), 14);
  const r = await plain.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const base = t.sharedWebMinerPool();
    let counter: BigInt64Array<ArrayBufferLike> = new BigInt64Array(1);
    const pool = { threads: base.threads, run: (task: Parameters<typeof base.run>[0]) => ((counter = new BigInt64Array(task.counter)), base.run(task)) };
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 400);
    const code = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 40, pool, signal: controller.signal }).then(
      () => 'resolved',
      (err: { code?: string }) => err.code,
    );
    const stopMs = performance.now() - abortedAt;
    // Each run's hashes are added when it returns: a run still going would add more.
    const atEnd = Atomics.load(counter, 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { code, stopMs, atEnd: String(atEnd), later: String(Atomics.load(counter, 0)) };
  });
  assert.is(r.code, 'ABORTED');
  assert.ok(BigInt(r.atEnd) > 0n);
  assert.is(r.later, r.atEnd, 'no run is left after the rejection');
  console.log(`  abort -> every worker stopped ${r.stopMs.toFixed(1)} ms after the signal (page not isolated)`);
});

test('in-browser hash rate per worker count (printed)', async () => {
  const rows = await isolated.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const out: { workers: number; hashRate: number }[] = [];
    for (let workers = 1; workers <= navigator.hardwareConcurrency; workers++) {
      const controller = new AbortController();
      const samples: { hashes: number; elapsedMs: number }[] = [];
      setTimeout(() => controller.abort(), 1500);
      await t
        .mineRegister({
          publicKeys: [t.publicKeyOf(t.generateSecretKey())],
          difficulty: 64,
          threads: workers,
          signal: controller.signal,
          onProgress: (p) => samples.push({ hashes: p.hashes, elapsedMs: p.elapsedMs }),
        })
        .catch(() => undefined);
      // The rate after start-up (compilation and the engine's first tiers): 400 ms on.
      const steady = samples.filter((s) => s.elapsedMs > 400);
      const a = steady[0];
      const b = steady[steady.length - 1];
      const hashRate = a && b && b.elapsedMs > a.elapsedMs ? ((b.hashes - a.hashes) / (b.elapsedMs - a.elapsedMs)) * 1000 : 0;
      out.push({ workers, hashRate });
    }
    return out;
  });
  console.log('  Chromium  workers  MH/s total  MH/s per worker');
  for (const r of rows) {
    assert.ok(r.hashRate > 0, `${r.workers} worker(s) hashed`);
    console.log(`  ${String(r.workers).padStart(15)}  ${(r.hashRate / 1e6).toFixed(2).padStart(10)}  ${(r.hashRate / r.workers / 1e6).toFixed(2).padStart(15)}`);
  }
});

test('with tpkit/kernels adopted, a page and its workers mine without fetching any .wasm file', async () => {
  // The package entry as a bundler would serve it: one script, the binaries inside.
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../../../src/kernels.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const { page, errors } = await session.newPage(`${node.url}/kernels-test.html`, { html: TEST_PAGE, headers: ISOLATION_HEADERS });
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) fetched.push(request.url());
  });
  await page.route(`${node.url}/kernels-test.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', headers: ISOLATION_HEADERS, body: bundled.outputFiles[0].text }));
  const r = await page.evaluate(async () => {
    const t: Tpkit = await import('/browser/tpkit.js' as string);
    const kernels: typeof import('../../src/kernels.js') = await import('/kernels-test.js' as string);
    t.adoptWasmModules(await kernels.compileEmbeddedKernels());
    const publicKeys = [t.publicKeyOf(t.generateSecretKey())];
    // The page's thread and the workers, then the workers alone (they get the modules in their tasks).
    const both = await t.mineRegister({ publicKeys, difficulty: 12 });
    const workers = await t.mineRegister({ publicKeys, difficulty: 12, callingThread: false, startNonce: both.nonce + 1n });
    return { bits: [both.bits, workers.bits], body: t.bytesToHex(workers.body) };
  });
  assert.ok(
    r.bits.every((bits) => bits >= 12),
    r.bits.join(', '),
  );
  assert.ok(powBits(hexToBytes(r.body)) >= 12);
  assert.equal(fetched, [], 'no .wasm requested');
  assert.equal(errors, []);
});

test('each page fetched and compiled each binary once, asynchronously, for its thread and all its workers; no errors', async () => {
  for (const page of [isolated, plain]) {
    const counts = await page.evaluate(() => (globalThis as unknown as { mainThreadWasm: { sync: number; compile: number } }).mainThreadWasm);
    const fetched = [...(wasmRequests.get(page) ?? [])].sort();
    // Every search above ran here: many pools, many workers, both binaries.
    assert.equal(fetched, ['/browser/tpkit-scalar.wasm', '/browser/tpkit-simd.wasm']);
    assert.equal(counts, { sync: 0, compile: 2 });
  }
  const errors = pageErrors.flat().filter((e) => !e.includes('no-such-worker'));
  assert.equal(errors, []);
});

test.run();
