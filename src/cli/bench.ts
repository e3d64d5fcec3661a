// `tpkit bench`: how fast this machine mines register bodies, against the obvious
// alternatives, in one run.
//
// 1. Baselines, one thread, SHA-512 of a one-block (80-byte) message: `openssl speed
//    -evp sha512 -bytes 80` (when openssl is installed), a node:crypto loop, an
//    @noble/hashes loop, and tpkit's own kernels (WASM hybrid, two-lane SIMD, scalar, JS)
//    mining an 80-byte body. Each is printed as a ratio to openssl (else node:crypto)
//    (bench-baselines.ts).
// 2. First proof: fresh processes (tpkit/mine, the root by import and by require), each mining one register proof at --first-difficulty
//    (default 16) with the documented defaults, exec to nonce, median and p90 over
//    --first-proofs bodies (default 10), beside a plain node:crypto loop in fresh processes
//    on the same bodies in the same run (bench-first-proof.ts).
// 3. Throughput of the miner pool for each thread count, after the pool is warmed: hashes
//    per second over --duration ms, and the scaling efficiency rate(T) / (T · rate(1))
//    (bench-sweep.ts, as is 4).
// 4. The difficulty sweep: for every difficulty × thread count, --repeats real solves of
//    random 66-byte bodies (the size of a one-key register body), with the measured
//    mean / median / p95 time to solution next to the geometric expectation at the
//    row's own hash rate.
// Printed as tables (bench-text.ts) and charts (bench-charts.ts), or as HTML (bench-html.ts).
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
//              byKernel: { hybrid?, simd?, scalar?, memsched?, js? },          // hashes done by each kernel
//              solveMs: [..] }] }                                              // every solve's time
// Rates are hashes per second. Efficiency is always a number: the one-thread rate it is
// measured against is measured even when --threads leaves one thread out. A throughput
// window too short to see any hash is lengthened, and windowMs says by how much. Ratio is
// null for the reference itself or when a baseline could not run.

import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { ArgumentError } from '../errors.js';
import { availableKernels, checkKernelChoice } from '../pow/kernel.js';
import type { KernelChoice } from '../pow/search-task.js';
import { createMinerPool } from '../pow/pool.node.js';
import { minerSupport } from '../pow/support.js';
import { simdSupported } from '../wasm/kernel.js';
import { measureBaselines } from './bench-baselines.js';
import { renderCharts } from './bench-charts.js';
import { measureFirstProofs } from './bench-first-proof.js';
import { renderHtml } from './bench-html.js';
import type { BenchReport } from './bench-report.js';
import { measureSweep } from './bench-sweep.js';
import { renderText } from './bench-text.js';
import { Progress } from './progress.js';
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
  --kernel NAME        auto, hybrid, simd, scalar, memsched or js (default auto: the fastest measured here)
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
  const threadCounts = values.threads ? parseList(values.threads, 'threads', 1, 256) : Array.from({ length: cores }, (_, i) => i + 1);
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
    await measureSweep(report, { threadCounts, difficulties, repeats, kernel, durationMs }, progress);
  } finally {
    progress.finish();
  }
  report.machine.loadAverage.end = loadavg();
  if (values.html) writeFileSync(values.html, renderHtml(report));
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(values['no-charts'] ? renderText(report) : `${renderText(report)}\n\n${renderCharts(report)}`);
  return 0;
}
