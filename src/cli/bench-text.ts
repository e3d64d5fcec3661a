// `tpkit bench`'s report as text tables: machine, miner support, baselines, first proof,
// pool throughput and the difficulty sweep (the charts are bench-charts.ts).
import type { KernelName } from '../pow/kernel.js';
import type { BenchReport } from './bench-report.js';
import { renderSupport } from './bench-support.js';
import { formatCount, formatDuration } from './progress.js';

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function table(headers: string[], rows: string[][], rightFrom = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i], i >= rightFrom)).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** "simd 80%, scalar 20%": the share of hashes each kernel did. */
function kernelShares(byKernel: Partial<Record<KernelName, number>>): string {
  const entries = (Object.entries(byKernel) as [KernelName, number][]).sort((a, b) => b[1] - a[1]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return entries.map(([name, n]) => `${name} ${Math.round((n / total) * 100)}%`).join(', ');
}

export function renderText(report: BenchReport): string {
  const m = report.machine;
  const out: string[] = [];
  out.push(`Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node} (V8 ${m.v8}), ${m.platform}/${m.arch}`);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  out.push(`WASM SIMD: ${m.simd ? 'on' : 'off'}; miner kernel: ${m.kernel}${m.kernel === 'auto' ? ' (each thread keeps the faster of its WASM kernels)' : ''}`);
  out.push(`Load average (1/5/15 min): ${load(m.loadAverage.start)} at start, ${load(m.loadAverage.end)} at end`);
  out.push('', 'Miner support (minerSupport()):', ...renderSupport(report.support));
  if (report.baselines.length > 0) {
    out.push('', 'Baselines (one thread, SHA-512 of one 128-byte block):');
    out.push(
      table(
        ['', 'H/s', `ratio to ${report.baselines[0].reference.split(' ')[0]}`],
        report.baselines.map((b) => [b.name, b.hashRate === null ? '-' : formatCount(b.hashRate), b.ratio === null ? (b.hashRate === null ? (b.note ?? '-') : '1.00x') : `${b.ratio.toFixed(2)}x`]),
      ),
    );
  }
  if (report.firstProof) {
    const f = report.firstProof;
    const ms = (x: number | undefined) => (x === undefined ? '-' : formatDuration(x));
    out.push('', `First proof: fresh processes, difficulty ${f.difficulty}, ${f.bodies} bodies, exec to nonce (bare node: median ${ms(f.bareNode.medianMs)}):`);
    out.push(
      table(
        ['', 'median', 'p90', `ratio to node:crypto`, 'same body', 'import', 'mineRegister call', 'p90'],
        f.contenders.map((c) => [
          c.name,
          ms(c.medianMs),
          ms(c.p90Ms),
          c.ratio === null ? '-' : `${c.ratio.toFixed(2)}x`,
          c.pairedRatio === null ? '-' : `${c.pairedRatio.toFixed(2)}x`,
          ms(c.importMedianMs),
          ms(c.mineMedianMs),
          ms(c.mineP90Ms),
        ]),
      ),
    );
  }
  if (report.throughput.length > 0) {
    out.push('', 'Miner pool throughput (after a warm-up):');
    out.push(
      table(
        ['threads', 'H/s total', 'H/s per thread', 'efficiency', 'window'],
        report.throughput.map((t) => [
          String(t.threads),
          formatCount(t.hashRate),
          formatCount(t.perThread),
          `${(t.efficiency * 100).toFixed(0)}%`,
          t.windowMs > report.options.durationMs ? `${t.windowMs} ms (--duration saw no hash)` : `${t.windowMs} ms`,
        ]),
      ),
    );
  }
  if (report.rows.length > 0) {
    out.push('', "Time to solution (measured over repeated solves / expected at the row's H/s):");
    out.push(
      table(
        ['difficulty', 'threads', 'solves', 'H/s total', 'H/s/thread', 'eff.', 'mean', 'median', 'p95', 'kernels'],
        report.rows.map((r) => [
          String(r.difficulty),
          String(r.threads),
          String(r.solves),
          formatCount(r.hashRate),
          formatCount(r.perThread),
          `${(r.efficiency * 100).toFixed(0)}%`,
          `${formatDuration(r.measured.meanMs)} / ${formatDuration(r.expected.meanMs)}`,
          `${formatDuration(r.measured.medianMs)} / ${formatDuration(r.expected.medianMs)}`,
          `${formatDuration(r.measured.p95Ms)} / ${formatDuration(r.expected.p95Ms)}`,
          kernelShares(r.byKernel),
        ]),
      ),
    );
  }
  return out.join('\n');
}
