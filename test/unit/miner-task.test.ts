// One worker's share of a search (runSearchTask), run in this thread: slices, the shared
// stop flag and counter, and 'auto' keeping the faster of several kernels.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { createKernel, mineRange, type KernelName, type MiningKernel } from '../../src/pow/kernel.js';
import { KernelRace } from '../../src/pow/kernel-race.js';
import { PROBE_EVERY, RUNNING, SOLVED, createSearchState, runSearchTask, type SearchTask } from '../../src/pow/search-task.js';

function task(body: Uint8Array, difficulty: number, start: bigint, count: bigint): SearchTask {
  return {
    body,
    difficulty,
    start,
    end: start + count,
    kernel: 'auto',
    control: new SharedArrayBuffer(4),
    counter: new SharedArrayBuffer(8),
    sliceMs: 4,
  };
}

/** A real kernel made `factor` times slower by busy-waiting after each call, under another name. */
/** A clock that moves only when a timed kernel hashes: the kernels' rates are exact at any load. */
function virtualClock() {
  let ms = 0;
  return { now: () => ms, spend: (value: number) => void (ms += value) };
}

/** A kernel that spends `msPerHash` of the virtual clock on each nonce it searches, under another name. */
function timed(inner: MiningKernel, name: KernelName, clock: ReturnType<typeof virtualClock>, msPerHash: number): MiningKernel {
  return {
    name,
    lanes: inner.lanes,
    init: (body) => inner.init(body),
    search: (start, count, difficulty) => {
      const result = inner.search(start, count, difficulty);
      clock.spend((result >= 0 ? result + 1 : count) * msPerHash);
      return result;
    },
  };
}

test('a task finds the first qualifying nonce of its range, sets SOLVED and counts its hashes', () => {
  const body = randomBytes(70);
  const t = task(body, 10, 5000n, 1_000_000n);
  const result = runSearchTask(createKernel('scalar'), t);
  assert.is(result.nonce, mineRange(body, 5000n, 1_000_000, 10, 'js'));
  assert.is(new Int32Array(t.control)[0], SOLVED);
  assert.is(Number(new BigInt64Array(t.counter)[0]), result.hashes);
  assert.is(result.hashes, Number(result.nonce! - 5000n) + 1);
  assert.equal(result.byKernel, { scalar: result.hashes });
});

test('a task that sees the stop flag set does no work; a range without a solution returns null', () => {
  const body = randomBytes(70);
  const stopped = task(body, 1, 0n, 1000n);
  new Int32Array(stopped.control)[0] = SOLVED;
  assert.equal(runSearchTask(createKernel('scalar'), stopped), { nonce: null, hashes: 0, byKernel: {}, kernel: 'scalar', busyMs: 0, next: 0n });
  const empty = task(body, 64, 0n, 3000n);
  const result = runSearchTask(createKernel('simd'), empty);
  assert.is(result.nonce, null);
  assert.is(result.hashes, 3000);
  assert.ok(result.busyMs > 0, 'the time in kernel calls is counted');
  assert.is(new Int32Array(empty.control)[0], RUNNING);
});

test("'auto' moves to the faster kernel and keeps probing the other; answers do not change", () => {
  const body = randomBytes(66);
  const clock = virtualClock();
  const fast = timed(createKernel('scalar'), 'scalar', clock, 1e-3);
  const slow = timed(createKernel('scalar'), 'simd', clock, 3e-3);
  // The slow one first: the task starts on it and must find out.
  const result = runSearchTask([slow, fast], task(body, 64, 0n, 1_500_000n), { clock: clock.now });
  const onFast = result.byKernel.scalar ?? 0;
  const onSlow = result.byKernel.simd ?? 0;
  assert.is(onFast + onSlow, 1_500_000);
  assert.ok(onFast > 4 * onSlow, `fast ${onFast}, slow ${onSlow}`);
  assert.ok(onSlow > 0);
  assert.is(result.kernel, 'scalar', 'the task ends on the faster kernel');
  // Switching mid-range: the first solution is still the first of the range.
  const mixed = randomBytes(75);
  const mixedClock = virtualClock();
  const kernels = [timed(createKernel('simd'), 'simd', mixedClock, 2e-3), timed(createKernel('scalar'), 'scalar', mixedClock, 1e-3)];
  const found = runSearchTask(kernels, task(mixed, 14, 0n, 2_000_000n), { clock: mixedClock.now });
  assert.is(found.nonce, mineRange(mixed, 0n, 2_000_000, 14, 'scalar'));
});

test("a thread's state carries the kept kernel across searches shorter than one probe period", () => {
  const body = randomBytes(66);
  const clock = virtualClock();
  const state = createSearchState([timed(createKernel('scalar'), 'simd', clock, 3e-3), timed(createKernel('scalar'), 'scalar', clock, 1e-3)]);
  const late = { scalar: 0, simd: 0 };
  let last = '';
  for (let i = 0; i < 60; i++) {
    // Each search is a few slices long, well under PROBE_EVERY of them.
    const result = runSearchTask(state, task(body, 64, BigInt(i) * 100_000n, 100_000n), { clock: clock.now });
    if (i >= 30) {
      late.scalar += result.byKernel.scalar ?? 0;
      late.simd += result.byKernel.simd ?? 0;
    }
    last = result.kernel;
  }
  assert.is(last, 'scalar');
  assert.ok(late.scalar > 4 * late.simd, JSON.stringify(late));
  assert.ok(late.simd > 0, 'the slower kernel is still probed');
});

test('KernelRace: probes every Nth pick in turn, switches only past the margin, ignores too-short slices', () => {
  const race = new KernelRace(['hybrid', 'simd', 'scalar'], 4, 1.1, 0.05);
  const picks = Array.from({ length: 12 }, () => race.next());
  assert.equal(picks, [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1]);
  race.record(0, 1000, 1); // current: 1000 hashes/ms
  race.record(1, 1090, 1); // under the 10 % margin
  assert.is(race.current, 0);
  race.record(2, 5000, 0.01); // too short to count
  assert.is(race.current, 0);
  race.record(2, 1200, 1);
  assert.is(race.current, 2);
  assert.is(new KernelRace(['js'], 1).next(), 0);
  assert.ok(PROBE_EVERY > 1);
});

test.run();
