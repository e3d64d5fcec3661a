// The miner where the browser takes something away, in real Chromium: a page whose CSP lacks
// 'wasm-unsafe-eval' (WebAssembly refused), a page whose CSP blocks workers, and a page with
// no Worker at all (as a Manifest V3 service worker). In each, minerSupport() names what is
// missing and why, and mineRegister still mines: the JS kernel where WebAssembly is refused,
// the calling thread where workers are blocked or absent. The mined bodies are checked here.
// Pages opened from file:// (each entry bundled into a classic script) get FILE_ORIGIN.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { hexToBytes } from '../../src/bytes.js';
import { powBits } from '../../src/pow/bits.js';
import type { MinerSupport } from '../../src/pow/support.js';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

type Tpkit = typeof import('../../src/browser.js');

const PAGE = '<!doctype html><meta charset="utf-8"><title>tpkit fallback test</title>';
/** Scripts from the node only, and no 'wasm-unsafe-eval': every WebAssembly compile is refused. */
const NO_WASM_CSP = "script-src 'self' 'unsafe-inline'";
/** WebAssembly allowed, workers refused. */
const NO_WORKERS_CSP = "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; worker-src 'none'";

let node: TestNode;
let session: BrowserSession;
const pages: Record<'noWasm' | 'noWorkers' | 'noWorkerApi' | 'fileInline' | 'fileLean', Page> = {} as never;
const fileDir = mkdtempSync(join(tmpdir(), 'tpkit-file-page-'));

/** A page in fileDir, opened from file://, whose classic script is `entry` (a dist/browser file) bundled with globalThis.tpkit set. */
async function filePage(name: string, entry: string): Promise<Page> {
  const source = join(fileDir, `${name}-entry.js`);
  writeFileSync(source, `import * as tpkit from ${JSON.stringify(join(process.cwd(), 'dist/browser', entry))};\nglobalThis.tpkit = tpkit;\n`);
  await build({ entryPoints: [source], bundle: true, format: 'iife', outfile: join(fileDir, `${name}.js`), logLevel: 'error' });
  writeFileSync(join(fileDir, `${name}.html`), `${PAGE}<script src="${name}.js"></script>`);
  const page = await session.browser.newPage();
  await page.goto(pathToFileURL(join(fileDir, `${name}.html`)).href);
  return page;
}

const setup = browserSetup(async () => {
  node = await startTestNode({});
  session = await openBrowser();
  pages.noWasm = (await session.newPage(`${node.url}/no-wasm.html`, { html: PAGE, headers: { 'content-security-policy': NO_WASM_CSP } })).page;
  pages.noWorkers = (await session.newPage(`${node.url}/no-workers.html`, { html: PAGE, headers: { 'content-security-policy': NO_WORKERS_CSP } })).page;
  pages.noWorkerApi = (await session.newPage(`${node.url}/no-worker-api.html`, { html: PAGE })).page;
  await pages.noWorkerApi.evaluate(() => {
    delete (globalThis as { Worker?: unknown }).Worker;
  });
  pages.fileInline = await filePage('inline', 'tpkit-inline.js');
  pages.fileLean = await filePage('lean', 'tpkit.js');
});
test.before(setup.before);
test.before.each(setup.check);
test.after(async () => {
  await session?.close();
  await node?.close();
  rmSync(fileDir, { recursive: true, force: true });
});

interface PageMined {
  body: string;
  kernel: string;
  kernelReason: string;
  hashes: number;
  callingThreadHashes: number;
  poolFailure?: string;
}

/** minerSupport() and one proof on the page, with the default pool or the calling thread alone (a pool that never starts). */
function onPage(page: Page, difficulty: number, inline: boolean, kernel: 'auto' | 'js' = 'auto'): Promise<{ support: MinerSupport; mined: PageMined }> {
  return page.evaluate(
    async ({ url, difficulty, inline, kernel }) => {
      const tpkit = (await import(url)) as Tpkit;
      const support = await tpkit.minerSupport({ difficulty, measureMs: 150, workerTimeoutMs: 5000 });
      const key = new Uint8Array(33).fill(3);
      key[0] = 2;
      const pool = inline ? { threads: 1, run: () => new Promise<never>(() => {}) } : undefined;
      const r = await tpkit.mineRegister({ publicKeys: [key], timestamp: 1, difficulty, pool, kernel });
      const mined = { body: tpkit.bytesToHex(r.body), kernel: r.kernel, kernelReason: r.kernelReason, hashes: r.hashes, callingThreadHashes: r.callingThreadHashes, poolFailure: r.poolFailure };
      // Infinity does not survive the trip out of the page.
      return { support: JSON.parse(JSON.stringify(support)), mined };
    },
    { url: `${node.url}/browser/tpkit.js`, difficulty, inline, kernel },
  );
}

test('a CSP without wasm-unsafe-eval: minerSupport names the refusal and its directive, auto mines with the JS kernel', async () => {
  const { support, mined } = await onPage(pages.noWasm, 10, true);
  assert.is(support.webAssembly.present, true);
  assert.is(support.webAssembly.usable, false);
  assert.is(support.webAssembly.refusal?.cause, 'csp');
  assert.match(support.webAssembly.refusal?.directive ?? '', /script-src/);
  assert.match(support.webAssembly.refusal?.fix ?? '', /wasm-unsafe-eval/);
  assert.is(support.kernel, 'js');
  assert.ok(support.rates.js! > 0, 'the JS kernel was measured');
  assert.is(support.expected.difficulty, 10);
  assert.ok(support.expected.medianMs > 0);
  assert.is(mined.kernel, 'js');
  assert.match(mined.kernelReason, /Content Security Policy/);
  assert.ok(powBits(hexToBytes(mined.body)) >= 10, 'the body reaches the difficulty (checked here)');
});

test('a CSP without wasm-unsafe-eval, default pool: the proof is found and checked', async () => {
  const { mined } = await onPage(pages.noWasm, 12, false);
  assert.ok(powBits(hexToBytes(mined.body)) >= 12);
  assert.ok(mined.hashes >= mined.callingThreadHashes);
});

test('workers blocked by worker-src: minerSupport says they do not run, the calling thread mines alone', async () => {
  // The JS kernel at difficulty 14 keeps the calling thread busy far longer than a blocked
  // worker takes to fail, so the failure is in the result.
  const { support, mined } = await onPage(pages.noWorkers, 14, false, 'js');
  assert.is(support.webAssembly.usable, true);
  assert.is(support.workers.present, true);
  assert.is(support.workers.usable, false);
  assert.ok((support.workers.error ?? '').length > 0, "the workers' failure is named");
  assert.is(support.threads, 1);
  assert.ok(powBits(hexToBytes(mined.body)) >= 14);
  assert.ok(mined.poolFailure, 'the result says the pool failed');
  assert.is(mined.callingThreadHashes, mined.hashes, "every hash was the calling thread's");
  assert.match(mined.kernelReason, /asked for/);
});

test('no Worker API (a service worker, some webviews): the default pool is the calling thread, in slices', async () => {
  const { support, mined } = await onPage(pages.noWorkerApi, 12, false);
  assert.is(support.workers.present, false);
  assert.is(support.workers.usable, false);
  assert.is(support.threads, 1);
  assert.ok(powBits(hexToBytes(mined.body)) >= 12);
  // The page stayed responsive: timers ran while it mined.
  const ticks = await pages.noWorkerApi.evaluate(async (url) => {
    const tpkit = (await import(url)) as Tpkit;
    let count = 0;
    const timer = setInterval(() => count++, 1);
    await tpkit.mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], timestamp: 2, difficulty: 14, kernel: 'js' });
    clearInterval(timer);
    return count;
  }, `${node.url}/browser/tpkit.js`);
  assert.ok(ticks > 0, 'timers ran between slices');
});

/** The fix FILE_ORIGIN names: a server to run, and the entry that does run from file://. */
const FILE_FIX = /file:\/\/.*python3 -m http\.server.*tpkit\/browser bundled into a classic/s;

test("file://, the self-contained entry: minerSupport and the pool failure name FILE_ORIGIN and the fix, the page's thread mines", async () => {
  const out = await pages.fileInline.evaluate(async () => {
    const tpkit = (globalThis as unknown as { tpkit: Tpkit }).tpkit;
    const support = await tpkit.minerSupport({ difficulty: 10, measureMs: 150, workerTimeoutMs: 5000 });
    // The JS kernel at difficulty 14 keeps the calling thread busy far longer than the worker takes to fail.
    const r = await tpkit.mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], timestamp: 1, difficulty: 14, kernel: 'js' });
    return { workers: support.workers, threads: support.threads, body: tpkit.bytesToHex(r.body), poolFailure: r.poolFailure };
  });
  assert.is(out.workers.usable, false);
  assert.match(out.workers.error ?? '', FILE_FIX);
  assert.is(out.threads, 1);
  assert.match(out.poolFailure ?? '', /FILE_ORIGIN|file:\/\//);
  assert.ok(powBits(hexToBytes(out.body)) >= 14);
});

test('file://, the lean entry (no kernel files reachable): minerSupport rejects with FILE_ORIGIN naming the fix', async () => {
  const err = await pages.fileLean.evaluate(async () => {
    const tpkit = (globalThis as unknown as { tpkit: Tpkit }).tpkit;
    return tpkit.minerSupport({ difficulty: 10, measureMs: 150 }).then(
      () => null,
      (e: { code?: string; message: string; details?: string }) => ({ code: e.code, text: `${e.message} ${e.details ?? ''}` }),
    );
  });
  assert.is(err?.code, 'FILE_ORIGIN');
  assert.match(err?.text ?? '', FILE_FIX);
});

test.run();
