// The miner without WebAssembly in Node: under --jitless (WebAssembly absent in every thread,
// and a flag worker threads refuse) and with the WebAssembly global deleted before tpkit loads.
// Each child process asks minerSupport(), mines through the package root and prints what it
// got; the mined body is checked here with node:crypto. And minerSupport() in this process,
// where everything is present.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { minerSupport } from '../../src/pow/support.js';
import { createMinerPool } from '../../src/pow/pool.node.js';
import { hexToBytes } from '../../src/bytes.js';

const ROOT = new URL('../../src/index.js', import.meta.url).href;
const WASM_KERNEL = new URL('../../src/wasm/kernel.js', import.meta.url).href;

/** A child that loads tpkit after `prelude`, asks minerSupport() and mines twice: on the pool's threads alone, then with the defaults. */
const childScript = (prelude: string) => `
${prelude}
const tpkit = await import(${JSON.stringify(ROOT)});
const support = await tpkit.minerSupport({ difficulty: 10, measureMs: 100 });
const key = new Uint8Array(33).fill(2);
const onThreads = await tpkit.mineRegister({ publicKeys: [key], timestamp: 1, difficulty: 10, callingThread: false });
let progressRate = 0;
const defaults = await tpkit.mineRegister({ publicKeys: [key], timestamp: 2, difficulty: 10, onProgress: (p) => (progressRate = p.hashRate), progressIntervalMs: 10 });
// A pool that never starts: the calling thread alone.
const inline = await tpkit.mineRegister({ publicKeys: [key], timestamp: 3, difficulty: 8, pool: { threads: 1, run: () => new Promise(() => {}) } });
const { adoptWasmModules } = await import(${JSON.stringify(WASM_KERNEL)});
adoptWasmModules({ scalar: {} });
const hex = (b) => Buffer.from(b).toString('hex');
console.log(JSON.stringify({
  support,
  available: tpkit.availableKernels(),
  runs: [onThreads, defaults, inline].map((r) => ({ body: hex(r.body), kernel: r.kernel, kernelReason: r.kernelReason, hashes: r.hashes, callingThreadHashes: r.callingThreadHashes, poolFailure: r.poolFailure })),
}));
await tpkit.closeSharedMinerPool();
`;

interface ChildRun {
  body: string;
  kernel: string;
  kernelReason: string;
  hashes: number;
  callingThreadHashes: number;
  poolFailure?: string;
}

function runChild(flags: string[], prelude: string): Promise<{ support: Awaited<ReturnType<typeof minerSupport>>; available: string[]; runs: ChildRun[] }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...flags, '--input-type=module', '-e', childScript(prelude)], { timeout: 240_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}

function bitsOf(hex: string): number {
  const hash = createHash('sha512').update(hexToBytes(hex)).digest();
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

test('Node --jitless: no WebAssembly anywhere, the worker threads start and mine with the JS kernel', async () => {
  const { support, available, runs } = await runChild(['--jitless'], '');
  assert.is(support.webAssembly.present, false);
  assert.is(support.webAssembly.refusal?.cause, 'missing');
  assert.is(support.simd.present, false);
  assert.is(support.simd.correct, null);
  assert.is(support.workers.usable, true, support.workers.error);
  assert.is(support.kernel, 'js');
  assert.ok(support.rates.js! > 0);
  assert.equal(available, ['js']);
  for (const run of runs) {
    assert.ok(bitsOf(run.body) >= 8, 'node:crypto agrees the body reaches the difficulty');
    assert.is(run.kernel, 'js');
    assert.match(run.kernelReason, /WebAssembly is not available/);
    assert.is(run.poolFailure, undefined);
  }
  assert.is(runs[0].callingThreadHashes, 0, 'the first proof came from the worker threads');
});

test('WebAssembly deleted before tpkit loads: the calling thread mines with the JS kernel, adoptWasmModules does not throw', async () => {
  const { support, available, runs } = await runChild([], 'delete globalThis.WebAssembly;');
  assert.is(support.webAssembly.present, false);
  assert.is(support.webAssembly.usable, false);
  assert.is(support.kernel, 'js');
  assert.equal(available, ['js']);
  const inline = runs[2];
  assert.ok(bitsOf(inline.body) >= 8);
  assert.is(inline.kernel, 'js');
  assert.is(inline.callingThreadHashes, inline.hashes);
  assert.match(inline.kernelReason, /JS fallback/);
  // The worker threads are fresh engines with WebAssembly: what they mine is right either way.
  for (const run of runs.slice(0, 2)) assert.ok(bitsOf(run.body) >= 10);
});

test('minerSupport in Node: WebAssembly, correct SIMD, running workers, a measured rate and the expected time', async () => {
  const pool = createMinerPool(2);
  try {
    const support = await minerSupport({ difficulty: 16, measureMs: 100, pool });
    assert.match(support.engine, /^Node /);
    assert.is(support.webAssembly.usable, true);
    assert.is(support.webAssembly.refusal, undefined);
    assert.is(support.simd.present, true);
    assert.is(support.simd.correct, true, support.simd.detail);
    assert.is(support.workers.usable, true, support.workers.error);
    assert.is(support.threads, 2);
    assert.is(support.sharedMemory.sharedArrayBuffer, true);
    assert.is(support.sharedMemory.crossOriginIsolated, null);
    assert.is(support.sharedMemory.cause, undefined);
    assert.ok(['hybrid', 'simd', 'scalar', 'memsched'].includes(support.kernel));
    assert.ok(support.hashRate > 0);
    assert.ok(support.expected.medianMs > 0 && support.expected.p95Ms > support.expected.medianMs);
  } finally {
    await pool.destroy();
  }
});

test('minerSupport refuses a bad difficulty with a typed error', async () => {
  try {
    await minerSupport({ difficulty: 65, pool: false });
    assert.unreachable();
  } catch (err) {
    assert.is((err as { code?: string }).code, 'INVALID_ARGUMENT');
  }
});

test.run();
