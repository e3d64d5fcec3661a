// What a search returns is final: it waits for every task that counted itself as hashing
// (control[1]), whether or not the task can see the stop flag (without shared memory a task
// sees it only between its runs), and the counts it returned never change afterwards. A task
// that never started is not waited for. And with carryOnWithoutPool, a pool whose threads
// cannot start leaves the calling thread to finish the search alone, saying why. Fake pools
// make each case happen every time, at any load.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TpkitError } from '../../src/errors.js';
import { searchNonce, type MinerPool } from '../../src/pow/search.js';
import type { SearchTask, SearchTaskResult } from '../../src/pow/search-task.js';

const BODY = new Uint8Array(66).map((_, i) => (i * 37 + 1) & 0xff);
const found = (task: SearchTask): SearchTaskResult => ({ nonce: task.start, hashes: 1, byKernel: { scalar: 1 }, kernel: 'scalar', busyMs: 1 });

/**
 * Two threads: the first task finds a nonce at once; the second counts itself as hashing (or
 * not, `counts`) and then hashes "blind", never looking at the flag, until released.
 */
function blindPool(counts: boolean): { pool: MinerPool; release: () => void; settled: () => boolean } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let done = false;
  let calls = 0;
  const pool: MinerPool = {
    threads: 2,
    started: true,
    async run(task: SearchTask): Promise<SearchTaskResult> {
      const flags = new Int32Array(task.control);
      if (calls++ === 0) {
        Atomics.add(flags, 1, 1);
        return found(task);
      }
      if (counts) Atomics.add(flags, 1, 1);
      await released;
      done = true;
      return { nonce: null, hashes: 1000, byKernel: { scalar: 1000 }, kernel: 'scalar', busyMs: 1 };
    },
  };
  return { pool, release, settled: () => done };
}

test('a task that counted itself is waited for, though it never looks at the flag; its hashes are in the figures', async () => {
  const { pool, release, settled } = blindPool(true);
  let searchDone = false;
  const search = searchNonce({ body: BODY, difficulty: 1, pool, kernel: 'scalar', callingThread: false }).then((r) => ((searchDone = true), r));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.is(searchDone, false, 'the search did not return while a task still hashed');
  release();
  const outcome = await search;
  assert.ok(settled());
  assert.is(outcome.byKernel.scalar, 1001);
});

test('a task that never started is not waited for, and the counts returned never change when it returns', async () => {
  const { pool, release, settled } = blindPool(false);
  const outcome = await searchNonce({ body: BODY, difficulty: 1, pool, kernel: 'scalar', callingThread: false });
  assert.is(settled(), false);
  const before = JSON.stringify(outcome.byKernel);
  release();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(settled());
  assert.is(JSON.stringify(outcome.byKernel), before);
});

const failing = (threads: number): MinerPool => ({
  threads,
  started: true,
  run: () => Promise.reject(new TpkitError('WASM_UNAVAILABLE', 'Miner worker failed', { details: 'miner-worker.js did not load' })),
});

test('carryOnWithoutPool: the calling thread finishes the search when the threads cannot start, and the outcome says why', async () => {
  const outcome = await searchNonce({ body: BODY, difficulty: 12, pool: failing(2), kernel: 'scalar', carryOnWithoutPool: true });
  assert.is(outcome.callingThreadHashes, outcome.hashes);
  assert.match(outcome.poolFailure ?? '', /did not load/);
});

test("carryOnWithoutPool with 'auto': once the threads fail, the calling thread runs the race a thread would, not only its start-up kernel", async () => {
  const outcome = await searchNonce({ body: BODY, difficulty: 23, pool: failing(2), kernel: 'auto', carryOnWithoutPool: true });
  assert.is(outcome.callingThreadHashes, outcome.hashes);
  const ran = Object.keys(outcome.byKernel).sort();
  assert.ok(ran.length > 1, `the calling thread ran ${ran.join(', ')} over ${outcome.hashes} hashes`);
  assert.is(outcome.poolFailure, 'Miner worker failed: miner-worker.js did not load', 'the details once');
});

test('otherwise a pool that cannot start is the error, with or without the calling thread', async () => {
  for (const callingThread of [true, false]) {
    try {
      await searchNonce({ body: BODY, difficulty: 40, pool: failing(1), kernel: 'scalar', callingThread });
      assert.unreachable();
    } catch (err) {
      assert.is((err as TpkitError).code, 'WASM_UNAVAILABLE');
    }
  }
});

test.run();
