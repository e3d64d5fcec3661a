// `tpkit bench`: how fast this machine mines register bodies, against the obvious
// alternatives, in one run.
//
// 1. Baselines, one thread, SHA-512 of a one-block (80-byte) message: `openssl speed
//    -evp sha512 -bytes 80` (when openssl is installed), a node:crypto loop, an
//    @noble/hashes loop, and tpkit's own kernels (WASM hybrid, two-lane SIMD, scalar, JS)
//    mining an 80-byte body. Each is printed as a ratio to openssl (else node:crypto).
// 2. First proof: fresh processes (tpkit/mine, the root by import and by require), each mining one register proof at --first-difficulty
//    (default 16) with the documented defaults, exec to nonce, median and p90 over
//    --first-proofs bodies (default 10), beside a plain node:crypto loop in fresh processes
//    on the same bodies in the same run (bench-first-proof.ts).
// 3. Throughput of the miner pool for each thread count, after the pool is warmed: hashes
//    per second over --duration ms, and the scaling efficiency rate(T) / (T · rate(1)).
// 4. The difficulty sweep: for every difficulty × thread count, --repeats real solves of
//    random 66-byte bodies (the size of a one-key register body), with the measured
//    mean / median / p95 time to solution next to the geometric expectation at the
//    row's own hash rate.
//
// --json prints one object (schema "tpkit-bench/1"):
//   { schema, date, machine: { cpu, cores, node, v8, platform, arch, simd, kernel,
//       loadAverage: { start, end } },                                  // 1/5/15-minute load averages
//     support: MinerSupport,                        // minerSupport() at --first-difficulty (src/pow/support.ts)
//     options: { difficulties, threads, repeats, durationMs, rounds, kernel },
//     baselines: [{ name, hashRate, ratio, reference, note? }],        // hashes/s, one thread,
//                                          // medians over rounds; ratio: median per-round ratio
//     firstProof: { difficulty, bodies, bareNode: { samplesMs, medianMs, p90Ms },
//       contenders: [{ name, samplesMs, medianMs, p90Ms, ratio,        // ratio: median over node:crypto's
//                      pairedRatio,                   // median of per-body ratios (same nonces)
//                      importMedianMs?, mineMedianMs?, mineP90Ms? }] } | null,
//     throughput: [{ threads, hashRate, perThread, efficiency, windowMs }], // efficiency vs 1 thread
//     rows: [{ difficulty, threads, solves, hashes, hashRate, perThread, efficiency,
//              measured: { meanMs, medianMs, p95Ms }, expected: { meanMs, medianMs, p95Ms },
//              byKernel: { hybrid?, simd?, scalar?, js? },                    // hashes done by each kernel
//              solveMs: [..] }] }                                              // every solve's time
// Rates are hashes per second. Efficiency is always a number: the one-thread rate it is
// measured against is measured even when --threads leaves one thread out. A throughput
// window too short to see any hash is lengthened, and windowMs says by how much. Ratio is
// null for the reference itself or when a baseline could not run.

import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { estimateMining } from '../pow/estimate.js';
import { availableKernels, checkKernelChoice, createKernel, type KernelName } from '../pow/kernel.js';
import type { KernelChoice } from '../pow/search-task.js';
import { mineBody } from '../pow/mine-body.js';
import { createMinerPool } from '../pow/pool.node.js';
import { searchNonce } from '../pow/search.js';
import { minerSupport } from '../pow/support.js';
import { renderSupport } from './bench-support.js';
import { simdSupported } from '../wasm/kernel.js';
import { measureFirstProofs, percentile } from './bench-first-proof.js';
import { renderCharts } from './bench-charts.js';
import { renderHtml } from './bench-html.js';
import { writeFileSync } from 'node:fs';
import type { BenchBaseline, BenchReport, Quantiles } from './bench-report.js';
import { Progress, formatCount, formatDuration } from './progress.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit bench [options]

Measures SHA-512 register mining on this machine: baselines (openssl, node:crypto,
@noble/hashes, tpkit's WASM hybrid / SIMD / scalar and JS kernels), pool throughput per
thread count, and time to solution for each difficulty and thread count.

Options:
  --difficulties LIST  difficulties to solve (default 8,12,16,20,24)
  --threads LIST       thread counts (default 1..cores)
  --repeats N          solves per difficulty and thread count (default 10)
  --duration MS        measuring time of each baseline and throughput run (default 1000)
  --rounds N           baseline rounds; rates and ratios are medians over rounds (default 3)
  --kernel NAME        auto, hybrid, simd, scalar or js (default auto: the fastest measured here)
  --first-proofs N     fresh processes mining one proof each, per contender (default 10, 0 skips)
  --first-difficulty D difficulty of those proofs (default 16, the network's register difficulty)
  --no-baselines       skip the baselines
  --no-charts          print the tables without the charts
  --html FILE          also write the run as a page with charts
  --json               print the results as JSON (schema in src/cli/bench.ts)
  -h, --help           show this help

A short run for CI: tpkit bench --difficulties 8,12 --threads 1 --repeats 3 --duration 200 --rounds 1 --first-proofs 0`;

function parseList(text: string, label: string, min: number, max: number): number[] {
  const values = text.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < min || v > max)) {
    throw new ArgumentError(`--${label} expected a comma-separated list of integers ${min}..${max}, got '${text}'`);
  }
  return [...new Set(values)];
}

function parsePositive(text: string, label: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new ArgumentError(`--${label} expected a positive integer, got '${text}'`);
  return value;
}

function quantiles(values: number[]): Quantiles {
  return { meanMs: values.reduce((a, b) => a + b, 0) / values.length, medianMs: percentile(values, 0.5), p95Ms: percentile(values, 0.95) };
}

/** Runs `step(n)` (hashing n messages) in growing batches for `durationMs`; returns hashes per second. */
function loopRate(durationMs: number, step: (n: number) => void): number {
  step(64); // warm-up
  let batch = 64;
  let hashes = 0;
  const began = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    step(batch);
    hashes += batch;
    elapsed = performance.now() - began;
    if (elapsed < durationMs / 20) batch *= 2;
  }
  return (hashes / elapsed) * 1000;
}

/** `openssl speed -evp sha512 -bytes 80`: SHA-512 messages per second, or null with the reason. */
function opensslRate(durationMs: number): { rate: number | null; note?: string } {
  const seconds = String(Math.max(1, Math.round(durationMs / 1000)));
  const result = spawnSync('openssl', ['speed', '-seconds', seconds, '-evp', 'sha512', '-bytes', '80'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) return { rate: null, note: `openssl not available (${result.error.message})` };
  // The result line: "sha512   244770.83k" (1000s of bytes per second at 80 bytes).
  const match = /^sha512\s+([\d.]+)k\s*$/m.exec(result.stdout ?? '');
  if (!match) return { rate: null, note: 'could not parse openssl speed output' };
  return { rate: (Number(match[1]) * 1000) / 80 };
}

/** A baseline: a name and a function measuring its hashes per second (null: cannot run here). */
interface Contender {
  name: string;
  measure: (durationMs: number) => { rate: number | null; note?: string };
}

function kernelContender(name: KernelName): Contender {
  const label = `tpkit ${name} kernel, 80 B body`;
  if (!availableKernels().includes(name)) {
    return { name: label, measure: () => ({ rate: null, note: 'not supported by this engine' }) };
  }
  const kernel = createKernel(name);
  kernel.init(randomBytes(80));
  let nonce = 0n;
  let warm = false;
  const hash = (n: number) => {
    // Difficulty 64 qualifies with probability 2^-64: every nonce is hashed.
    kernel.search(nonce, n, 64);
    nonce += BigInt(n);
  };
  return {
    name: label,
    measure: (durationMs) => {
      if (!warm) {
        // Let the engine optimise the kernel before the clock starts.
        const until = performance.now() + 400;
        while (performance.now() < until) hash(4096);
        warm = true;
      }
      return { rate: loopRate(durationMs, hash) };
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * Every baseline runs once per round, back to back, so each round's figures share the
 * machine's state of the moment (other processes, a busy sibling hardware thread).
 * A rate is the median over rounds; a ratio is the median of the per-round ratios.
 */
function measureBaselines(durationMs: number, rounds: number, progress: Progress): BenchBaseline[] {
  const message = randomBytes(80);
  const contenders: Contender[] = [
    { name: 'openssl speed -evp sha512 -bytes 80', measure: opensslRate },
    // tpkit's kernels right after openssl: the ratio that matters pairs the closest in time.
    ...(['hybrid', 'simd', 'scalar', 'js'] as KernelName[]).map(kernelContender),
    {
      name: 'node:crypto createHash(sha512), 80 B',
      measure: (ms) => ({
        rate: loopRate(ms, (n) => {
          for (let i = 0; i < n; i++) createHash('sha512').update(message).digest();
        }),
      }),
    },
    {
      name: '@noble/hashes sha512, 80 B',
      measure: (ms) => ({
        rate: loopRate(ms, (n) => {
          for (let i = 0; i < n; i++) nobleSha512(message);
        }),
      }),
    },
  ];
  const rates: (number | null)[][] = contenders.map(() => []);
  const notes: (string | undefined)[] = contenders.map(() => undefined);
  for (let round = 0; round < rounds; round++) {
    contenders.forEach((c, i) => {
      progress.status(`baselines, round ${round + 1}/${rounds}: ${c.name}`);
      const { rate, note } = c.measure(durationMs);
      rates[i].push(rate);
      notes[i] ??= note;
      progress.tick(1);
    });
  }
  // openssl is the reference; without it, node:crypto.
  const ref = rates[0].every((r) => r !== null) ? 0 : contenders.findIndex((c) => c.name.startsWith('node:crypto'));
  return contenders.map((c, i) => {
    const valid = rates[i].every((r) => r !== null) && rates[ref].every((r) => r !== null);
    return {
      name: c.name,
      hashRate: rates[i].every((r) => r !== null) ? median(rates[i] as number[]) : null,
      ratio: i === ref || !valid ? null : median(rates[i].map((r, j) => (r as number) / (rates[ref][j] as number))),
      reference: contenders[ref].name,
      ...(notes[i] ? { note: notes[i] } : {}),
    };
  });
}

/**
 * Pool throughput: the pool is warmed first (threads started, kernels in the optimizing tier),
 * then a search that cannot succeed runs on the pool alone for the window, and the rate is
 * the hashes counted between the first progress report and the last, over the time between
 * them. A window that sees no hash (a machine too busy for the threads to report) is doubled
 * until one does, and the window used is reported.
 */
async function measureThroughput(
  pool: ReturnType<typeof createMinerPool>,
  threads: number,
  kernel: KernelChoice,
  durationMs: number,
): Promise<{ rate: number; windowMs: number }> {
  await pool.warm();
  for (let windowMs = durationMs; ; windowMs *= 2) {
    const controller = new AbortController();
    let from: { hashes: number; at: number } | undefined;
    let to: { hashes: number; at: number } | undefined;
    const search = searchNonce({
      body: randomBytes(66),
      difficulty: 512,
      pool,
      kernel,
      threads,
      callingThread: false,
      signal: controller.signal,
      progressIntervalMs: Math.max(5, Math.min(50, windowMs / 10)),
      onProgress: (p) => {
        if (!from) {
          if (p.hashes > 0) from = { hashes: p.hashes, at: p.elapsedMs };
          return;
        }
        to = { hashes: p.hashes, at: p.elapsedMs };
        if (to.at - from.at >= windowMs) controller.abort();
      },
    });
    // A pool that never reports stops the search after 30 s (a broken pool, not a busy one).
    const guard = setTimeout(() => controller.abort(), Math.max(30_000, windowMs * 4));
    await search.catch(() => undefined);
    clearTimeout(guard);
    if (from && to && to.hashes > from.hashes && to.at > from.at) {
      return { rate: ((to.hashes - from.hashes) / (to.at - from.at)) * 1000, windowMs };
    }
    if (windowMs >= 60_000) throw new TpkitError('WASM_UNAVAILABLE', 'The miner pool reported no hashes', { details: `threads ${threads}, window ${windowMs} ms` });
  }
}

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

function render(report: BenchReport): string {
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
        report.baselines.map((b) => [
          b.name,
          b.hashRate === null ? '-' : formatCount(b.hashRate),
          b.ratio === null ? (b.hashRate === null ? b.note ?? '-' : '1.00x') : `${b.ratio.toFixed(2)}x`,
        ]),
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
    out.push('', 'Time to solution (measured over repeated solves / expected at the row\'s H/s):');
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

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('bench', {
    args: argv,
    options: {
      difficulties: { type: 'string', default: '8,12,16,20,24' },
      threads: { type: 'string' },
      repeats: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '1000' },
      kernel: { type: 'string', default: 'auto' },
      'first-proofs': { type: 'string', default: '10' },
      'first-difficulty': { type: 'string', default: '16' },
      'no-baselines': { type: 'boolean', default: false },
      'no-charts': { type: 'boolean', default: false },
      html: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const cores = availableParallelism();
  const difficulties = parseList(values.difficulties, 'difficulties', 0, 40);
  const threadCounts = values.threads
    ? parseList(values.threads, 'threads', 1, 256)
    : Array.from({ length: cores }, (_, i) => i + 1);
  const repeats = parsePositive(values.repeats, 'repeats');
  const durationMs = parsePositive(values.duration, 'duration');
  const rounds = parsePositive(values.rounds, 'rounds');
  const firstProofs = values['first-proofs'] === '0' ? 0 : parsePositive(values['first-proofs'], 'first-proofs');
  const firstDifficulty = parseList(values['first-difficulty'], 'first-difficulty', 0, 32);
  if (firstDifficulty.length !== 1) throw new ArgumentError(`--first-difficulty expected one integer, got '${values['first-difficulty']}'`);
  if (values.kernel !== 'auto' && !(availableKernels() as string[]).includes(values.kernel)) {
    throw new ArgumentError(`--kernel must be auto or one of ${availableKernels().join(', ')}, got '${values.kernel}'`);
  }
  const kernel = checkKernelChoice(values.kernel as KernelChoice);

  const supportPool = createMinerPool(cores);
  const support = await minerSupport({ difficulty: firstDifficulty[0], pool: supportPool }).finally(() => supportPool.destroy());
  const report: BenchReport = {
    schema: 'tpkit-bench/1',
    date: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      cores,
      node: process.versions.node,
      v8: process.versions.v8,
      platform: process.platform,
      arch: process.arch,
      simd: simdSupported(),
      kernel,
      loadAverage: { start: loadavg(), end: [] },
    },
    support,
    options: { difficulties, threads: threadCounts, repeats, durationMs, rounds, kernel: values.kernel, firstProofs, firstDifficulty: firstDifficulty[0] },
    baselines: [],
    firstProof: null,
    throughput: [],
    rows: [],
  };

  const steps = (values['no-baselines'] ? 0 : 6 * rounds) + 5 * firstProofs + threadCounts.length * (1 + difficulties.length * repeats) + (threadCounts.includes(1) ? 0 : 1);
  const progress = new Progress({ label: 'bench', total: steps });
  try {
    if (!values['no-baselines']) report.baselines = measureBaselines(durationMs, rounds, progress);
    if (firstProofs > 0) {
      report.firstProof = await measureFirstProofs(firstProofs, firstDifficulty[0], (what) => {
        progress.status(what);
        progress.tick(1);
      });
    }
    // Efficiency is measured against one thread, also when --threads leaves it out.
    let oneThreadThroughput: number | undefined;
    if (!threadCounts.includes(1)) {
      const pool = createMinerPool(1);
      try {
        progress.status('throughput, 1 thread (the reference for efficiency)');
        oneThreadThroughput = (await measureThroughput(pool, 1, kernel, durationMs)).rate;
        progress.tick(1);
      } finally {
        await pool.destroy();
      }
    }
    const oneThread = new Map<number, number>();
    for (const threads of threadCounts) {
      const pool = createMinerPool(threads);
      try {
        progress.status(`throughput, ${threads} thread${threads > 1 ? 's' : ''}`);
        const { rate, windowMs } = await measureThroughput(pool, threads, kernel, durationMs);
        if (threads === 1) oneThreadThroughput = rate;
        const reference = oneThreadThroughput ?? rate;
        report.throughput.push({ threads, hashRate: rate, perThread: rate / threads, efficiency: rate / (threads * reference), windowMs });
        progress.tick(1);
        for (const difficulty of difficulties) {
          const times: number[] = [];
          let hashes = 0;
          const byKernel: Partial<Record<KernelName, number>> = {};
          for (let i = 0; i < repeats; i++) {
            progress.status(`difficulty ${difficulty}, ${threads} thread${threads > 1 ? 's' : ''}, solve ${i + 1}/${repeats}`);
            const result = await mineBody(randomBytes(66), { difficulty, pool, kernel, threads });
            times.push(result.elapsedMs);
            hashes += result.hashes;
            for (const [name, count] of Object.entries(result.byKernel) as [KernelName, number][]) {
              byKernel[name] = (byKernel[name] ?? 0) + count;
            }
            progress.tick(1);
          }
          const totalMs = times.reduce((a, b) => a + b, 0);
          const hashRate = totalMs > 0 ? (hashes / totalMs) * 1000 : 0;
          if (threads === 1) oneThread.set(difficulty, hashRate);
          // Against the one-thread row of this difficulty, else the one-thread throughput.
          const single = oneThread.get(difficulty) ?? oneThreadThroughput ?? hashRate;
          const expected = estimateMining(difficulty, Math.max(hashRate, 1));
          report.rows.push({
            difficulty,
            threads,
            solves: repeats,
            hashes,
            hashRate,
            perThread: hashRate / threads,
            efficiency: single > 0 ? hashRate / (threads * single) : 1,
            measured: quantiles(times),
            expected: { meanMs: expected.meanMs, medianMs: expected.medianMs, p95Ms: expected.p95Ms },
            byKernel,
            solveMs: times,
          });
        }
      } finally {
        await pool.destroy();
      }
    }
  } finally {
    progress.finish();
  }
  report.machine.loadAverage.end = loadavg();
  if (values.html) writeFileSync(values.html, renderHtml(report));
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(values['no-charts'] ? render(report) : `${render(report)}\n\n${renderCharts(report)}`);
  return 0;
}
