// minerSupport() reports the kernel 'auto' mines with, because it finds it by running the
// same kernel race a miner thread runs (src/pow/auto-measure.ts): where the race keeps a
// kernel that is not the fastest measured (JavaScriptCore's 'auto' starts on 'scalar', and a
// rival a few per cent faster does not make it switch), the report names the kept one. On a
// virtual clock, so the kernels' speeds are exact at any machine load.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { measureAuto } from '../../src/pow/auto-measure.js';
import { ArgumentError } from '../../src/errors.js';
import { createKernel, loadKernel, type KernelName, type MiningKernel } from '../../src/pow/kernel.js';
import { createSearchState, runSearchTask, type SearchTask } from '../../src/pow/search-task.js';
import { closeSharedMinerPool } from '../../src/pow/pool.node.js';
import { minerSupport } from '../../src/pow/support.js';
import { kernelsFor } from '../../src/pow/task-runner.js';

/** The functions minerSupport() hands measureAuto: the search's own. */
const deps = { ArgumentError, loadKernel, kernelsFor, createSearchState, runSearchTask };

function virtualClock() {
  let ms = 0;
  return { now: () => ms, spend: (value: number) => void (ms += value) };
}

/** The scalar kernel under another name, spending `msPerHash` of the virtual clock per nonce. */
function timed(name: KernelName, clock: ReturnType<typeof virtualClock>, msPerHash: number): MiningKernel {
  const inner = createKernel('scalar');
  return {
    name,
    lanes: 1,
    init: (body) => inner.init(body),
    search: (start, count, difficulty) => {
      const offset = inner.search(start, count, difficulty);
      clock.spend((offset >= 0 ? offset + 1 : count) * msPerHash);
      return offset;
    },
  };
}

/** The kernel a mining thread keeps after a long search on the same kernels (the search path itself). */
function keptBySearch(kernels: MiningKernel[], clock: ReturnType<typeof virtualClock>): KernelName {
  const task: SearchTask = {
    body: new Uint8Array(66),
    difficulty: 512,
    start: 0n,
    end: 1_000_000n,
    kernel: 'auto',
    control: new ArrayBuffer(8),
    counter: new ArrayBuffer(8),
    sliceMs: 4,
  };
  return runSearchTask(createSearchState(kernels), task, { clock: clock.now }).kernel;
}

test("a rival 2 % faster than the kernel 'auto' starts on: reported is the kept one, not the fastest", async () => {
  const clock = virtualClock();
  const make = () => [timed('scalar', clock, 1e-3), timed('hybrid', clock, 0.98e-3)];
  const measured = await measureAuto(deps, { durationMs: 300, kernels: make(), clock: clock.now });
  assert.ok((measured.rates.hybrid ?? 0) > (measured.rates.scalar ?? 0), JSON.stringify(measured.rates));
  assert.is(measured.kernel, 'scalar');
  assert.is(keptBySearch(make(), clock), 'scalar');
  assert.ok(Math.abs(measured.hashRate - 1e6) < 1e3, String(measured.hashRate));
});

test('a rival twice as fast: the race moves to it, and so does the report', async () => {
  const clock = virtualClock();
  const make = () => [timed('scalar', clock, 2e-3), timed('hybrid', clock, 1e-3)];
  const measured = await measureAuto(deps, { durationMs: 300, kernels: make(), clock: clock.now });
  assert.is(measured.kernel, 'hybrid');
  assert.is(keptBySearch(make(), clock), 'hybrid');
  assert.ok(Math.abs(measured.hashRate - 1e6) < 1e3, String(measured.hashRate));
});

test("in this engine, minerSupport() names one of 'auto's kernels with that kernel's measured rate", async () => {
  const support = await minerSupport({ measureMs: 200, pool: false });
  assert.ok(kernelsFor('auto').includes(support.kernel), `${support.kernel} of ${kernelsFor('auto').join(', ')}`);
  assert.is(support.hashRate, support.rates[support.kernel]);
  await closeSharedMinerPool();
});

test.run();
