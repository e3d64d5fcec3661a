// Vite's dev server, no config: it pre-bundles dependencies into /node_modules/.vite/deps/,
// where files beside a package are lost. The wallet page (examples/vite) must mine there
// with no failed request, and the page's own thread must hash (its kernels load).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openEngine, type Engine } from '../helpers/browsers.js';
import { installExamples, PROJECT } from '../helpers/examples.js';
import { startExampleServer, type ExampleServer } from '../helpers/example-server.js';
import { checkWalletReport, type WalletReport } from '../helpers/wallet-report.js';

let server: ExampleServer | undefined;
let engine: Engine | undefined;
let setupError: unknown;

test.before(async () => {
  try {
    // The project installed as the matrix installs it (the dev server builds nothing to keep).
    installExamples();
    server = await startExampleServer();
    engine = await openEngine('chromium');
  } catch (err) {
    setupError = err;
  }
});

test.after(async () => {
  await engine?.close();
  await server?.close();
});

test('Vite dev server: the page mines with no failed request, and its own thread hashes', async () => {
  if (setupError) throw setupError;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const vite = spawn(join(PROJECT, 'node_modules', '.bin', 'vite'), ['--port', String(port), '--strictPort', '--host', '127.0.0.1', '--force'], {
    cwd: join(PROJECT, 'vite'),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  vite.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  vite.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (let waited = 0; !output.includes(String(port)); waited += 100) {
      if (waited > 60_000) throw new Error(`vite did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [report] = (await Promise.all([server!.nextReport(), engine!.open(`http://127.0.0.1:${port}/?report=${encodeURIComponent(server!.reportUrl)}&rateMs=500`)])) as unknown as WalletReport[];
    checkWalletReport(report);
    assert.equal(engine!.failedRequests(), []);
    assert.ok(report.callingThreadHashes > 0, `the page's thread hashed ${report.callingThreadHashes}`);
    assert.ok(report.workerRate > 0, 'a worker hashed');
  } finally {
    if (vite.pid) process.kill(-vite.pid, 'SIGTERM');
  }
});

test.run();
