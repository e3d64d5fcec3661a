// When blocks are made on a --block-time interval: each tick makes at most one block from what
// waits, one block is built at a time, and a tick that comes while a block is still being
// built is not kept for later (what is left waits for the next tick, not for the end of that
// build). The ticks are driven by hand: each is the schedule() call the interval makes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../src/node/config/config.js';
import { BlockProducer } from '../../src/node/ledger/producer.js';

/** A chain whose blocks take one pending transaction each and finish when the test says so. */
function slowChain(pending: number) {
  const builds: (() => void)[] = [];
  let made = 0;
  const producer = new BlockProducer({
    config: { ...defaultConfig(), instant: false, mineOnDemand: false, blockTime: 3_600_000 },
    pendingCount: () => pending,
    paused: () => false,
    produce: () =>
      new Promise<void>((resolve) =>
        builds.push(() => {
          pending -= 1;
          made += 1;
          resolve();
        }),
      ),
  });
  return { producer, builds, made: () => made, pending: () => pending };
}

const turn = () => new Promise((r) => setImmediate(r));

test('a tick while a block is being built makes no second block when that build ends; the next tick does', async () => {
  const chain = slowChain(2);
  chain.producer.schedule();
  await turn();
  assert.is(chain.builds.length, 1, 'the first tick starts a block');
  assert.ok(chain.producer.busy);
  // The next tick lands while that block is built, and the build ends in the same turn.
  chain.producer.schedule();
  chain.builds[0]();
  await chain.producer.idle();
  await turn();
  await turn();
  assert.equal([chain.made(), chain.builds.length, chain.pending()], [1, 1, 1], 'the transaction left waits for the next tick');
  chain.producer.schedule();
  await turn();
  assert.is(chain.builds.length, 2, 'the next tick makes the next block');
  chain.builds[1]();
  await chain.producer.idle();
  assert.equal([chain.made(), chain.pending()], [2, 0]);
  // Nothing waits: a tick makes no block.
  chain.producer.schedule();
  await turn();
  assert.is(chain.builds.length, 2);
});

/** A chain whose blocks take one pending transaction each and are made at once. */
function quickChain(pending: number, settings: { instant: boolean; mineOnDemand: boolean }) {
  let made = 0;
  const producer = new BlockProducer({
    config: { ...defaultConfig(), ...settings, blockTime: 3_600_000 },
    pendingCount: () => pending,
    paused: () => false,
    produce: async () => {
      pending -= 1;
      made += 1;
    },
  });
  return { producer, made: () => made, pending: () => pending };
}

/** Lets the producer run until `done` holds, for at most 1000 event-loop turns: each block of
 * these chains takes a few turns, so a producer that stops early fails at once, at any load. */
async function until(done: () => boolean) {
  for (let i = 0; i < 1000 && !done(); i++) await turn();
}

/** Resolves with `work`'s outcome, or with 'stuck' after 1000 event-loop turns. */
async function within<T>(work: Promise<T>): Promise<T | 'stuck'> {
  let stop = false;
  const bound = (async () => {
    for (let i = 0; i < 1000 && !stop; i++) await turn();
    return 'stuck' as const;
  })();
  try {
    return await Promise.race([work, bound]);
  } finally {
    stop = true;
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('an instant chain makes the next block at once while transactions are left; none once nothing waits', async () => {
  const chain = quickChain(3, { instant: true, mineOnDemand: false });
  assert.ok(chain.producer.instant);
  chain.producer.schedule();
  await until(() => chain.made() === 3);
  for (let i = 0; i < 5; i++) await turn();
  assert.equal([chain.made(), chain.pending()], [3, 0], 'one block per transaction left, down to the last, and no more');
  assert.not.ok(chain.producer.busy);
});

test('start: a single restored pending transaction goes at once on an instant chain; on demand nothing starts', async () => {
  const instant = quickChain(1, { instant: true, mineOnDemand: false });
  instant.producer.start();
  await until(() => instant.made() === 1);
  assert.is(instant.made(), 1);
  const empty = quickChain(0, { instant: true, mineOnDemand: false });
  empty.producer.start();
  for (let i = 0; i < 5; i++) await turn();
  assert.is(empty.made(), 0, 'nothing pending: no block');
  const onDemand = quickChain(1, { instant: true, mineOnDemand: true });
  assert.not.ok(onDemand.producer.instant);
  onDemand.producer.start();
  for (let i = 0; i < 5; i++) await turn();
  assert.is(onDemand.made(), 0, 'blocks only when asked');
  onDemand.producer.stop();
});

test('settle() returns once the last pending transaction is in a block', async () => {
  const chain = quickChain(2, { instant: false, mineOnDemand: true });
  assert.is(await within(chain.producer.settle()), undefined, 'settle() returns');
  assert.equal([chain.made(), chain.pending()], [2, 0]);
});

test('settle() with nothing pending returns without a block', async () => {
  const chain = quickChain(0, { instant: false, mineOnDemand: true });
  assert.is(await within(chain.producer.settle()), undefined, 'settle() returns');
  assert.is(chain.made(), 0);
});

test('an instant chain started with several restored transactions makes one block each, down to the last', async () => {
  const chain = quickChain(2, { instant: true, mineOnDemand: false });
  chain.producer.start();
  await until(() => chain.made() === 2);
  assert.equal([chain.made(), chain.pending()], [2, 0]);
});

test('the block-time interval makes a block while transactions wait; after stop() none is made', async () => {
  let pending = 0;
  let made = 0;
  const producer = new BlockProducer({
    config: { ...defaultConfig(), instant: false, mineOnDemand: false, blockTime: 1 },
    pendingCount: () => pending,
    paused: () => false,
    produce: async () => {
      pending -= 1;
      made += 1;
    },
  });
  producer.start();
  try {
    // A 1 ms interval fires before a 20 ms timeout set after it: its tick has come by then.
    await pause(20);
    await turn();
    assert.is(made, 0, 'nothing waits: no block');
    pending = 1;
    await pause(20);
    await producer.idle();
    await turn();
    assert.equal([made, pending], [1, 0], 'a tick makes the block');
  } finally {
    producer.stop();
  }
  // A tick already queued before stop() runs now, with nothing pending (shutdown relies on
  // paused() for that one); the interval itself brings no more.
  await turn();
  pending = 1;
  await pause(20);
  await turn();
  await producer.idle();
  assert.equal([made, pending], [1, 1], 'stopped: the transaction waits');
});

test.run();
