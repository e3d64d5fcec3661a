// The Manifest V3 wallet extension (examples/extension), built from the packed package and
// loaded unpacked into Chromium (--load-extension works in the new headless mode): its page
// mines on Web Workers (a blob: worker of the self-contained tpkit/browser: the manifest's
// extension CSP allows it), and its background service worker, which has no Worker, mines on
// its own thread in slices; both outcomes are checked with node:crypto.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM_FLAGS, requireChromium } from '../helpers/browser-harness.js';
import { installExamples, PROJECT, run } from '../helpers/examples.js';
import { startExampleServer, type ExampleServer } from '../helpers/example-server.js';
import { checkWalletReport, type WalletReport } from '../helpers/wallet-report.js';

const profile = mkdtempSync(join(tmpdir(), 'tpkit-extension-'));
let server: ExampleServer | undefined;
let context: BrowserContext | undefined;
let extensionId = '';
let setupError: unknown;

test.before(async () => {
  try {
    installExamples();
    run(process.execPath, ['extension/build.mjs'], PROJECT);
    server = await startExampleServer();
    const dir = join(PROJECT, 'extension');
    context = await chromium.launchPersistentContext(profile, {
      executablePath: requireChromium(),
      headless: true,
      args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`],
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    extensionId = new URL(worker.url()).host;
  } catch (err) {
    setupError = err;
  }
});

test.after(async () => {
  await context?.close();
  await server?.close();
  rmSync(profile, { recursive: true, force: true });
});

async function openExtensionPage(query: string): Promise<WalletReport> {
  if (setupError) throw setupError;
  const page = await context!.newPage();
  try {
    const [report] = await Promise.all([
      server!.nextReport(),
      page.goto(`chrome-extension://${extensionId}/wallet.html?report=${encodeURIComponent(server!.reportUrl)}${query}`),
    ]);
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

test.run();
