// The multi-threaded miner on the real worker-thread pool: answers re-checked with node:crypto,
// stop on first solution, abort, progress, and no thread left hashing afterwards.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { AbortError, TpkitError } from '../../src/errors.js';
import { leadingZeroBits } from '../../src/pow/bits.js';
import { mineBody } from '../../src/pow/mine-body.js';
import { createMinerPool } from '../../src/pow/pool.node.js';
import { searchNonce, type MinerPool, type MiningProgress } from '../../src/pow/search.js';
import { ABORTED, RUNNING, type SearchTask } from '../../src/pow/search-task.js';

const pool = createMinerPool(2);

/** Wraps the pool to record when each task settled and what it returned. */
function recordingPool(): MinerPool & { settled: { at: number; found: boolean; hashes: number }[]; tasks: SearchTask[]; flagLeftRunning: number } {
  const inner = pool;
  const settled: { at: number; found: boolean; hashes: number }[] = [];
  const tasks: SearchTask[] = [];
  const recording = {
    threads: inner.threads,
    settled,
    tasks,
    /** Tasks that returned a nonce with the shared stop flag still RUNNING (it is then raised here, so the test ends). */
    flagLeftRunning: 0,
    run: async (task: SearchTask) => {
      tasks.push(task);
      const result = await inner.run(task);
      if (result.nonce !== null) {
        const flag = new Int32Array(task.control);
        if (Atomics.load(flag, 0) === RUNNING) {
          recording.flagLeftRunning++;
          Atomics.store(flag, 0, ABORTED);
        }
      }
      settled.push({ at: performance.now(), found: result.nonce !== null, hashes: result.hashes });
      return result;
    },
  };
  return recording;
}

/**
 * Waits until no task waits in the shared pool's queue. A search returns at its first
 * solution while its other tasks may still be queued, to return at once behind the stop
 * flag; a test that counts the queue starts after those of earlier tests are gone. The
 * deadline fails a stuck queue in seconds instead of at the file's time limit.
 */
async function queueDrained(what = 'earlier tasks leave the queue'): Promise<void> {
  const until = Date.now() + 20_000;
  while (pool.queueSize > 0) {
    if (Date.now() > until) assert.unreachable(`queue still holds ${pool.queueSize} tasks after 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sha512Bits = (body: Uint8Array) => leadingZeroBits(createHash('sha512').update(body).digest());

test('mines a body on two threads; the answer holds under node:crypto', async () => {
  for (const kernel of ['scalar', 'simd', 'hybrid', 'js'] as const) {
    const body = randomBytes(66);
    const result = await mineBody(body, { difficulty: kernel === 'js' ? 10 : 14, pool, kernel });
    assert.is(result.kernel, kernel);
    assert.is(Buffer.from(result.body).subarray(0, 58).toString('hex'), body.subarray(0, 58).toString('hex'));
    assert.is(Buffer.from(result.body).readBigUInt64BE(58), result.nonce);
    assert.is(sha512Bits(result.body), result.bits);
    assert.ok(result.bits >= (kernel === 'js' ? 10 : 14));
    assert.ok(result.hashes > 0);
  }
});

test("kernel 'auto' (the default) mines with the WASM kernels and reports what each did", async () => {
  const result = await mineBody(randomBytes(90), { difficulty: 16, pool });
  assert.ok(sha512Bits(result.body) >= 16);
  assert.ok(['hybrid', 'simd', 'scalar'].includes(result.kernel), result.kernel);
  const counted = Object.values(result.byKernel).reduce((a, b) => a + (b ?? 0), 0);
  assert.is(counted, result.hashes);
  assert.is(result.byKernel.js, undefined);
});

test('the first solution stops every thread; a thread still starting returns unawaited and does no work', async () => {
  for (let trial = 0; trial < 3; trial++) {
    await queueDrained();
    const recording = recordingPool();
    const result = await mineBody(randomBytes(80), { difficulty: 18, pool: recording, kernel: 'scalar' });
    const settledBefore = recording.settled.length;
    assert.ok(sha512Bits(result.body) >= 18);
    // Every task handed to the pool settles soon after (the flag is up); none waits in the
    // queue. (When the calling thread finds the nonce before the modules are compiled, the
    // pool gets no task at all.)
    const until = Date.now() + 20_000;
    while (recording.settled.length < recording.tasks.length) {
      if (Date.now() > until) assert.unreachable(`${recording.tasks.length - recording.settled.length} tasks unsettled 20 s after the result`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.is(pool.queueSize, 0);
    assert.is(recording.flagLeftRunning, 0, 'a thread that found the nonce raised the shared stop flag');
    // The result counts every hash: the calling thread's and those of the tasks it awaited;
    // a task that returned after the result had not started, and did nothing.
    const awaited = recording.settled.slice(0, settledBefore).reduce((sum, s) => sum + s.hashes, 0);
    assert.is(result.hashes, result.callingThreadHashes + awaited);
    for (const late of recording.settled.slice(settledBefore)) assert.is(late.hashes, 0);
  }
});

test('abort raises the shared stop flag at once and rejects with AbortError (ABORTED); progress events arrive meanwhile', async () => {
  await queueDrained();
  const recording = recordingPool();
  const controller = new AbortController();
  const events: MiningProgress[] = [];
  const mining = mineBody(randomBytes(100), {
    difficulty: 60,
    pool: recording,
    kernel: 'simd',
    signal: controller.signal,
    onProgress: (p) => events.push(p),
  });
  // progressIntervalMs is 250 by default: wait for two events, however long the threads take
  // to start on a loaded machine (a fixed 800 ms saw fewer); the deadline fails a silent search.
  const until = Date.now() + 20_000;
  while (events.length < 2) {
    if (Date.now() > until) assert.unreachable(`${events.length} progress events in 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  controller.abort();
  // The threads see the abort only through the flag their tasks share: read it right away.
  // Were it not raised, the threads would hash on for ages: raise it here, then fail.
  const flags = recording.tasks.map((task) => Atomics.load(new Int32Array(task.control), 0));
  if (flags.some((flag) => flag === RUNNING)) for (const task of recording.tasks) Atomics.store(new Int32Array(task.control), 0, ABORTED);
  const error = await mining.then(
    () => undefined,
    (e: unknown) => e,
  );
  const settledAt = performance.now();
  assert.equal(
    flags,
    recording.tasks.map(() => ABORTED),
    'the stop flag each task shares reads ABORTED right after abort()',
  );
  assert.ok(error instanceof AbortError);
  assert.is((error as TpkitError).code, 'ABORTED');
  assert.is(recording.settled.length, 2);
  assert.ok(Math.max(...recording.settled.map((s) => s.at)) <= settledAt);
  for (let i = 1; i < events.length; i++) assert.ok(events[i].hashes >= events[i - 1].hashes);
  const lastEvent = events[events.length - 1];
  assert.ok(lastEvent.hashRate > 0 && lastEvent.elapsedMs > 0);
  // At difficulty 60 the median is ln 2 · 2^60 hashes away.
  assert.ok(Math.abs(lastEvent.expected.medianMs / lastEvent.expected.meanMs - Math.LN2) < 1e-6);
  assert.ok(lastEvent.expected.p95Ms > lastEvent.expected.medianMs);
  const countedAfter = pool.completed;
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.is(pool.completed, countedAfter, 'no task completed late: none was still running');
});

test('explicit ranges: threads search disjoint slices from startNonce; an exhausted search is MINING_EXHAUSTED and covered each nonce once', async () => {
  const body = randomBytes(66);
  // Three ranges: the calling thread's first, then one per pool thread.
  const found = await searchNonce({ body, difficulty: 6, pool: pool, kernel: 'scalar', startNonce: 5000n, rangePerThread: 1000n });
  assert.ok(found.nonce >= 5000n && found.nonce < 8000n, String(found.nonce));
  const copy = Buffer.from(body);
  copy.writeBigUInt64BE(found.nonce, 58);
  assert.ok(sha512Bits(copy) >= 6);
  // Exhausted searches: the ranges handed out share no nonce, every nonce asked for is searched
  // once, and what the search claims to have searched is what was hashed. With the calling
  // thread, it takes the first range and the pool searches whatever rest of it it handed over.
  for (const callingThread of [false, true]) {
    const recording = recordingPool();
    const error = await searchNonce({ body, difficulty: 40, pool: recording, kernel: 'simd', startNonce: 3n, rangePerThread: 777n, callingThread }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof TpkitError && error.code === 'MINING_EXHAUSTED');
    const ranges = recording.tasks.map((task) => [task.start, task.end] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (let i = 1; i < ranges.length; i++) assert.ok(ranges[i][0] >= ranges[i - 1][1], `range ${i} overlaps range ${i - 1}`);
    const hashed = recording.settled.reduce((sum, s) => sum + s.hashes, 0);
    assert.is(
      hashed,
      ranges.reduce((sum, [start, end]) => sum + Number(end - start), 0),
      'each pool thread hashed its whole range, once',
    );
    const first = callingThread ? 3n + 777n : 3n;
    const full = ranges.filter(([start]) => start >= first);
    assert.equal(
      full,
      Array.from({ length: pool.threads }, (_, i) => [first + 777n * BigInt(i), first + 777n * BigInt(i + 1)] as const),
    );
    const rest = ranges.filter(([start]) => start < first);
    if (callingThread) for (const [start, end] of rest) assert.ok(start > 3n && end === first, `the calling thread's rest ${start}..${end}`);
    else assert.is(rest.length, 0);
    const searched = 777 * (pool.threads + (callingThread ? 1 : 0));
    assert.is((error as TpkitError).details, `searched ${searched} nonces at difficulty 40`);
  }
});

test('an already aborted signal rejects before any thread starts', async () => {
  const recording = recordingPool();
  const error = await mineBody(randomBytes(66), { difficulty: 8, pool: recording, kernel: 'scalar', signal: AbortSignal.abort() }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof AbortError);
  assert.is(recording.settled.length, 0);
});

test('bad options throw ArgumentError', async () => {
  const bad: [Uint8Array, Record<string, unknown>][] = [
    [randomBytes(66), { difficulty: -1 }],
    [randomBytes(66), { difficulty: 513 }],
    // a 64-bit nonce: more leading zero bits are out of reach, refused rather than searched
    // forever (the signal turns such a search into an AbortError, a failure here, not a hang)
    [randomBytes(66), { difficulty: 65, signal: AbortSignal.timeout(2000) }],
    [randomBytes(66), { difficulty: 16.5 }],
    [randomBytes(66), { difficulty: 8, threads: 0 }],
    [randomBytes(66), { difficulty: 8, kernel: 'gpu' }],
    [randomBytes(66), { difficulty: 8, pool: {} }],
    [randomBytes(7), { difficulty: 8 }],
  ];
  for (const [body, options] of bad) {
    const error = await mineBody(body, { pool, kernel: 'scalar', ...options } as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof TpkitError && error.code === 'INVALID_ARGUMENT', JSON.stringify(options));
  }
});

test('the pool: a destroyed pool rejects the running and the next search; threads do not keep a process alive', async () => {
  const own = createMinerPool(1);
  const running = mineBody(randomBytes(66), { difficulty: 60, pool: own, kernel: 'scalar' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  await new Promise((r) => setTimeout(r, 50));
  await own.destroy();
  assert.instance(await running, AbortError);
  const after = await own.run({} as never).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(after, AbortError);
});

test.after(async () => {
  await pool.destroy();
});

test.run();
