// `node dist/bench/browser-mining.js [--seconds S] [--rounds R]`: the miner's hash rate per
// worker in headless Chromium (Web Workers, the browser bundle) beside the rate per thread
// in Node (piscina workers, the same kernels), measured in the same run, alternating Node
// and browser rounds so both see the same machine load. Goal: browser >= 0.9x Node.

import { parseArgs } from 'node:util';
import { mineRegister } from '../src/pow/mine-register.js';
import { createMinerPool } from '../src/pow/pool.node.js';
import type { MiningProgress } from '../src/pow/search.js';
import { generateSecretKey, publicKeyOf } from '../src/crypto/keys.js';
import { openBrowser } from '../test/browser-harness.js';
import { startTestNode } from '../test/node-helpers.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' } } });
const runMs = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const WARMUP_MS = 400;

/** Steady-state hashes/s from progress samples, leaving out start-up. */
function steadyRate(samples: { hashes: number; elapsedMs: number }[]): number {
  const steady = samples.filter((s) => s.elapsedMs >= WARMUP_MS);
  const a = steady[0];
  const b = steady[steady.length - 1];
  return a && b && b.elapsedMs > a.elapsedMs ? ((b.hashes - a.hashes) / (b.elapsedMs - a.elapsedMs)) * 1000 : 0;
}

const node = await startTestNode({});
const session = await openBrowser();
const { page } = await session.newPage(node.url + '/');
const workers: number = await page.evaluate(() => navigator.hardwareConcurrency);
const pool = createMinerPool(workers);

async function nodeRate(threads: number): Promise<number> {
  const controller = new AbortController();
  const samples: MiningProgress[] = [];
  const timer = setTimeout(() => controller.abort(), runMs);
  await mineRegister({ publicKeys: [publicKeyOf(generateSecretKey())], difficulty: 64, threads, pool, signal: controller.signal, onProgress: (p) => samples.push(p), kernel: 'auto' }).catch(() => undefined);
  clearTimeout(timer);
  return steadyRate(samples);
}

function browserRate(threads: number): Promise<number> {
  return page.evaluate(
    async ({ threads, runMs, warmupMs }) => {
      const t: typeof import('../src/browser.js') = await import('/browser/tpkit.js' as string);
      const controller = new AbortController();
      const samples: { hashes: number; elapsedMs: number }[] = [];
      setTimeout(() => controller.abort(), runMs);
      await t
        .mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 64, threads, signal: controller.signal, onProgress: (p) => samples.push(p) })
        .catch(() => undefined);
      const steady = samples.filter((s) => s.elapsedMs >= warmupMs);
      const a = steady[0];
      const b = steady[steady.length - 1];
      return a && b && b.elapsedMs > a.elapsedMs ? ((b.hashes - a.hashes) / (b.elapsedMs - a.elapsedMs)) * 1000 : 0;
    },
    { threads, runMs, warmupMs: WARMUP_MS },
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`browser-mining: ${rounds} rounds of ${runMs} ms, Node ${process.version} vs ${session.browser.version()}`);
console.log('workers  Node MH/s/thread  Chromium MH/s/worker  ratio');
try {
  for (let threads = 1; threads <= workers; threads++) {
    const n: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      n.push((await nodeRate(threads)) / threads);
      b.push((await browserRate(threads)) / threads);
    }
    const nm = median(n);
    const bm = median(b);
    console.log(`${String(threads).padStart(7)}  ${(nm / 1e6).toFixed(2).padStart(16)}  ${(bm / 1e6).toFixed(2).padStart(20)}  ${(bm / nm).toFixed(2).padStart(5)}x`);
  }
} finally {
  await pool.destroy();
  await session.close();
  await node.close();
}
