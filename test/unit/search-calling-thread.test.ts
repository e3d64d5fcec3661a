// The calling thread's share of a search, with pools whose threads start when the test says:
// hashing begins on the calling thread at once, the pool takes over once every thread hashes,
// and a result never waits for a thread that is still starting.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { AbortError } from '../../src/errors.js';
import { leadingZeroBits } from '../../src/pow/bits.js';
import { createKernel } from '../../src/pow/kernel.js';
import { mineBody } from '../../src/pow/mine-body.js';
import { SOLVED, runSearchTask, type SearchTask, type SearchTaskResult } from '../../src/pow/search-task.js';
import { searchNonce, soloWindowMs, type MinerPool } from '../../src/pow/search.js';
import { within } from '../helpers/helpers.js';

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

test('the calling thread finds the nonce while no pool thread has started; the search does not wait for them', async () => {
  const { pool, waiting, start } = stalledPool(2);
  const result = await within(mineBody(randomBytes(80), { difficulty: 12, pool, kernel: 'scalar' }), 20_000, 'the search');
  assert.ok(sha512Bits(result.body) >= 12);
  assert.ok(result.callingThreadHashes > 0);
  assert.is(result.hashes, result.callingThreadHashes, "every hash was the calling thread's");
  assert.is(result.byKernel.scalar, result.hashes);
  // Tasks handed to the pool meanwhile: when their threads come up, the flag tells them to stop.
  const late = waiting.map((w) => w.task);
  start();
  for (const task of late) {
    assert.is(new Int32Array(task.control)[0], SOLVED);
    assert.is(runSearchTask(createKernel('scalar'), task).hashes, 0);
  }
});

/** A pool whose threads report their start, then (a turn of the event loop later) "find" their first nonce. */
function instantPool(threads: number) {
  const seen: SearchTask[] = [];
  let countedAtLastStart = -1;
  const pool: MinerPool = {
    threads,
    run: async (task) => {
      seen.push(task);
      Atomics.add(new Int32Array(task.control), 1, 1);
      countedAtLastStart = Number(new BigInt64Array(task.counter)[0]);
      await new Promise((resolve) => setImmediate(resolve));
      Atomics.add(new BigInt64Array(task.counter), 0, 1n);
      return { nonce: task.start, hashes: 1, byKernel: { scalar: 1 }, kernel: 'scalar', busyMs: 0 };
    },
  };
  return { pool, seen, countedAtLastStart: () => countedAtLastStart };
}

test('the calling thread stops hashing once every pool thread has started', async () => {
  const { pool, seen, countedAtLastStart } = instantPool(2);
  // Difficulty 40: the calling thread does not find one; the pool's threads do at once.
  const result = await within(searchNonce({ body: randomBytes(80), difficulty: 40, pool, kernel: 'scalar' }), 20_000, 'the search');
  assert.is(seen.length, 2);
  assert.ok([seen[0].start, seen[1].start].includes(result.nonce));
  assert.is(result.callingThreadHashes, countedAtLastStart(), 'no slice on the calling thread after the hand-over');
  assert.is(result.hashes, result.callingThreadHashes + 2);
});

test("callingThread: false leaves the search to the pool; tasks carry the calling thread's compiled modules", async () => {
  const { pool, seen } = instantPool(1);
  const alone = await within(searchNonce({ body: randomBytes(70), difficulty: 40, pool, kernel: 'auto', callingThread: false }), 20_000, 'the pool-only search');
  assert.is(alone.callingThreadHashes, 0);
  assert.is(seen[0].start, 0n);
  await within(searchNonce({ body: randomBytes(70), difficulty: 40, pool, kernel: 'auto' }), 20_000, 'the search');
  // The calling thread took the first range; the binaries 'auto' runs were compiled once, here.
  assert.is(seen[1].start, 1n << 56n);
  assert.instance(seen[1].modules?.simd, WebAssembly.Module);
  assert.instance(seen[1].modules?.scalar, WebAssembly.Module);
});

test('abort while no pool thread has started: AbortError, nothing waits for the threads', async () => {
  const { pool, waiting } = stalledPool(1);
  const controller = new AbortController();
  const mining = mineBody(randomBytes(80), { difficulty: 60, pool, kernel: 'scalar', signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 30));
  controller.abort();
  const error = await within(
    mining.then(
      () => undefined,
      (e: unknown) => e,
    ),
    20_000,
    'the aborted search',
  );
  assert.instance(error, AbortError);
  assert.is(waiting.length, 1, 'the pool had its task');
  assert.is(new Int32Array(waiting[0].task.control)[0] !== 0, true, 'the flag tells the thread to stop');
});

/** A pool whose threads start 30 ms after their task arrives, then search their whole range here. */
function slowStartPool(threads: number) {
  const ranges: [bigint, bigint][] = [];
  const pool: MinerPool = {
    threads,
    run: async (task) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      ranges.push([task.start, task.end]);
      return runSearchTask(createKernel('scalar'), task);
    },
  };
  return { pool, ranges };
}

test('an exhausted search covers the rest of the range the calling thread handed over', async () => {
  const { pool, ranges } = slowStartPool(2);
  const range = 400_000n;
  const err = await within(
    searchNonce({ body: randomBytes(80), difficulty: 512, pool, kernel: 'scalar', rangePerThread: range }).then(
      () => undefined,
      (e: { code?: string; details?: string }) => e,
    ),
    60_000,
    'the exhausted search',
  );
  assert.is(err?.code, 'MINING_EXHAUSTED');
  // The pool's two ranges, then the calling thread's rest: 0 .. 3 * range, each nonce once.
  assert.is(ranges.length, 3, "the pool searched the calling thread's rest");
  const [rest] = ranges.slice(2);
  assert.ok(rest[0] > 0n && rest[1] === range, `the rest is ${rest[0]}..${rest[1]}`);
  assert.is(err?.details, `searched ${3n * range} nonces at difficulty 512`);
});

/** A pool whose threads are not started until its first task, which only records it. */
function coldPool(threads: number) {
  const tasks: SearchTask[] = [];
  const pool: MinerPool & { started: boolean } = {
    threads,
    started: false,
    run: (task) => {
      pool.started = true;
      tasks.push(task);
      return new Promise(() => undefined);
    },
  };
  return { pool, tasks };
}

test('a cold pool sleeps through the window a short search is expected to need, and wakes at once for a long one', async () => {
  const window = soloWindowMs(16);
  assert.ok(window > 0 && window < 100, String(window));
  assert.is(soloWindowMs(20), 0);
  // The JS kernel on the calling thread: difficulty 16 outlasts the window.
  const short = coldPool(2);
  const began = performance.now();
  let firstTaskAt: number | undefined;
  const controller = new AbortController();
  const search = searchNonce({ body: randomBytes(80), difficulty: 16, pool: short.pool, kernel: 'js', signal: controller.signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  let settled = false;
  void search.then(() => (settled = true));
  while (!settled && firstTaskAt === undefined) {
    await new Promise((r) => setTimeout(r, 1));
    if (short.tasks.length > 0) firstTaskAt = performance.now() - began;
  }
  controller.abort();
  await within(search, 20_000, 'the aborted short search');
  if (firstTaskAt !== undefined) assert.ok(firstTaskAt >= window - 1, `the pool was started after ${firstTaskAt} ms, within the ${window} ms window`);
  // Difficulty 30: no waiting, the pool gets its tasks as soon as the modules are compiled.
  const long = coldPool(2);
  const stop = new AbortController();
  const longSearch = searchNonce({ body: randomBytes(80), difficulty: 30, pool: long.pool, kernel: 'scalar', signal: stop.signal }).catch((e: unknown) => e);
  for (let i = 0; i < 2000 && long.tasks.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
  assert.is(long.tasks.length, 2);
  stop.abort();
  assert.ok((await within(longSearch, 20_000, 'the aborted long search')) instanceof AbortError);
});

test.run();
