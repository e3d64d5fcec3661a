// The worker benchmark: mines at a difficulty no search reaches with 1, 2, … workers in
// turn and takes each count's hash rate from the miner's own progress reports, leaving out
// the start-up (worker creation, WASM compilation, kernel probing).

import { generateSecretKey, mineRegister, publicKeyOf } from './browser/tpkit.js';

/** Difficulty 64 is met once in 2^64 hashes: a run never ends by finding a nonce. */
const DIFFICULTY = 64;
export const RUN_MS = 1500;
/** Progress reports before this are start-up, not speed. */
const WARMUP_MS = 450;

const isAbort = (err) => err?.code === 'ABORTED';

/** Hashes per second with `threads` workers; null when `outer` stopped the run. */
async function measure(threads, publicKeys, outer) {
  const run = new AbortController();
  const stop = () => run.abort();
  outer.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, RUN_MS);
  const samples = [];
  try {
    await mineRegister({ publicKeys, difficulty: DIFFICULTY, threads, signal: run.signal, onProgress: (p) => samples.push(p) });
  } catch (err) {
    if (!isAbort(err)) throw err;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', stop);
  }
  if (outer.aborted) return null;
  const steady = samples.filter((s) => s.elapsedMs >= WARMUP_MS);
  if (steady.length >= 2) {
    const a = steady[0];
    const b = steady[steady.length - 1];
    return ((b.hashes - a.hashes) / (b.elapsedMs - a.elapsedMs)) * 1000;
  }
  return samples.length ? samples[samples.length - 1].hashRate : 0;
}

/**
 * Measures 1..maxWorkers workers, calling onStart(workers) before and onResult(results so
 * far) after each count. Returns every result, or those before `signal` stopped it.
 */
export async function benchmarkWorkers({ maxWorkers, signal, onStart, onResult }) {
  const publicKeys = [publicKeyOf(generateSecretKey())];
  const results = [];
  for (let workers = 1; workers <= maxWorkers; workers++) {
    onStart?.(workers);
    const hashRate = await measure(workers, publicKeys, signal);
    if (hashRate === null) break;
    results.push({ workers, hashRate });
    onResult?.(results);
  }
  return results;
}
