// distrustSimd(): once the SIMD kernels gave a wrong answer to minerSupport()'s known-answer
// check, 'auto' mines without them: on this thread even after it has loaded them for an
// earlier search, and on every thread of a pool, which learns it from the tasks it is handed.
// (One file of its own: the distrust lasts as long as this process's thread.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { availableKernels, distrustSimd, simdIsDistrusted } from '../../src/pow/kernel.js';
import { createMinerPool } from '../../src/pow/pool.node.js';
import { searchNonce, type MinerPool } from '../../src/pow/search.js';
import type { SearchTask } from '../../src/pow/search-task.js';
import { createStateCache } from '../../src/pow/task-runner.js';

const SIMD = ['hybrid', 'simd'];
const body = new Uint8Array(66).map((_, i) => (i * 37 + 5) & 0xff);
const pool = createMinerPool(1);
const states = createStateCache();

/**
 * A task of 2^17 nonces that finds nothing (difficulty 64) in slices kept near the 256-nonce
 * minimum: over 500 slices, so the kernel race probes each other kernel of 'auto' many times.
 */
const longTask = (distrust: boolean): SearchTask => ({
  body,
  difficulty: 64,
  start: 0n,
  end: 1n << 17n,
  kernel: 'auto',
  sliceMs: 0.01,
  control: new SharedArrayBuffer(8),
  counter: new SharedArrayBuffer(8),
  ...(distrust ? { distrustSimd: true } : {}),
});

test.after(() => pool.destroy());

test("before: this engine runs the SIMD kernels, and a pool thread's 'auto' uses them", async () => {
  assert.ok(
    SIMD.every((name) => availableKernels().includes(name as never)),
    `kernels here: ${availableKernels().join(', ')}`,
  );
  assert.ok((await states('auto')).kernels.some((k) => SIMD.includes(k.name)));
  const result = await pool.run(longTask(false));
  assert.ok(
    Object.keys(result.byKernel).some((name) => SIMD.includes(name)),
    JSON.stringify(result.byKernel),
  );
});

test("after distrustSimd(), this thread's 'auto' leaves them out, though it had loaded them", async () => {
  distrustSimd();
  assert.ok(simdIsDistrusted());
  assert.equal(availableKernels(), ['scalar', 'js']);
  assert.equal(
    (await states('auto')).kernels.map((k) => k.name),
    ['scalar'],
  );
});

test('a pool thread told so by a task leaves them out for that task and every later one', async () => {
  const told = await pool.run(longTask(true));
  assert.equal(Object.keys(told.byKernel), ['scalar']);
  const later = await pool.run(longTask(false));
  assert.equal(Object.keys(later.byKernel), ['scalar']);
});

test('a search hands every thread the distrust, and mines without the SIMD kernels', async () => {
  const fresh = createMinerPool(1);
  const tasks: SearchTask[] = [];
  const recording: MinerPool = { threads: fresh.threads, run: (task) => (tasks.push(task), fresh.run(task)) };
  try {
    const outcome = await searchNonce({ body, difficulty: 12, pool: recording, kernel: 'auto', callingThread: false, sliceMs: 0.01 });
    assert.ok(tasks.length > 0);
    for (const task of tasks) assert.is(task.distrustSimd, true);
    assert.equal(Object.keys(outcome.byKernel), ['scalar']);
  } finally {
    await fresh.destroy();
  }
});

test.run();
