// `tpkit bench`'s baselines: one thread hashing 80-byte messages with openssl, node:crypto,
// @noble/hashes and each of tpkit's kernels, round by round so each round shares the machine's state.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { availableKernels, createKernel, type KernelName } from '../pow/kernel.js';
import type { BenchBaseline } from './bench-report.js';
import type { Progress } from './progress.js';

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
export function measureBaselines(durationMs: number, rounds: number, progress: Progress): BenchBaseline[] {
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
