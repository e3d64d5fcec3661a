// One engine's column of the bundler matrix (test/e2e/bundlers-<engine>.test.ts): the wallet
// page (examples/wallet.js) as each bundler builds it from the packed package, with no plugin
// and no copied file, opened in the engine. Every cell mines a difficulty-16 register body
// and signs two transactions, checked with node:crypto (wallet-report.ts), and measures its
// miner's rate on one worker; Node's rate on one thread (examples/runtime/wallet.mjs, the
// packed package root) is measured before every cell and after the last, and a cell's ratio
// is against the mean of the two around it, so both see the same machine load. Also a strict
// Content-Security-Policy with and without worker-src blob:. The builds are made by the
// first file that needs them and kept (examples.ts). The column is printed, and written as
// JSON to TPKIT_E2E_MATRIX_DIR/<engine>.json when that is set.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openEngine, type Engine, type EngineName } from './browsers.js';
import { BUILDS, PROJECT, buildLeanWithEsbuild, installExamples, markBuilt, reuseBuilds, run, type BuiltPage } from './examples.js';
import { startExampleServer, type ExampleServer } from './example-server.js';
import { checkWalletReport, type WalletReport } from './wallet-report.js';

export interface MatrixCell {
  row: string;
  engine: string;
  workerRate: number;
  nodeBefore: number;
  nodeAfter: number;
}

/** The packed package root in Node, in the examples' project: the reference rate of one miner thread. */
export function nodeReport(): WalletReport {
  return JSON.parse(run(process.execPath, ['runtime/wallet.mjs'], PROJECT)) as WalletReport;
}

/** The built pages by row, built here unless the cache holds builds of this tarball. */
function buildAll(): Map<string, BuiltPage | Error> {
  const { fresh, stamp } = installExamples();
  reuseBuilds(!fresh);
  const built = new Map<string, BuiltPage | Error>();
  for (const [row, build] of Object.entries(BUILDS)) {
    try {
      built.set(row, build());
    } catch (err) {
      built.set(row, err as Error);
    }
  }
  try {
    built.set(LEAN_ROW, buildLeanWithEsbuild());
  } catch (err) {
    built.set(LEAN_ROW, err as Error);
  }
  if (fresh && [...built.values()].every((b) => !(b instanceof Error))) markBuilt(stamp);
  return built;
}

const LEAN_ROW = 'esbuild --bundle, tpkit/browser/lean';

/** A strict policy: the page's origin only, plus what the self-contained entry needs. */
export const strictCsp = (workers: string) => ({
  'content-security-policy': `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src ${workers}; connect-src 'self'`,
});

/** The uvu tests of one engine's column. */
export function defineMatrix(name: EngineName): void {
  let built = new Map<string, BuiltPage | Error>();
  let server: ExampleServer | undefined;
  let engine: Engine | undefined;
  let setupError: unknown;
  const cells: MatrixCell[] = [];
  let nodeRate = NaN;

  test.before(async () => {
    try {
      built = buildAll();
      server = await startExampleServer();
      engine = await openEngine(name);
    } catch (err) {
      setupError = err;
    }
  });

  test.after(async () => {
    await engine?.close();
    await server?.close();
    const version = engine?.version ?? name;
    console.log(`\n${version}: one worker's rate against one Node thread's in the same run`);
    for (const cell of cells) console.log(`  ${cell.row.padEnd(30)} ${(cell.workerRate / 1e6).toFixed(2)} MH/s  ${((2 * cell.workerRate) / (cell.nodeBefore + cell.nodeAfter)).toFixed(2)}x`);
    if (process.env.TPKIT_E2E_MATRIX_DIR) {
      mkdirSync(process.env.TPKIT_E2E_MATRIX_DIR, { recursive: true });
      writeFileSync(join(process.env.TPKIT_E2E_MATRIX_DIR, `${name}.json`), JSON.stringify({ version, cells }, null, 2));
    }
  });

  const ready = (): { server: ExampleServer; engine: Engine } => {
    if (setupError) throw setupError;
    return { server: server!, engine: engine! };
  };
  const page = (row: string): BuiltPage => {
    ready();
    const result = built.get(row);
    if (!result || result instanceof Error) throw new Error(`${row} did not build: ${result instanceof Error ? result.message : 'missing'}`);
    return result;
  };
  /** Node's rate now; the previous cell's "after". */
  const measureNode = () => {
    const report = nodeReport();
    checkWalletReport(report);
    assert.ok(report.workerRate > 0, 'a Node thread hashed');
    nodeRate = report.workerRate;
    const previous = cells[cells.length - 1];
    if (previous && Number.isNaN(previous.nodeAfter)) previous.nodeAfter = nodeRate;
  };
  const open = async (built: BuiltPage, headers: Record<string, string>, query: string): Promise<WalletReport> => {
    const { server, engine } = ready();
    server.serve(built.dir, headers);
    const [report] = await Promise.all([server.nextReport(), engine.open(`${server.url}/${built.page}?${query}`)]);
    return report as unknown as WalletReport;
  };

  for (const row of Object.keys(BUILDS)) {
    test(`${name}: ${row} builds the wallet page; it mines difficulty 16 and signs, and node:crypto agrees`, async () => {
      const built = page(row);
      measureNode();
      const report = await open(built, {}, `report=${encodeURIComponent(server!.reportUrl)}`);
      checkWalletReport(report);
      // The rate is a figure for the table (a worker that hashes slower than one progress
      // report in the window reads 0), not a pass mark: the wallet's work is what is checked.
      cells.push({ row, engine: engine!.version, workerRate: report.workerRate, nodeBefore: nodeRate, nodeAfter: NaN });
    });
  }

  test(`${name}: the lean entry through esbuild (no files copied) fails with WASM_UNAVAILABLE naming the file, its URL and the fix`, async () => {
    const report = await open(page(LEAN_ROW), {}, `report=${encodeURIComponent(server!.reportUrl)}&rateMs=500`);
    assert.is(report.ok, false, JSON.stringify(report));
    assert.is(report.code, 'WASM_UNAVAILABLE', JSON.stringify(report));
    const details = report.details ?? '';
    assert.match(details, /(miner-worker\.js|tpkit-(scalar|simd)\.wasm) from http:\/\/127\.0\.0\.1:\d+\/dist-lean\//);
    assert.match(details, /answered 404/);
    assert.match(details, /use the entry tpkit\/browser/);
    console.log(`  ${name}: ${report.message}`);
  });

  test(`${name}: Node's rate after the last page`, () => {
    ready();
    measureNode();
  });

  test(`${name}: under a strict CSP with worker-src blob: the self-contained entry mines on its workers`, async () => {
    // The report goes to the page's own origin: connect-src 'self'.
    const report = await open(page('esbuild --bundle'), strictCsp("'self' blob:"), 'report=%2Fresult&rateMs=500');
    checkWalletReport(report);
    assert.ok(report.workerRate > 0, 'a blob: worker hashed');
  });

  test(`${name}: a CSP without blob: for workers: WASM_UNAVAILABLE naming worker-src blob:, no hang`, async () => {
    // The page's own thread may find a difficulty-16 nonce before the refusal arrives; the
    // one-worker rate that follows has no page thread and must fail.
    const report = await open(page('esbuild --bundle'), strictCsp("'self'"), 'report=%2Fresult&rateMs=500');
    assert.is(report.ok, false, JSON.stringify(report));
    assert.is(report.code, 'WASM_UNAVAILABLE', JSON.stringify(report));
    assert.match(report.details ?? '', /worker-src blob:/);
  });
}
