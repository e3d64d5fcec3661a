// Property: the miner gives back what it takes. After any number of searches on one caller's
// AbortSignal (found, aborted, refused), the signal holds no listener of the miner's; and a
// warm-up whose threads are all hashing at once does not sit out the start-up limit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getEventListeners } from 'node:events';
import { randomBytes } from 'node:crypto';
import { AbortError } from '../../src/errors.js';
import { searchOnCallingThread } from '../../src/pow/calling-thread.js';
import { mineBody } from '../../src/pow/mine-body.js';
import { createInlineMinerPool } from '../../src/pow/pool.inline.js';
import { createStateCache } from '../../src/pow/task-runner.js';
import { warmPool } from '../../src/pow/warm-pool.js';
import { mulberry32 } from '../helpers/helpers.js';

const pool = createInlineMinerPool('unit test: the calling thread only', [searchOnCallingThread, createStateCache]);
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

test('searches on one long-lived signal leave no abort listener on it, however each ends', async () => {
  const random = mulberry32(0xab0_7);
  const wallet = new AbortController();
  for (let i = 0; i < 24; i++) {
    const ending = Math.floor(random() * 3);
    if (ending === 0) {
      // found: a low difficulty
      await mineBody(randomBytes(64), { difficulty: 1 + Math.floor(random() * 6), pool, kernel: 'scalar', signal: wallet.signal });
    } else if (ending === 1) {
      // aborted mid-search by a second signal tied to the first, as a wallet's cancel button does
      const cancel = new AbortController();
      const both = AbortSignal.any([wallet.signal, cancel.signal]);
      const search = mineBody(randomBytes(64), { difficulty: 60, pool, kernel: 'scalar', signal: both });
      setTimeout(() => cancel.abort(), 1 + Math.floor(random() * 5));
      const err = await search.then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.instance(err, AbortError);
      assert.is(abortListeners(both), 0, `search ${i}: its listener left on the signal it was given`);
    } else {
      // refused before it starts: a difficulty above the maximum
      await mineBody(randomBytes(64), { difficulty: 100_000, pool, kernel: 'scalar', signal: wallet.signal }).catch(() => undefined);
    }
    assert.is(abortListeners(wallet.signal), 0, `after search ${i} (ending ${ending}) the caller's signal keeps a listener`);
  }
});

test('warm-up: threads that hash at once are not waited for until the start-up limit', async () => {
  // The first warm-up compiles the kernel; from then on the pool's one thread hashes at once.
  await warmPool(pool, { kernel: 'scalar', durationMs: 1 });
  const realSetTimeout = globalThis.setTimeout;
  const waits: number[] = [];
  globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
    waits.push(ms ?? 0);
    return realSetTimeout(fn, ms, ...rest);
  }) as typeof setTimeout;
  try {
    await warmPool(pool, { kernel: 'scalar', durationMs: 20 });
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  // One look before the thread's first slice, then the 20 ms of warming: a warm-up that kept
  // polling every 5 ms for the start-up limit makes hundreds.
  const polls = waits.filter((ms) => ms === 5).length;
  assert.ok(polls <= 2, `the warm-up polled for its threads ${polls} times after they were all hashing`);
  assert.ok(waits.includes(20), 'the warm-up hashed for the time asked');
});

test.run();
