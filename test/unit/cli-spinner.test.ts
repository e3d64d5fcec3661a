// keepSpinning's stop ends the very timer it started: a spinner stopped once a block came
// must not go on redrawing the line for the rest of the command.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keepSpinning } from '../../src/cli/wallet-common.js';
import type { Progress } from '../../src/cli/progress.js';

test('the stop keepSpinning returns clears the interval it started', () => {
  const started: unknown[] = [];
  const cleared: unknown[] = [];
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  // Recorded, not faked: the timers are real, so nothing here depends on how fast they fire.
  globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
    const timer = realSet(...args);
    started.push(timer);
    return timer;
  }) as typeof setInterval;
  globalThis.clearInterval = ((timer: Parameters<typeof clearInterval>[0]) => {
    cleared.push(timer);
    realClear(timer);
  }) as typeof clearInterval;
  const statuses: string[] = [];
  const bar = { status: (text: string) => statuses.push(text), tick: () => {} } as unknown as Progress;
  try {
    const stop = keepSpinning(bar, 'waiting for the block');
    assert.equal(statuses, ['waiting for the block']);
    assert.is(started.length, 1);
    stop();
    assert.equal(cleared, started);
  } finally {
    globalThis.setInterval = realSet;
    globalThis.clearInterval = realClear;
    for (const timer of started) realClear(timer as NodeJS.Timeout);
  }
});

test.run();
