// `tpkit bench`'s miner pool figures: throughput for each thread count, and for every
// difficulty x thread count the time to solution of repeated real solves beside the expectation.
import { randomBytes } from 'node:crypto';
import { TpkitError } from '../errors.js';
import { estimateMining } from '../pow/estimate.js';
import type { KernelName } from '../pow/kernel.js';
import type { KernelChoice } from '../pow/search-task.js';
import { mineBody } from '../pow/mine-body.js';
import { createMinerPool } from '../pow/pool.node.js';
import { searchNonce } from '../pow/search.js';
import { percentile } from './bench-first-proof.js';
import type { BenchReport, Quantiles } from './bench-report.js';
import type { Progress } from './progress.js';

export interface SweepOptions {
  threadCounts: number[];
  difficulties: number[];
  repeats: number;
  kernel: KernelChoice;
  durationMs: number;
}

function quantiles(values: number[]): Quantiles {
  return { meanMs: values.reduce((a, b) => a + b, 0) / values.length, medianMs: percentile(values, 0.5), p95Ms: percentile(values, 0.95) };
}

/**
 * Pool throughput: the pool is warmed first (threads started, kernels in the optimizing tier),
 * then a search that cannot succeed runs on the pool alone for the window, and the rate is
 * the hashes counted between the first progress report and the last, over the time between
 * them. A window that sees no hash (a machine too busy for the threads to report) is doubled
 * until one does, and the window used is reported.
 */
async function measureThroughput(pool: ReturnType<typeof createMinerPool>, threads: number, kernel: KernelChoice, durationMs: number): Promise<{ rate: number; windowMs: number }> {
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

/** Fills report.throughput and report.rows, one pool per thread count, destroyed after its rows. */
export async function measureSweep(report: BenchReport, options: SweepOptions, progress: Progress): Promise<void> {
  const { threadCounts, difficulties, repeats, kernel, durationMs } = options;
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
}
