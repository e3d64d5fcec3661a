// `node dist/bench/pool-compare.js [--rounds R] [--duration MS] [--first N]`: the miner's
// piscina pool (src/pow/pool.node.ts) against the plain worker_threads pool it replaced
// (bench/baseline-thread-pool.ts), side by side in one run, the two alternating in every
// round so both see the same machine load:
// - first proof: fresh processes each creating a pool and mining one difficulty-16 register
//   proof on it, the pool alone (callingThread: false: the pool's start-up is all there is to
//   see) and with the default calling-thread-first search; ms from the pool's creation to
//   the nonce, medians over N processes per pool;
// - throughput on 1 and 2 threads after a warm-up (H/s over --duration ms), and the two-thread
//   scaling rate(2) / (2 · rate(1)). Figures are medians over the rounds.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createBaselinePool } from './baseline-thread-pool.js';
import { createMinerPool } from '../src/pow/pool.node.js';
import { searchNonce, type MinerPool } from '../src/pow/search.js';
import { warmPool } from '../src/pow/warm-pool.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, duration: { type: 'string', default: '1000' }, first: { type: 'string', default: '10' } } });
const rounds = Number(values.rounds);
const durationMs = Number(values.duration);
const firsts = Number(values.first);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M` : x.toFixed(1));

type PoolName = 'piscina' | 'worker_threads';
const POOLS: PoolName[] = ['piscina', 'worker_threads'];

function firstProof(pool: PoolName, callingThread: boolean): Promise<number> {
  const module = pool === 'piscina' ? new URL('../src/pow/pool.node.js', import.meta.url) : new URL('./baseline-thread-pool.js', import.meta.url);
  const make = pool === 'piscina' ? 'createMinerPool' : 'createBaselinePool';
  const script = `
    const { ${make}: make } = await import(${JSON.stringify(module.href)});
    const { mineRegister } = await import(${JSON.stringify(new URL('../src/pow/mine-register.js', import.meta.url).href)});
    const began = performance.now();
    const pool = make(2);
    await mineRegister({ publicKeys: [Buffer.from(process.argv[1], 'hex')], difficulty: 16, pool, callingThread: ${callingThread} });
    console.log(performance.now() - began);
    process.exit(0);`;
  const key = Buffer.concat([Buffer.of(2), randomBytes(32)]).toString('hex');
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script, key], { encoding: 'utf8', timeout: 60_000 }, (err, out) => (err ? reject(err) : resolve(Number(out.trim())))),
  );
}

async function throughput(pool: MinerPool, threads: number): Promise<number> {
  await warmPool(pool);
  const controller = new AbortController();
  let from: { hashes: number; at: number } | undefined;
  let to: { hashes: number; at: number } | undefined;
  await searchNonce({
    body: randomBytes(66),
    difficulty: 512,
    pool,
    kernel: 'auto',
    threads,
    callingThread: false,
    signal: controller.signal,
    progressIntervalMs: 20,
    onProgress: (p) => {
      if (!from) from = p.hashes > 0 ? { hashes: p.hashes, at: p.elapsedMs } : undefined;
      else if ((to = { hashes: p.hashes, at: p.elapsedMs }).at - from.at >= durationMs) controller.abort();
    },
  }).catch(() => undefined);
  return from && to ? ((to.hashes - from.hashes) / (to.at - from.at)) * 1000 : NaN;
}

const make = (name: PoolName, threads: number) => (name === 'piscina' ? createMinerPool(threads) : createBaselinePool(threads));
const results = new Map<string, number[]>();
const add = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value]);

for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? POOLS : [...POOLS].reverse()) {
    for (const threads of [1, 2]) {
      const pool = make(name, threads);
      add(`${name} ${threads}`, await throughput(pool, threads));
      await pool.destroy();
    }
  }
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
for (let i = 0; i < firsts; i++) {
  for (const name of i % 2 === 0 ? POOLS : [...POOLS].reverse()) {
    add(`${name} first alone`, await firstProof(name, false));
    add(`${name} first`, await firstProof(name, true));
  }
}

console.log(`pool            1 thread H/s   2 threads H/s   scaling   first proof, pool alone   first proof, calling thread first`);
for (const name of POOLS) {
  const one = median(results.get(`${name} 1`)!);
  const two = median(results.get(`${name} 2`)!);
  const alone = results.get(`${name} first alone`) ?? [NaN];
  const first = results.get(`${name} first`) ?? [NaN];
  console.log(
    `${name.padEnd(15)} ${fmt(one).padStart(12)}   ${fmt(two).padStart(13)}   ${((two / (2 * one)) * 100).toFixed(0).padStart(6)}%   ${`${median(alone).toFixed(1)} ms`.padStart(23)}   ${`${median(first).toFixed(1)} ms`.padStart(33)}`,
  );
}
console.log(`(medians over ${rounds} rounds of ${durationMs} ms, and over ${firsts} fresh processes per pool for the first proofs)`);
