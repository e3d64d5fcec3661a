// What one `tpkit bench` run reports (--json prints it; the charts and the page draw it).

import type { KernelName } from '../pow/kernel-types.js';
import type { KernelChoice } from '../pow/search-task.js';
import type { MinerSupport } from '../pow/support.js';
import type { FirstProofReport } from './bench-first-proof.js';

export interface Quantiles {
  meanMs: number;
  medianMs: number;
  p95Ms: number;
}

export interface BenchBaseline {
  name: string;
  hashRate: number | null;
  ratio: number | null;
  reference: string;
  note?: string;
}

export interface BenchThroughput {
  threads: number;
  hashRate: number;
  perThread: number;
  efficiency: number;
  /** The measuring window: --duration, or longer where that saw no hash. */
  windowMs: number;
}

export interface BenchRow {
  difficulty: number;
  threads: number;
  solves: number;
  hashes: number;
  hashRate: number;
  perThread: number;
  efficiency: number;
  measured: Quantiles;
  expected: Quantiles;
  /** Hashes done by each kernel (with --kernel auto each thread keeps the fastest). */
  byKernel: Partial<Record<KernelName, number>>;
  /** Every solve's time, ms. */
  solveMs: number[];
}

export interface BenchReport {
  schema: 'tpkit-bench/1';
  date: string;
  machine: {
    cpu: string;
    cores: number;
    node: string;
    v8: string;
    platform: string;
    arch: string;
    simd: boolean;
    kernel: KernelChoice;
    loadAverage: { start: number[]; end: number[] };
  };
  /** minerSupport() at the start of the run, at the first-proof difficulty. */
  support: MinerSupport;
  options: { difficulties: number[]; threads: number[]; repeats: number; durationMs: number; rounds: number; kernel: string; firstProofs: number; firstDifficulty: number };
  baselines: BenchBaseline[];
  firstProof: FirstProofReport | null;
  throughput: BenchThroughput[];
  rows: BenchRow[];
}
