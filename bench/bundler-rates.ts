// `node dist/bench/bundler-rates.js [--rounds R] [--ms MS] [--engines chromium,firefox,webkit] [--rows REGEX]`:
// the miner's rate on one worker in each bundler's wallet page (examples/, built from the
// packed package as test/e2e builds it) in Chromium, Firefox ESR and WebKitGTK, beside one
// Node thread's rate (the packed package root, examples/runtime/wallet.mjs) in the same run.
// Node and page alternate, R rounds each, so both see the same machine load; a cell's figure
// is the median over the rounds of page / mean(Node before, Node after). Goal: >= 0.9x.
// Deno and Bun are measured the same way (one thread each). Prints one Markdown table.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINES, openEngine, type EngineName } from '../test/helpers/browsers.js';
import { BUILDS, PROJECT, installExamples, markBuilt, reuseBuilds, run, type BuiltPage } from '../test/helpers/examples.js';
import { startExampleServer } from '../test/helpers/example-server.js';
import { checkWalletReport, type WalletReport } from '../test/helpers/wallet-report.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    ms: { type: 'string', default: '3000' },
    engines: { type: 'string', default: ENGINES.join(',') },
    rows: { type: 'string', default: '' },
  },
});
const rounds = Number(values.rounds);
const rateMs = Number(values.ms);
const engines = values.engines.split(',') as EngineName[];
const rowFilter = new RegExp(values.rows);
if (!(rounds >= 1) || !(rateMs >= 1000)) throw new Error('--rounds expected >= 1, --ms >= 1000');
for (const name of engines) if (!ENGINES.includes(name)) throw new Error(`--engines: unknown engine ${name}`);

const nodeRate = (): number => {
  const report = JSON.parse(run(process.execPath, ['runtime/wallet.mjs'], PROJECT, 120_000)) as WalletReport;
  return report.workerRate;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** page / mean(Node before, Node after), per round; the median. */
async function ratio(measure: () => Promise<number>): Promise<{ ratio: number; rate: number }> {
  const ratios: number[] = [];
  const rates: number[] = [];
  let before = nodeRate();
  for (let round = 0; round < rounds; round++) {
    const rate = await measure();
    const after = nodeRate();
    ratios.push((2 * rate) / (before + after));
    rates.push(rate);
    before = after;
  }
  return { ratio: median(ratios), rate: median(rates) };
}

const { fresh, stamp } = installExamples();
reuseBuilds(!fresh);
const pages = new Map<string, BuiltPage>();
for (const [row, build] of Object.entries(BUILDS)) if (rowFilter.test(row)) pages.set(row, build());
if (fresh && pages.size === Object.keys(BUILDS).length) markBuilt(stamp);

const server = await startExampleServer();
const table = new Map<string, Map<string, string>>();
const versions: string[] = [];
for (const name of engines) {
  const engine = await openEngine(name);
  versions.push(engine.version);
  for (const [row, page] of pages) {
    const figure = await ratio(async () => {
      server.serve(page.dir);
      const url = `${server.url}/${page.page}?report=${encodeURIComponent(server.reportUrl)}&rateMs=${rateMs}`;
      const [report] = (await Promise.all([server.nextReport(), engine.open(url)])) as unknown as WalletReport[];
      checkWalletReport(report);
      return report.workerRate;
    });
    if (!table.has(row)) table.set(row, new Map());
    table.get(row)!.set(engine.version, `${figure.ratio.toFixed(2)}x (${(figure.rate / 1e6).toFixed(2)} MH/s)`);
    console.error(`${engine.version} ${row}: ${figure.ratio.toFixed(2)}x`);
  }
  await engine.close();
}
await server.close();

const runtimes: Record<string, string[]> = {
  Deno: ['@deno/linux-x64-glibc/deno', 'run', '-A', '--node-modules-dir=manual', 'runtime/wallet.mjs'],
  Bun: ['@oven/bun-linux-x64/bin/bun', 'runtime/wallet.mjs'],
};
const runtimeFigures: string[] = [];
for (const [name, [exe, ...args]] of Object.entries(runtimes)) {
  let path = join(PROJECT, 'node_modules', exe);
  if (name === 'Bun' && !(existsSync(path) && statSync(path).size > 1_000_000)) path = join(PROJECT, 'node_modules', 'bun', 'bin', 'bun.exe');
  const figure = await ratio(async () => {
    const report = JSON.parse(run(path, args, PROJECT, 120_000).trim().split('\n').pop()!) as WalletReport;
    checkWalletReport(report);
    return report.workerRate;
  });
  runtimeFigures.push(`| ${name} (one thread) | ${figure.ratio.toFixed(2)}x (${(figure.rate / 1e6).toFixed(2)} MH/s) |`);
}

console.log(`One miner worker against one Node thread, median of ${rounds} alternating rounds of ${rateMs} ms`);
console.log(`| page | ${versions.join(' | ')} |`);
console.log(`|---|${versions.map(() => '---').join('|')}|`);
for (const [row, cells] of table) console.log(`| ${row} | ${versions.map((v) => cells.get(v) ?? '-').join(' | ')} |`);
console.log('\n| runtime | against Node |\n|---|---|');
for (const line of runtimeFigures) console.log(line);
