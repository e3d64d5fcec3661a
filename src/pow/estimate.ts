// How long a proof of work takes. Each hash qualifies independently with probability
// p = 2^-difficulty, so the number of hashes to the first success is geometric:
// P(N > n) = (1 - p)^n, mean 1/p = 2^d, quantile q at ln(1/(1 - q)) / -ln(1 - p),
// which is ln 2 · 2^d for the median and ln 20 · 2^d for the 95th percentile.

import { ArgumentError } from '../errors.js';

export interface MiningEstimate {
  difficulty: number;
  hashRate: number;
  /** Expected hashes: mean, median and 95th percentile. */
  hashes: { mean: number; median: number; p95: number };
  meanMs: number;
  medianMs: number;
  p95Ms: number;
}

/** Hashes within which the first solution comes with probability q. */
export function hashesForProbability(difficulty: number, q: number): number {
  const p = 2 ** -difficulty;
  if (p >= 1) return 1;
  return Math.max(1, Math.log1p(-q) / Math.log1p(-p));
}

export function estimateMining(difficulty: number, hashRate: number): MiningEstimate {
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 512) {
    throw new ArgumentError(`"difficulty" expected an integer 0..512, got ${String(difficulty)}`);
  }
  if (typeof hashRate !== 'number' || !(hashRate > 0) || !Number.isFinite(hashRate)) {
    throw new ArgumentError(`"hashRate" expected a positive number of hashes per second, got ${String(hashRate)}`);
  }
  const hashes = {
    mean: 2 ** difficulty,
    median: hashesForProbability(difficulty, 0.5),
    p95: hashesForProbability(difficulty, 0.95),
  };
  const ms = (n: number) => (n / hashRate) * 1000;
  return {
    difficulty,
    hashRate,
    hashes,
    meanMs: ms(hashes.mean),
    medianMs: ms(hashes.median),
    p95Ms: ms(hashes.p95),
  };
}
