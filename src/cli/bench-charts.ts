// The bench's charts for a terminal: bars for the first proof and for the pool's scaling, and
// for every difficulty × threads row the spread of its solve times against the geometric
// distribution the row's hash rate predicts, as box plots on one logarithmic time axis.
// Plain text (Unicode blocks), so it survives a CI log.

import type { BenchReport } from './bench-report.js';
import { formatDuration, formatRate } from './progress.js';

const WIDTH = 44;

/** Time at quantile q of the geometric time to solution with mean `meanMs` (memoryless: -ln(1 - q) · mean). */
export const geometricQuantile = (meanMs: number, q: number): number => -Math.log(1 - q) * meanMs;

/** Five-number summary used by the box plots: p5, p25, median, p75, p95. */
export function spread(values: readonly number[]): [number, number, number, number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return [at(0.05), at(0.25), at(0.5), at(0.75), at(0.95)];
}

function bar(value: number, max: number, width = WIDTH): string {
  const eighthsTotal = max > 0 ? Math.round((Math.min(value, max) / max) * width * 8) : 0;
  const full = Math.floor(eighthsTotal / 8);
  const part = eighthsTotal % 8;
  return '█'.repeat(full) + (part > 0 ? ' ▏▎▍▌▋▊▉'[part] : '');
}

/** A box plot on a log axis from lo to hi: whiskers ─, box █, median ┃. */
function box(five: readonly number[], lo: number, hi: number, width = WIDTH): string {
  const x = (v: number) => Math.max(0, Math.min(width - 1, Math.round(((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo) || 1)) * (width - 1))));
  const cells = Array.from({ length: width }, () => ' ');
  const [p5, p25, p50, p75, p95] = five.map(x);
  for (let i = p5; i <= p95; i++) cells[i] = '─';
  for (let i = p25; i <= p75; i++) cells[i] = '█';
  cells[p50] = '┃';
  return cells.join('');
}

function axis(lo: number, hi: number, width = WIDTH): string {
  const ticks = [0, Math.round((width - 1) / 2), width - 1];
  const line = Array.from({ length: width + 12 }, () => ' ');
  for (const at of ticks) {
    const value = Math.exp(Math.log(lo) + ((Math.log(hi) - Math.log(lo)) * at) / (width - 1));
    const label = formatDuration(value);
    const start = Math.min(Math.max(0, at - Math.floor(label.length / 2)), line.length - label.length);
    for (let i = 0; i < label.length; i++) line[start + i] = label[i];
  }
  return line.join('').trimEnd();
}

export function renderCharts(report: BenchReport): string {
  const out: string[] = [];
  const f = report.firstProof;
  if (f) {
    const max = Math.max(...f.contenders.map((c) => c.p90Ms), f.bareNode.p90Ms);
    const rows = [{ name: 'bare node (the floor)', medianMs: f.bareNode.medianMs, p90Ms: f.bareNode.p90Ms }, ...f.contenders];
    const label = Math.max(...rows.map((r) => r.name.length));
    out.push(`First proof, exec to nonce (█ median, ─┤ to p90):`);
    for (const r of rows) {
      const median = bar(r.medianMs, max);
      const tail = Math.max(0, Math.round((r.p90Ms / max) * WIDTH) - median.length);
      out.push(`  ${r.name.padEnd(label)}  ${(median + '─'.repeat(tail) + '┤').padEnd(WIDTH + 1)} ${formatDuration(r.medianMs)} / ${formatDuration(r.p90Ms)}`);
    }
  }
  if (report.throughput.length > 0) {
    const one = report.throughput[0].hashRate / (report.throughput[0].threads * report.throughput[0].efficiency);
    const max = Math.max(...report.throughput.map((t) => Math.max(t.hashRate, t.threads * one)));
    if (out.length) out.push('');
    out.push('Pool scaling, H/s (┆ marks linear scaling from one thread):');
    for (const t of report.throughput) {
      const cells = bar(t.hashRate, max).padEnd(WIDTH).split('');
      const ideal = Math.min(WIDTH - 1, Math.round(((t.threads * one) / max) * WIDTH) - 1);
      if (ideal >= 0 && cells[ideal] === ' ') cells[ideal] = '┆';
      out.push(`  ${String(t.threads).padStart(3)} thread${t.threads > 1 ? 's' : ' '}  ${cells.join('')} ${formatRate(t.hashRate)}  ${(t.efficiency * 100).toFixed(0)}%`);
    }
  }
  const rows = report.rows.filter((r) => r.solveMs.length > 0);
  if (rows.length > 0) {
    const all = rows.flatMap((r) => [...spread(r.solveMs), geometricQuantile(r.expected.meanMs, 0.05), geometricQuantile(r.expected.meanMs, 0.95)]);
    const lo = Math.max(0.01, Math.min(...all));
    const hi = Math.max(lo * 10, ...all);
    if (out.length) out.push('');
    out.push("Time to solution: measured solves against the geometric expectation at the row's H/s");
    out.push('(box p25–p75, ┃ median, whiskers p5–p95, log scale):');
    out.push(`  ${''.padEnd(20)}${axis(lo, hi)}`);
    for (const r of rows) {
      const name = `d${r.difficulty} ×${r.threads}`;
      const expected = [0.05, 0.25, 0.5, 0.75, 0.95].map((q) => geometricQuantile(r.expected.meanMs, q));
      out.push(`  ${`${name} measured`.padEnd(20)}${box(spread(r.solveMs), lo, hi)}`);
      out.push(`  ${'    expected'.padEnd(20)}${box(expected, lo, hi)}`);
    }
  }
  return out.join('\n');
}
