// Which kernels 'auto' races, first one first: the memsched kernel is in the race on every
// engine with WebAssembly, and where the engine is JavaScriptCore (its Error objects carry a
// numeric `line`) the race starts on it and the calling thread runs it, since JSC runs it
// fastest from its first milliseconds on (docs/perf/2026-11-28-jsc.md).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { measureAuto } from '../../src/pow/auto-measure.js';
import { ArgumentError } from '../../src/errors.js';
import { callingThreadChoice } from '../../src/pow/calling-thread.js';
import { availableKernels, loadKernel } from '../../src/pow/kernel.js';
import { createSearchState, runSearchTask } from '../../src/pow/search-task.js';
import { kernelsFor } from '../../src/pow/task-runner.js';

/** Runs `body` with every Error carrying a numeric `line`, as JavaScriptCore's do. */
function asJavaScriptCore<T>(body: () => T): T {
  Object.defineProperty(Error.prototype, 'line', { value: 1, configurable: true });
  try {
    return body();
  } finally {
    delete (Error.prototype as { line?: number }).line;
  }
}

test('V8: the SIMD kernels first, then scalar and memsched, then js', () => {
  assert.equal(availableKernels(), ['hybrid', 'simd', 'scalar', 'memsched', 'js']);
  assert.equal(kernelsFor('auto'), ['hybrid', 'simd', 'scalar', 'memsched']);
});

test("JavaScriptCore: 'auto' starts on memsched, then scalar, then the SIMD kernels", () => {
  assert.equal(
    asJavaScriptCore(() => availableKernels()),
    ['memsched', 'scalar', 'hybrid', 'simd', 'js'],
  );
  assert.equal(
    asJavaScriptCore(() => kernelsFor('auto')),
    ['memsched', 'scalar', 'hybrid', 'simd'],
  );
});

test("the calling thread's kernel under 'auto': scalar on V8, memsched on JavaScriptCore; a named kernel as named", () => {
  assert.is(callingThreadChoice('auto'), 'scalar');
  assert.is(
    asJavaScriptCore(() => callingThreadChoice('auto')),
    'memsched',
  );
  assert.is(
    asJavaScriptCore(() => callingThreadChoice('hybrid')),
    'hybrid',
  );
});

test("minerSupport()'s measurement runs memsched with the others and gives it a rate", async () => {
  const measured = await measureAuto({ ArgumentError, loadKernel, kernelsFor, createSearchState, runSearchTask }, { durationMs: 100 });
  assert.ok((measured.rates.memsched ?? 0) > 0, JSON.stringify(measured.rates));
  assert.ok(kernelsFor('auto').includes(measured.kernel), measured.kernel);
});

test.run();
