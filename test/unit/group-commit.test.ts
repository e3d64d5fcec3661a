// Group commit acknowledges a submission only once the batch holding its own write is stored:
// writes that arrive while a batch is being written wait for the next batch, never for the
// one already on its way; and idle() waits for the batch in flight.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { GroupCommit } from '../../src/node/store/group-commit.js';
import type { StoreOp } from '../../src/node/store/store.js';

/** A store whose batch writes finish only when the test says so. */
function heldStore() {
  const batches: { keys: string[]; finish: () => void }[] = [];
  const written: string[] = [];
  let arrived: (() => void) | undefined;
  const commit = new GroupCommit(
    (ops) =>
      new Promise<void>((resolve) => {
        const keys = ops.map((op) => op.key);
        batches.push({ keys, finish: () => (written.push(...keys), resolve()) });
        arrived?.();
      }),
  );
  /** Resolves once `n` batches have been handed to the store. */
  const batchCount = async (n: number) => {
    while (batches.length < n) await new Promise<void>((r) => (arrived = r));
  };
  return { commit, batches, written, batchCount };
}

const put = (key: string): StoreOp => ({ type: 'put', key, value: new Uint8Array([1]) });
const turn = () => new Promise((r) => setImmediate(r));

test('writes added while a batch is being written are acknowledged with their own batch, not that one', async () => {
  const { commit, batches, written, batchCount } = heldStore();
  const acknowledged: string[] = [];
  const add = (key: string) => commit.add(put(key)).then(() => acknowledged.push(key));
  const first = add('a');
  await batchCount(1);
  const later = [add('b'), add('c')];
  batches[0].finish();
  await first;
  await turn();
  assert.equal(acknowledged, ['a']);
  await batchCount(2);
  assert.equal(
    batches.map((b) => b.keys),
    [['a'], ['b', 'c']],
  );
  // Each acknowledgement came after its key was written.
  assert.equal(written, ['a']);
  batches[1].finish();
  await Promise.all(later);
  assert.equal(acknowledged, ['a', 'b', 'c']);
  assert.equal(written, ['a', 'b', 'c']);
});

test('idle() resolves only once the batch being written is stored', async () => {
  const { commit, batches, written, batchCount } = heldStore();
  const stored = commit.add(put('a'));
  await batchCount(1);
  let idle = false;
  const waiting = commit.idle().then(() => (idle = true));
  await turn();
  assert.is(idle, false, 'idle while a batch is in flight');
  batches[0].finish();
  await waiting;
  await stored;
  assert.equal(written, ['a']);
  await commit.idle();
});

test.run();
