// `tpkit bench --html FILE`: the same run as one self-contained page (inline SVG, no script,
// nothing fetched): the first proof, the pool's scaling, the solve-time spread against the
// geometric expectation, the tables, and the run's JSON at the end for anyone who wants it.

import type { BenchReport } from './bench-report.js';
import { geometricQuantile, spread } from './bench-charts.js';
import { formatCount, formatDuration, formatRate } from './progress.js';

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const W = 720;
const LABEL = 260;
const PLOT = W - LABEL - 110;

function bars(rows: { name: string; value: number; whisker?: number; marker?: number; text: string }[]): string {
  const max = Math.max(...rows.map((r) => Math.max(r.value, r.whisker ?? 0, r.marker ?? 0))) || 1;
  const h = rows.length * 28 + 10;
  const x = (v: number) => LABEL + (v / max) * PLOT;
  const items = rows.map((r, i) => {
    const y = 8 + i * 28;
    const whisker =
      r.whisker !== undefined
        ? `<line x1="${x(r.value)}" x2="${x(r.whisker)}" y1="${y + 9}" y2="${y + 9}" stroke="#555"/><line x1="${x(r.whisker)}" x2="${x(r.whisker)}" y1="${y + 3}" y2="${y + 15}" stroke="#555"/>`
        : '';
    const marker = r.marker !== undefined ? `<line x1="${x(r.marker)}" x2="${x(r.marker)}" y1="${y - 2}" y2="${y + 20}" stroke="#c33" stroke-dasharray="3 2"/>` : '';
    return `<text x="${LABEL - 8}" y="${y + 13}" text-anchor="end">${esc(r.name)}</text><rect x="${LABEL}" y="${y}" width="${x(r.value) - LABEL}" height="18" fill="#4a7bd0"/>${whisker}${marker}<text x="${Math.max(x(r.value), x(r.whisker ?? 0), x(r.marker ?? 0)) + 6}" y="${y + 13}">${esc(r.text)}</text>`;
  });
  return `<svg viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" font-size="12" font-family="sans-serif">${items.join('')}</svg>`;
}

function boxes(rows: { name: string; measured: number[]; expected: number[] }[]): string {
  const all = rows.flatMap((r) => [...r.measured, ...r.expected]);
  const lo = Math.max(0.01, Math.min(...all));
  const hi = Math.max(lo * 10, ...all);
  const x = (v: number) => LABEL + ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * PLOT;
  const h = rows.length * 44 + 40;
  const box = (five: number[], y: number, fill: string) => {
    const [p5, p25, p50, p75, p95] = five.map(x);
    return `<line x1="${p5}" x2="${p95}" y1="${y + 7}" y2="${y + 7}" stroke="#555"/><rect x="${p25}" y="${y}" width="${Math.max(1, p75 - p25)}" height="14" fill="${fill}"/><line x1="${p50}" x2="${p50}" y1="${y - 2}" y2="${y + 16}" stroke="#000" stroke-width="2"/>`;
  };
  const items = rows.map((r, i) => {
    const y = 10 + i * 44;
    return `<text x="${LABEL - 8}" y="${y + 12}" text-anchor="end">${esc(r.name)} measured</text>${box(r.measured, y, '#4a7bd0')}<text x="${LABEL - 8}" y="${y + 32}" text-anchor="end" fill="#777">expected</text>${box(r.expected, y + 20, '#d9a441')}`;
  });
  const ticks: string[] = [];
  for (let decade = Math.pow(10, Math.floor(Math.log10(lo))); decade <= hi; decade *= 10) {
    if (decade < lo) continue;
    ticks.push(`<line x1="${x(decade)}" x2="${x(decade)}" y1="0" y2="${h - 22}" stroke="#ddd"/><text x="${x(decade)}" y="${h - 8}" text-anchor="middle">${esc(formatDuration(decade))}</text>`);
  }
  return `<svg viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" font-size="12" font-family="sans-serif">${ticks.join('')}${items.join('')}</svg>`;
}

function table(headers: string[], rows: string[][]): string {
  return `<table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

export function renderHtml(report: BenchReport): string {
  const m = report.machine;
  const parts: string[] = [];
  parts.push(
    `<h1>tpkit bench</h1><p>${esc(report.date)} · ${esc(m.cpu)}, ${m.cores} cores · Node ${esc(m.node)} (V8 ${esc(m.v8)}) · SIMD ${m.simd ? 'on' : 'off'} · kernel ${esc(m.kernel)} · load ${m.loadAverage.start.map((l) => l.toFixed(2)).join(' ')} → ${m.loadAverage.end.map((l) => l.toFixed(2)).join(' ')}</p>`,
  );
  const f = report.firstProof;
  if (f) {
    parts.push(`<h2>First proof</h2><p>Fresh processes, difficulty ${f.difficulty}, ${f.bodies} bodies each, exec to nonce: bar the median, whisker to p90.</p>`);
    parts.push(
      bars([
        { name: 'bare node (the floor)', value: f.bareNode.medianMs, whisker: f.bareNode.p90Ms, text: `${formatDuration(f.bareNode.medianMs)} / ${formatDuration(f.bareNode.p90Ms)}` },
        ...f.contenders.map((c) => ({
          name: c.name,
          value: c.medianMs,
          whisker: c.p90Ms,
          text: `${formatDuration(c.medianMs)} / ${formatDuration(c.p90Ms)}${c.ratio === null ? '' : ` · ${c.ratio.toFixed(2)}x`}`,
        })),
      ]),
    );
  }
  if (report.throughput.length > 0) {
    const t0 = report.throughput[0];
    const one = t0.hashRate / (t0.threads * t0.efficiency);
    parts.push('<h2>Pool scaling</h2><p>Hashes per second after a warm-up; the dashed line is linear scaling from one thread.</p>');
    parts.push(
      bars(
        report.throughput.map((t) => ({
          name: `${t.threads} thread${t.threads > 1 ? 's' : ''}`,
          value: t.hashRate,
          marker: t.threads * one,
          text: `${formatRate(t.hashRate)} · ${(t.efficiency * 100).toFixed(0)}%`,
        })),
      ),
    );
  }
  const rows = report.rows.filter((r) => r.solveMs.length > 0);
  if (rows.length > 0) {
    parts.push("<h2>Time to solution</h2><p>Measured solves against the geometric expectation at the row's hash rate: box p25–p75, bar the median, whiskers p5–p95, log scale.</p>");
    parts.push(
      boxes(
        rows.map((r) => ({
          name: `difficulty ${r.difficulty}, ${r.threads} thread${r.threads > 1 ? 's' : ''}`,
          measured: spread(r.solveMs),
          expected: [0.05, 0.25, 0.5, 0.75, 0.95].map((q) => geometricQuantile(r.expected.meanMs, q)),
        })),
      ),
    );
    parts.push(
      table(
        ['difficulty', 'threads', 'solves', 'H/s', 'efficiency', 'mean', 'median', 'p95', 'expected mean'],
        rows.map((r) => [
          String(r.difficulty),
          String(r.threads),
          String(r.solves),
          formatCount(r.hashRate),
          `${(r.efficiency * 100).toFixed(0)}%`,
          formatDuration(r.measured.meanMs),
          formatDuration(r.measured.medianMs),
          formatDuration(r.measured.p95Ms),
          formatDuration(r.expected.meanMs),
        ]),
      ),
    );
  }
  if (report.baselines.length > 0) {
    parts.push('<h2>Baselines</h2>');
    parts.push(
      table(
        ['', 'H/s', 'ratio'],
        report.baselines.map((b) => [b.name, b.hashRate === null ? '-' : formatCount(b.hashRate), b.ratio === null ? (b.note ?? '1.00x') : `${b.ratio.toFixed(2)}x`]),
      ),
    );
  }
  parts.push(`<h2>The run as JSON</h2><pre>${esc(JSON.stringify(report, null, 2))}</pre>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tpkit bench ${esc(report.date)}</title>
<style>body{font:14px/1.4 sans-serif;max-width:760px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:12px}</style>
</head><body>
${parts.join('\n')}
</body></html>
`;
}
