// The Manifest V3 wallet extension (examples/extension), built from the packed package and
// loaded unpacked into Chromium (--load-extension works in the new headless mode): its page
// mines on Web Workers (a blob: worker of the self-contained tpkit/browser: the manifest's
// extension CSP allows it), and its background service worker, which has no Worker, mines on
// its own thread in slices; both outcomes are checked with node:crypto. Two more extensions
// take tpkit the unbundled way: tpkit/browser/sw (dist/browser/tpkit-sw.js) copied in and
// imported by the background service worker as it is, which may not call import(); one with
// 'wasm-unsafe-eval' in its CSP (WebAssembly kernels), one without (the JS kernel).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM_FLAGS, requireChromium } from '../helpers/browser-harness.js';
import { installExamples, PROJECT, run } from '../helpers/examples.js';
import { startExampleServer, type ExampleServer } from '../helpers/example-server.js';
import { checkWalletReport, type WalletReport } from '../helpers/wallet-report.js';
import { hexToBytes } from '../../src/bytes.js';
import { powBits } from '../../src/pow/bits.js';

const profile = mkdtempSync(join(tmpdir(), 'tpkit-extension-'));
const unbundled = mkdtempSync(join(tmpdir(), 'tpkit-extension-sw-'));
let server: ExampleServer | undefined;
let context: BrowserContext | undefined;
let extensionId = '';
let setupError: unknown;
/** The unbundled extensions' service workers, by manifest name. */
const swWorkers = new Map<string, Worker>();

/** The MV3 CSPs of the two unbundled extensions: WebAssembly allowed, and refused. */
const SW_EXTENSIONS = {
  'tpkit sw wasm': "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'",
  'tpkit sw no-wasm': "script-src 'self'; object-src 'self'",
};

/** An extension whose background service worker imports the copied tpkit-sw.js as it is and exposes it to the test. */
function unbundledExtension(name: string, csp: string): string {
  const dir = join(unbundled, name.replace(/\W+/g, '-'));
  mkdirSync(join(dir, 'tpkit'), { recursive: true });
  copyFileSync(join(PROJECT, 'node_modules', 'tpkit', 'dist', 'browser', 'tpkit-sw.js'), join(dir, 'tpkit', 'tpkit-sw.js'));
  writeFileSync(join(dir, 'background.js'), "import * as tpkit from './tpkit/tpkit-sw.js';\nglobalThis.tpkit = tpkit;\n");
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name,
      version: '1.0',
      background: { service_worker: 'background.js', type: 'module' },
      content_security_policy: { extension_pages: csp },
    }),
  );
  return dir;
}

test.before(async () => {
  try {
    installExamples();
    run(process.execPath, ['extension/build.mjs'], PROJECT);
    server = await startExampleServer();
    const dirs = [join(PROJECT, 'extension'), ...Object.entries(SW_EXTENSIONS).map(([name, csp]) => unbundledExtension(name, csp))];
    context = await chromium.launchPersistentContext(profile, {
      executablePath: requireChromium(),
      headless: true,
      args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${dirs.join(',')}`, `--load-extension=${dirs.join(',')}`],
    });
    while (context.serviceWorkers().length < dirs.length) await context.waitForEvent('serviceworker', { timeout: 30_000 });
    for (const worker of context.serviceWorkers()) {
      const name = await worker.evaluate(() => (globalThis as unknown as { chrome: { runtime: { getManifest(): { name: string } } } }).chrome.runtime.getManifest().name);
      if (name in SW_EXTENSIONS) swWorkers.set(name, worker);
      else extensionId = new URL(worker.url()).host;
    }
  } catch (err) {
    setupError = err;
  }
});

test.after(async () => {
  await context?.close();
  await server?.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(unbundled, { recursive: true, force: true });
});

interface SwMined {
  body: string;
  kernel: string;
  kernelReason: string;
  usable: boolean;
}

/** minerSupport() and one proof in an unbundled extension's service worker, with tpkit-sw.js as copied in. */
async function mineInServiceWorker(name: string, difficulty: number): Promise<SwMined> {
  if (setupError) throw setupError;
  const worker = swWorkers.get(name);
  if (!worker) throw new Error(`the extension '${name}' has no service worker running`);
  return worker.evaluate(async (difficulty) => {
    const tpkit = (globalThis as unknown as { tpkit: typeof import('../../src/browser-inline.js') }).tpkit;
    const support = await tpkit.minerSupport({ difficulty, measureMs: 100, workerTimeoutMs: 5000 });
    const key = new Uint8Array(33).fill(3);
    key[0] = 2;
    const r = await tpkit.mineRegister({ publicKeys: [key], timestamp: 1, difficulty });
    return { body: tpkit.bytesToHex(r.body), kernel: r.kernel, kernelReason: r.kernelReason, usable: support.webAssembly.usable };
  }, difficulty);
}

async function openExtensionPage(query: string): Promise<WalletReport> {
  if (setupError) throw setupError;
  const page = await context!.newPage();
  try {
    const [report] = await Promise.all([server!.nextReport(), page.goto(`chrome-extension://${extensionId}/wallet.html?report=${encodeURIComponent(server!.reportUrl)}${query}`)]);
    return report as unknown as WalletReport;
  } finally {
    await page.close();
  }
}

test('the extension loads: its background service worker runs at chrome-extension://<id>/', () => {
  if (setupError) throw setupError;
  assert.match(extensionId, /^[a-p]{32}$/);
});

test('the extension page mines on Web Workers under the manifest CSP, and node:crypto checks the result', async () => {
  const report = await openExtensionPage('&rateMs=500');
  checkWalletReport(report);
  assert.ok(report.workerRate > 0, 'a worker hashed');
});

test('the background service worker (no Worker there) mines on its own thread, in slices, and node:crypto checks the result', async () => {
  const report = await openExtensionPage('&on=background');
  checkWalletReport(report);
  assert.ok(report.hashes > 0);
});

test("tpkit-sw.js copied into a service worker whose CSP has 'wasm-unsafe-eval': it mines with a WebAssembly kernel", async () => {
  const mined = await mineInServiceWorker('tpkit sw wasm', 12);
  assert.is(mined.usable, true);
  assert.not.equal(mined.kernel, 'js');
  assert.ok(powBits(hexToBytes(mined.body)) >= 12, 'the body reaches the difficulty (checked here)');
});

test("tpkit-sw.js copied into a service worker whose CSP lacks 'wasm-unsafe-eval': it mines with the JS kernel and says why", async () => {
  const mined = await mineInServiceWorker('tpkit sw no-wasm', 10);
  assert.is(mined.usable, false);
  assert.is(mined.kernel, 'js');
  assert.match(mined.kernelReason, /Content Security Policy/);
  assert.ok(powBits(hexToBytes(mined.body)) >= 10, 'the body reaches the difficulty (checked here)');
});

test.run();
