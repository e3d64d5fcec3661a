// `node dist/bench/browser-mining.js [--seconds S] [--rounds R] [--kernels hybrid,simd,scalar,auto]`:
// the miner's hash rate per worker in headless Chromium (the browser bundle on Web Workers,
// a cross-origin-isolated page on the node's origin) beside the rate per thread in Node
// (worker threads), same register body, same kernel, 1..N workers, in one run. Node and
// browser rounds alternate so both see the same machine load; each figure is the median
// of the rounds' steady rates. Goal: browser >= 0.9x Node. First, each WASM kernel alone
// on one thread in both engines: what the two V8 versions make of the same binary.

import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { ISOLATION_HEADERS } from '../src/node/http/static.js';
import { KERNEL_NAMES, loadKernel, type KernelName } from '../src/pow/kernel.js';
import { mineRegister } from '../src/pow/mine-register.js';
import { createMinerPool } from '../src/pow/pool.node.js';
import { generateSecretKey, publicKeyOf } from '../src/crypto/keys.js';
import { simdSupported } from '../src/wasm/kernel.js';
import { openBrowser } from '../test/helpers/browser-harness.js';
import { startTestNode } from '../test/helpers/node-helpers.js';

type Choice = KernelName | 'auto';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    kernels: { type: 'string', default: 'hybrid,simd,scalar,auto' },
  },
});
const runMs = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const kernels = values.kernels.split(',') as Choice[];
for (const k of kernels) if (k !== 'auto' && !KERNEL_NAMES.includes(k)) throw new Error(`--kernels: unknown kernel ${k}`);
if (!(runMs >= 1000) || !(rounds >= 1)) throw new Error('--seconds expected >= 1 and --rounds >= 1');
/** Progress samples before this are start-up (compilation, the engine's first tiers). */
const WARMUP_MS = 400;

interface Sample {
  hashes: number;
  elapsedMs: number;
}

/** Hashes per second between the first and the last sample after start-up. */
function steadyRate(samples: Sample[]): number {
  const steady = samples.filter((s) => s.elapsedMs >= WARMUP_MS);
  const a = steady[0];
  const b = steady[steady.length - 1];
  return a && b && b.elapsedMs > a.elapsedMs ? ((b.hashes - a.hashes) / (b.elapsedMs - a.elapsedMs)) * 1000 : 0;
}

const node = await startTestNode({});
const session = await openBrowser();
const { page } = await session.newPage(`${node.url}/bench.html`, { html: '<!doctype html><title>bench</title>', headers: ISOLATION_HEADERS });
const browserInfo = await page.evaluate(async () => {
  const t: typeof import('../src/browser.js') = await import('/browser/tpkit.js' as string);
  return { workers: navigator.hardwareConcurrency, isolated: crossOriginIsolated, simd: t.simdSupported() };
});
if (!browserInfo.isolated) throw new Error('the bench page is not cross-origin isolated');
const workers = browserInfo.workers;
const pool = createMinerPool(workers);

async function nodeRate(threads: number, kernel: Choice): Promise<number> {
  const controller = new AbortController();
  const samples: Sample[] = [];
  const timer = setTimeout(() => controller.abort(), runMs);
  await mineRegister({
    publicKeys: [publicKeyOf(generateSecretKey())],
    difficulty: 64,
    threads,
    pool,
    kernel,
    signal: controller.signal,
    onProgress: (p) => samples.push({ hashes: p.hashes, elapsedMs: p.elapsedMs }),
  }).catch(() => undefined);
  clearTimeout(timer);
  return steadyRate(samples);
}

async function browserRate(threads: number, kernel: Choice): Promise<number> {
  const samples = await page.evaluate(
    async ({ threads, kernel, runMs }) => {
      const t: typeof import('../src/browser.js') = await import('/browser/tpkit.js' as string);
      const controller = new AbortController();
      const samples: { hashes: number; elapsedMs: number }[] = [];
      setTimeout(() => controller.abort(), runMs);
      await t
        .mineRegister({
          publicKeys: [t.publicKeyOf(t.generateSecretKey())],
          difficulty: 64,
          threads,
          kernel,
          signal: controller.signal,
          onProgress: (p) => samples.push({ hashes: p.hashes, elapsedMs: p.elapsedMs }),
        })
        .catch(() => undefined);
      return samples;
    },
    { threads, kernel, runMs },
  );
  return steadyRate(samples);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mhs = (x: number) => (x / 1e6).toFixed(2);

/** The kernels alone: this long to let the engine tier the code up, then this long measured. */
const KERNEL_WARM_MS = 1000;
const KERNEL_MEASURE_MS = 1000;
const KERNEL_CALL = 50_000;

/**
 * The engines alone: one kernel called in a loop on one thread (Node's main thread, the
 * page's main thread), no pool, no workers; hashes/s once the code is tiered up.
 */
async function kernelAloneNode(name: KernelName): Promise<number> {
  const kernel = await loadKernel(name);
  kernel.init(new Uint8Array(80).map((_, i) => i));
  let nonce = 0n;
  const spin = (ms: number) => {
    const began = performance.now();
    let hashes = 0;
    while (performance.now() - began < ms) {
      kernel.search(nonce, KERNEL_CALL, 64);
      nonce += BigInt(KERNEL_CALL);
      hashes += KERNEL_CALL;
    }
    return (hashes / (performance.now() - began)) * 1000;
  };
  spin(KERNEL_WARM_MS);
  return spin(KERNEL_MEASURE_MS);
}

function kernelAloneBrowser(name: KernelName): Promise<number> {
  return page.evaluate(
    async ({ name, warmMs, measureMs, call }) => {
      const t: typeof import('../src/browser.js') = await import('/browser/tpkit.js' as string);
      const kernel = await t.loadKernel(name);
      kernel.init(new Uint8Array(80).map((_, i) => i));
      let nonce = 0n;
      const spin = (ms: number) => {
        const began = performance.now();
        let hashes = 0;
        while (performance.now() - began < ms) {
          kernel.search(nonce, call, 64);
          nonce += BigInt(call);
          hashes += call;
        }
        return (hashes / (performance.now() - began)) * 1000;
      };
      spin(warmMs);
      return spin(measureMs);
    },
    { name, warmMs: KERNEL_WARM_MS, measureMs: KERNEL_MEASURE_MS, call: KERNEL_CALL },
  );
}

console.log(`browser-mining ${new Date().toISOString().slice(0, 10)}: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} logical cores`);
console.log(`Node ${process.version} (SIMD ${simdSupported() ? 'on' : 'off'}) vs Chromium ${session.browser.version()} (SIMD ${browserInfo.simd ? 'on' : 'off'}, cross-origin isolated)`);
console.log(`${rounds} rounds of ${runMs} ms per figure, median of the rates after ${WARMUP_MS} ms; MH/s per thread or worker\n`);
const ratios: number[] = [];
try {
  console.log(`The kernels alone (one thread, no workers, after ${KERNEL_WARM_MS} ms of tier-up): Node MH/s, Chromium MH/s, ratio`);
  for (const name of KERNEL_NAMES.filter((k) => k !== 'js' && kernels.includes(k))) {
    const n = await kernelAloneNode(name);
    const b = await kernelAloneBrowser(name);
    console.log(`  ${name.padEnd(6)}  ${mhs(n)}  ${mhs(b)}  ${(b / n).toFixed(2)}x`);
  }
  console.log('\nThe miner (mineRegister on the pool):');
  console.log('kernel  workers  Node MH/s/thread  Chromium MH/s/worker  ratio');
  for (const kernel of kernels) {
    for (let threads = 1; threads <= workers; threads++) {
      const n: number[] = [];
      const b: number[] = [];
      for (let r = 0; r < rounds; r++) {
        // Alternate which side goes first, so neither always runs on a warmer machine.
        if (r % 2 === 0) {
          n.push((await nodeRate(threads, kernel)) / threads);
          b.push((await browserRate(threads, kernel)) / threads);
        } else {
          b.push((await browserRate(threads, kernel)) / threads);
          n.push((await nodeRate(threads, kernel)) / threads);
        }
      }
      const ratio = median(b) / median(n);
      ratios.push(ratio);
      console.log(`${kernel.padEnd(6)}  ${String(threads).padStart(7)}  ${mhs(median(n)).padStart(16)}  ${mhs(median(b)).padStart(20)}  ${ratio.toFixed(2).padStart(5)}x`);
    }
  }
  const worst = Math.min(...ratios);
  console.log(`\nlowest ratio ${worst.toFixed(2)}x: goal >= 0.90x ${worst >= 0.9 ? 'met' : 'NOT met'}`);
} finally {
  await pool.destroy();
  await session.close();
  await node.close();
}
