// Properties of src/pow over many searches: whatever ends a search (a nonce found, the caller's
// abort before or during it), the caller's signal holds no listener of it afterwards and no
// timer of it is left; and every failure is a TpkitError with its code.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getEventListeners } from 'node:events';
import { createKernel } from '../../src/pow/kernel.js';
import { mineBody } from '../../src/pow/mine-body.js';
import { runSearchTask } from '../../src/pow/search-task.js';
import type { MinerPool } from '../../src/pow/search.js';
import { bytes, forAll, int, typedFailure } from '../helpers/property.js';

const kernel = createKernel('scalar');
/** A pool that runs each range here, a turn of the event loop later: no worker threads. */
const pool: MinerPool = { threads: 1, run: async (task) => (await new Promise((r) => setImmediate(r)), runSearchTask(kernel, task)) };
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

test('a long-lived signal passed to many searches ends with as many abort listeners as it began with, and no timer is left', async () => {
  const app = new AbortController();
  const listenersBefore = getEventListeners(app.signal, 'abort').length;
  const timersBefore = timers();
  await forAll(
    'searches on one signal',
    { count: 40, seed: 3201 },
    (next) => ({ body: bytes(next, int(next, 16, 120)), difficulty: int(next, 1, 9), progress: next() < 0.5 }),
    async ({ body, difficulty, progress }) => {
      const result = await mineBody(body, { difficulty, pool, kernel: 'scalar', signal: app.signal, onProgress: progress ? () => {} : undefined, progressIntervalMs: 5 });
      assert.ok(result.hashes > 0);
      assert.is(getEventListeners(app.signal, 'abort').length, listenersBefore, "the search let go of the caller's signal");
    },
  );
  assert.is(timers(), timersBefore, 'no progress timer left');
});

test('searches aborted before or while running fail ABORTED, and leave neither a listener nor a timer', async () => {
  const timersBefore = timers();
  await forAll(
    'aborted searches',
    { count: 30, seed: 3202 },
    (next) => ({ body: bytes(next, 64), early: next() < 0.3, turns: int(next, 0, 3) }),
    async ({ body, early, turns }) => {
      // Its ranges wait here until the abort; then they see the stop flag and return at once.
      const waiting: (() => void)[] = [];
      const stalled: MinerPool = { threads: 1, run: (task) => new Promise((resolve) => waiting.push(() => resolve(runSearchTask(kernel, task)))) };
      const controller = new AbortController();
      if (early) controller.abort();
      // Difficulty 60: no nonce is found, only the abort ends it.
      const search = mineBody(body, { difficulty: 60, pool: stalled, kernel: 'scalar', signal: controller.signal, onProgress: () => {}, progressIntervalMs: 5 });
      // Marked handled at once: an early abort rejects before it is awaited below.
      search.catch(() => {});
      for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
      controller.abort();
      for (const run of waiting.splice(0)) run();
      const err = await typedFailure('an aborted search', () => search);
      assert.is(err?.code, 'ABORTED');
      assert.is(getEventListeners(controller.signal, 'abort').length, 0);
    },
  );
  assert.is(timers(), timersBefore, 'no progress timer left');
});

test('a bad difficulty or body is a typed error, never a crash', async () => {
  for (const [label, body, difficulty] of [
    ['difficulty -1', new Uint8Array(16), -1],
    ['difficulty 1.5', new Uint8Array(16), 1.5],
    ['difficulty 513', new Uint8Array(16), 513],
    ['difficulty NaN', new Uint8Array(16), Number.NaN],
    ['a body of 7 bytes', new Uint8Array(7), 4],
    ['a string body', 'abc', 4],
    ['no body', undefined, 4],
  ] as const) {
    const err = await typedFailure(label, () => mineBody(body as unknown as Uint8Array, { difficulty, pool, kernel: 'scalar' }));
    assert.ok(err, `${label} is refused`);
  }
});

test.run();
