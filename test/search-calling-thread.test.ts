// The calling thread's share of a search, with pools whose threads start when the test says:
// hashing begins on the calling thread at once, the pool takes over once every thread hashes,
// and a result never waits for a thread that is still starting.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { AbortError } from '../src/errors.js';
import { leadingZeroBits } from '../src/pow/bits.js';
import { createKernel } from '../src/pow/kernel.js';
import { mineBody } from '../src/pow/mine-body.js';
import { SOLVED, runSearchTask, type SearchTask, type SearchTaskResult } from '../src/pow/search-task.js';
import { searchNonce, type MinerPool } from '../src/pow/search.js';

const sha512Bits = (body: Uint8Array) => leadingZeroBits(createHash('sha512').update(body).digest());

/** A pool whose threads never finish starting until start() is called; then they run the task here. */
function stalledPool(threads: number) {
  const waiting: { task: SearchTask; resolve: (r: SearchTaskResult) => void }[] = [];
  const pool: MinerPool = {
    threads,
    run: (task) => new Promise((resolve) => waiting.push({ task, resolve })),
  };
  const start = () => {
    for (const { task, resolve } of waiting.splice(0)) resolve(runSearchTask(createKernel('scalar'), task));
  };
  return { pool, waiting, start };
}

/** Fails the test instead of hanging when a search waits for threads that never start. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

test('the calling thread finds the nonce while no pool thread has started; the search does not wait for them', async () => {
  const { pool, waiting, start } = stalledPool(2);
  const result = await within(mineBody(randomBytes(80), { difficulty: 12, pool, kernel: 'scalar' }), 20_000, 'the search');
  assert.ok(sha512Bits(result.body) >= 12);
  assert.ok(result.callingThreadHashes > 0);
  assert.is(result.hashes, result.callingThreadHashes, 'every hash was the calling thread\'s');
  assert.is(result.byKernel.scalar, result.hashes);
  // The two tasks were handed to the pool; when their threads come up, the flag tells them to stop.
  assert.is(waiting.length, 2);
  const late = waiting.map((w) => w.task);
  assert.is(new Int32Array(late[0].control)[0], SOLVED);
  start();
  for (const task of late) assert.is(runSearchTask(createKernel('scalar'), task).hashes, 0);
});

test('the calling thread stops once every pool thread hashes, and the pool finds the nonce', async () => {
  // Threads that report their start at once and search a moment later, here.
  const pool: MinerPool = {
    threads: 2,
    run: async (task) => {
      Atomics.add(new Int32Array(task.control), 1, 1);
      await new Promise((resolve) => setImmediate(resolve));
      return runSearchTask(createKernel('scalar'), task, { markStart: false });
    },
  };
  const result = await mineBody(randomBytes(80), { difficulty: 10, pool, kernel: 'scalar', startNonce: 0n });
  assert.ok(sha512Bits(result.body) >= 10);
  assert.is(result.callingThreadHashes, 0);
  assert.ok(result.nonce >= 1n << 56n, 'found in a pool thread\'s range, not the calling thread\'s first one');
});

test('callingThread: false leaves the search to the pool; the calling thread\'s kernels hand their modules over', async () => {
  const seen: SearchTask[] = [];
  const pool: MinerPool = {
    threads: 1,
    run: async (task) => {
      seen.push(task);
      return runSearchTask(createKernel('scalar'), task);
    },
  };
  const result = await searchNonce({ body: randomBytes(70), difficulty: 8, pool, kernel: 'auto', callingThread: false });
  assert.is(result.callingThreadHashes, 0);
  assert.is(seen[0].start, 0n);
  const withLocal = await searchNonce({ body: randomBytes(70), difficulty: 8, pool, kernel: 'auto' });
  assert.ok(withLocal.nonce >= 0n);
  // The calling thread compiled the SIMD binary for 'auto'; the task carries that one module.
  assert.instance(seen[1].modules?.simd, WebAssembly.Module);
  assert.is(seen[1].start, 1n << 56n);
});

test('abort while no pool thread has started: AbortError, nothing waits for the threads', async () => {
  const { pool, waiting } = stalledPool(1);
  const controller = new AbortController();
  const mining = mineBody(randomBytes(80), { difficulty: 60, pool, kernel: 'scalar', signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 30));
  controller.abort();
  const error = await within(mining.then(() => undefined, (e: unknown) => e), 20_000, 'the aborted search');
  assert.instance(error, AbortError);
  assert.is(waiting.length, 1);
  assert.is(new Int32Array(waiting[0].task.control)[0] !== 0, true, 'the flag tells the thread to stop');
});

test.run();
