// What a search returns is final: without shared memory it waits for every task it launched
// (a task sees the stop flag only between its runs), and the counts it returned do not grow
// afterwards. And a pool whose threads cannot start leaves the calling thread to finish the
// search alone, saying why. Fake pools make each case happen every time, at any load.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TpkitError } from '../../src/errors.js';
import { searchNonce, type MinerPool } from '../../src/pow/search.js';
import type { SearchTask, SearchTaskResult } from '../../src/pow/search-task.js';

const BODY = new Uint8Array(66).map((_, i) => (i * 37 + 1) & 0xff);

/**
 * Two threads: the first task finds a nonce at once; the second hashes "blind" (it never sees
 * the flag and never says it started) until released, then reports its count.
 */
function blindPool(shared: boolean): { pool: MinerPool; release: () => void; settled: () => boolean } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let done = false;
  let calls = 0;
  const pool: MinerPool = {
    threads: 2,
    started: true,
    shared,
    async run(task: SearchTask): Promise<SearchTaskResult> {
      if (calls++ === 0) return { nonce: task.start, hashes: 1, byKernel: { scalar: 1 }, kernel: 'scalar', busyMs: 1 };
      await released;
      done = true;
      return { nonce: null, hashes: 1000, byKernel: { scalar: 1000 }, kernel: 'scalar', busyMs: 1 };
    },
  };
  return { pool, release, settled: () => done };
}

test('without shared memory the search waits for every task it launched; its figures include theirs', async () => {
  const { pool, release, settled } = blindPool(false);
  let searchDone = false;
  const search = searchNonce({ body: BODY, difficulty: 1, pool, kernel: 'scalar', callingThread: false }).then((r) => ((searchDone = true), r));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(searchDone, false, 'the search did not return while a task still hashed');
  release();
  const outcome = await search;
  assert.ok(settled());
  assert.is(outcome.byKernel.scalar, 1001, 'the blind task\'s hashes are in the figures');
});

test('with shared memory a task that never started is not waited for, and the returned counts never change', async () => {
  const { pool, release, settled } = blindPool(true);
  const outcome = await searchNonce({ body: BODY, difficulty: 1, pool, kernel: 'scalar', callingThread: false });
  assert.is(settled(), false);
  const before = JSON.stringify(outcome.byKernel);
  release();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(settled());
  assert.is(JSON.stringify(outcome.byKernel), before);
});

test('a pool whose threads cannot start: the calling thread finishes the search and the outcome says why', async () => {
  const pool: MinerPool = {
    threads: 2,
    started: true,
    run: () => Promise.reject(new TpkitError('WASM_UNAVAILABLE', 'Miner worker failed', { details: 'miner-worker.js did not load' })),
  };
  const outcome = await searchNonce({ body: BODY, difficulty: 12, pool, kernel: 'scalar' });
  assert.is(outcome.callingThreadHashes, outcome.hashes);
  assert.match(outcome.poolFailure ?? '', /did not load/);
});

test('without a calling thread, a pool that cannot start is an error', async () => {
  const pool: MinerPool = { threads: 1, started: true, run: () => Promise.reject(new TpkitError('WASM_UNAVAILABLE', 'Miner worker failed')) };
  try {
    await searchNonce({ body: BODY, difficulty: 12, pool, kernel: 'scalar', callingThread: false });
    assert.unreachable();
  } catch (err) {
    assert.is((err as TpkitError).code, 'WASM_UNAVAILABLE');
  }
});

test.run();
