// The wallet page (examples/wallet.js) as each mainstream bundler builds it from the packed
// package, with no plugin and no copied file, opened in Chromium, Firefox ESR and WebKit:
// every cell mines a difficulty-16 register body and signs two transactions, checked with
// node:crypto (helpers/wallet-report.ts), and reports its miner's rate on one worker beside
// Node's in the same run (examples/runtime/wallet.mjs). Also: Vite's dev server (no failed
// request, the page's own thread hashes), and a strict Content-Security-Policy with and
// without worker-src blob:. The matrix is printed, and written to TPKIT_E2E_MATRIX if set.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ENGINES, openEngine, type Engine, type EngineName } from '../helpers/browsers.js';
import { BUILDS, PROJECT, installExamples, run, type BuiltPage } from '../helpers/examples.js';
import { startExampleServer, type ExampleServer } from '../helpers/example-server.js';
import { checkWalletReport, type WalletReport } from '../helpers/wallet-report.js';

interface Cell {
  engine: EngineName;
  version: string;
  row: string;
  kernel: string;
  workerRate: number;
  nodeRate: number;
}

const built = new Map<string, BuiltPage | Error>();
const cells: Cell[] = [];
const nodeRates: number[] = [];
let server: ExampleServer;
let setupError: unknown;

/** The package root in Node, in the same project: the reference rate of one miner thread. */
function nodeReport(): WalletReport {
  return JSON.parse(run(process.execPath, ['runtime/wallet.mjs'], PROJECT)) as WalletReport;
}

test.before(async () => {
  try {
    installExamples();
    for (const [row, build] of Object.entries(BUILDS)) {
      try {
        built.set(row, build());
      } catch (err) {
        built.set(row, err as Error);
      }
    }
    server = await startExampleServer();
  } catch (err) {
    setupError = err;
  }
});

test.after(async () => {
  await server?.close();
  const table = formatMatrix();
  console.log(table);
  if (process.env.TPKIT_E2E_MATRIX) writeFileSync(process.env.TPKIT_E2E_MATRIX, JSON.stringify({ cells, nodeRates, builds: [...built].map(([row, b]) => ({ row, buildMs: b instanceof Error ? null : b.buildMs })) }, null, 2));
});

function formatMatrix(): string {
  const rows = [...new Set(cells.map((c) => c.row))];
  const engines = [...new Set(cells.map((c) => c.engine))];
  const head = `| page | ${engines.map((e) => cells.find((c) => c.engine === e)?.version ?? e).join(' | ')} |`;
  const lines = rows.map((row) => {
    const values = engines.map((engine) => {
      const cell = cells.find((c) => c.row === row && c.engine === engine);
      return cell ? `${(cell.workerRate / cell.nodeRate).toFixed(2)}x (${cell.kernel})` : '-';
    });
    return `| ${row} | ${values.join(' | ')} |`;
  });
  return [head, `|---|${engines.map(() => '---').join('|')}|`, ...lines].join('\n');
}

test('Node reference: the packed package root mines, signs and measures a thread', () => {
  if (setupError) throw setupError;
  const report = nodeReport();
  checkWalletReport(report);
  assert.ok(report.workerRate > 0);
  nodeRates.push(report.workerRate);
});

for (const row of Object.keys(BUILDS)) {
  test(`${row} builds the wallet page with no plugin and no copied file`, () => {
    if (setupError) throw setupError;
    const result = built.get(row);
    if (result instanceof Error) throw result;
    assert.ok(result, `${row} was built`);
  });
}

/** The engine in use, opened on first need and closed when the next one starts. */
let engine: Engine | undefined;
async function use(name: EngineName): Promise<Engine> {
  if (engine?.name === name) return engine;
  await engine?.close();
  engine = undefined;
  engine = await openEngine(name);
  return engine;
}

/** Opens a built page (`query` added) in `name` and returns its report. */
async function runPage(name: EngineName, page: BuiltPage, headers: Record<string, string> = {}, query = ''): Promise<WalletReport> {
  const browser = await use(name);
  server.serve(page.dir, headers);
  const url = `${server.url}/${page.page}?report=${encodeURIComponent(server.reportUrl)}${query}`;
  const [report] = await Promise.all([server.nextReport(), browser.open(url)]);
  return report as unknown as WalletReport;
}

function builtPage(row: string): BuiltPage {
  if (setupError) throw setupError;
  const page = built.get(row);
  if (!page || page instanceof Error) throw new Error(`${row} did not build: ${page instanceof Error ? page.message.slice(0, 300) : 'missing'}`);
  return page;
}

/** A strict policy: scripts and workers of the page's origin only, plus what the self-contained entry needs. */
const strictCsp = (workers: string) => ({
  'content-security-policy': `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src ${workers}; connect-src 'self'`,
});

for (const name of ENGINES) {
  test(`${name}: Node's rate in this run, measured before the ${name} pages`, () => {
    if (setupError) throw setupError;
    const report = nodeReport();
    checkWalletReport(report);
    nodeRates.push(report.workerRate);
  });

  for (const row of Object.keys(BUILDS)) {
    test(`${name}: the ${row} page mines difficulty 16 and signs; node:crypto agrees`, async () => {
      const report = await runPage(name, builtPage(row));
      checkWalletReport(report);
      const nodeRate = nodeRates[nodeRates.length - 1];
      cells.push({ engine: name, version: engine!.version, row, kernel: report.kernel, workerRate: report.workerRate, nodeRate });
      assert.ok(report.workerRate > 0, 'one worker hashed');
    });
  }

  test(`${name}: under a strict CSP with worker-src blob: the self-contained entry mines`, async () => {
    // The report goes to the page's own origin here: connect-src 'self'.
    const page = builtPage('esbuild --bundle');
    server.serve(page.dir, strictCsp("'self' blob:"));
    const browser = await use(name);
    const [report] = await Promise.all([server.nextReport(), browser.open(`${server.url}/${page.page}?report=%2Fresult&rateMs=0`)]);
    checkWalletReport(report as unknown as WalletReport);
  });

  test(`${name}: a CSP without blob: for workers fails with WASM_UNAVAILABLE naming worker-src blob:`, async () => {
    const page = builtPage('esbuild --bundle');
    server.serve(page.dir, strictCsp("'self'"));
    const browser = await use(name);
    const [report] = (await Promise.all([server.nextReport(), browser.open(`${server.url}/${page.page}?report=%2Fresult&rateMs=0`)])) as unknown as WalletReport[];
    assert.is(report.ok, false, 'the search fails: no worker can start, and the page does not hang');
    assert.is(report.code, 'WASM_UNAVAILABLE', JSON.stringify(report));
    assert.match(report.details ?? '', /blob:/);
    assert.match(report.details ?? '', /worker-src blob:/);
  });
}

test('Vite dev server: the page mines with no failed request, and its own thread hashes', async () => {
  if (setupError) throw setupError;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const dir = join(PROJECT, 'vite');
  const vite = spawn(join(PROJECT, 'node_modules', '.bin', 'vite'), ['--port', String(port), '--strictPort', '--host', '127.0.0.1'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  vite.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  vite.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (let waited = 0; !output.includes(`${port}`); waited += 100) {
      if (waited > 60_000) throw new Error(`vite dev did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const browser = await use('chromium');
    const [report] = (await Promise.all([server.nextReport(), browser.open(`http://127.0.0.1:${port}/?report=${encodeURIComponent(server.reportUrl)}&rateMs=0`)])) as unknown as WalletReport[];
    checkWalletReport(report);
    assert.equal(browser.failedRequests(), []);
    assert.ok(report.callingThreadHashes > 0, `the page's thread hashed ${report.callingThreadHashes}`);
  } finally {
    if (vite.pid) process.kill(-vite.pid, 'SIGTERM');
  }
});

test('the engines close', async () => {
  await engine?.close();
  engine = undefined;
});

test.run();
