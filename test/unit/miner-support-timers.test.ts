// minerSupport() leaves no timer of its own behind: its worker check races the pool's answer
// against a timeout, and a timeout still pending after the answer would keep a Node script
// alive for the whole of it (10 s by default) after the check has returned.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeSharedMinerPool } from '../../src/pow/pool.node.js';
import { minerSupport } from '../../src/pow/support.js';

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

test.after(() => closeSharedMinerPool());

test('the worker check answers and leaves no timer pending', async () => {
  const before = timers();
  // An hour's timeout: a timer left behind would be impossible to miss, and never fires here.
  const support = await minerSupport({ measureMs: 0, workerTimeoutMs: 3_600_000 });
  assert.is(support.workers.usable, true, support.workers.error);
  assert.is(timers(), before, `timers pending: ${process.getActiveResourcesInfo().join(', ')}`);
});

test('so does a check with measuring, repeated', async () => {
  const before = timers();
  for (let i = 0; i < 3; i++) await minerSupport({ measureMs: 20, workerTimeoutMs: 3_600_000 });
  assert.is(timers(), before, `timers pending: ${process.getActiveResourcesInfo().join(', ')}`);
});

test.run();
