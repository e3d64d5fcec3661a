// Time-to-solution estimates (geometric distribution) and device calibration.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { TpkitError } from '../../src/errors.js';
import { calibrate } from '../../src/pow/calibrate.js';
import { estimateMining } from '../../src/pow/estimate.js';
import { checkKernelChoice, createKernel } from '../../src/pow/kernel.js';

const close = (actual: number, expected: number, relative: number) => Math.abs(actual - expected) <= Math.abs(expected) * relative;

test('difficulty 0 takes one hash; mean 2^d, median ln2·2^d, p95 ln20·2^d', () => {
  const zero = estimateMining(0, 1000);
  assert.equal(zero.hashes, { mean: 1, median: 1, p95: 1 });
  assert.is(zero.meanMs, 1);
  const ten = estimateMining(10, 2048);
  assert.is(ten.hashes.mean, 1024);
  assert.ok(close(ten.hashes.median, Math.log(2) / -Math.log1p(-1 / 1024), 1e-12));
  assert.ok(close(ten.hashes.median, Math.LN2 * 1024, 1e-3));
  assert.ok(close(ten.hashes.p95, Math.log(20) * 1024, 1e-3));
  assert.is(ten.meanMs, 500);
  const hard = estimateMining(40, 5e6);
  assert.ok(close(hard.medianMs / hard.meanMs, Math.LN2, 1e-9));
  assert.ok(close(hard.p95Ms / hard.meanMs, Math.log(20), 1e-9));
});

test('measured hashes-to-solution of the JS kernel match the geometric law at difficulty 6', () => {
  const kernel = createKernel('js');
  const samples: number[] = [];
  // Fixed bodies keep the test deterministic; their hashes are as good as random.
  for (let i = 0; i < 400; i++) {
    kernel.init(createHash('sha256').update(`body ${i}`).digest().subarray(0, 24));
    const offset = kernel.search(0n, 5000, 6);
    samples.push(offset + 1);
  }
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const sorted = [...samples].sort((a, b) => a - b);
  const expected = estimateMining(6, 1).hashes;
  // Standard errors: mean 64/sqrt(400) = 3.2 hashes, median about 3.2, p95 about 14.
  assert.ok(close(mean, expected.mean, 0.2), `mean ${mean}`);
  assert.ok(close(sorted[200], expected.median, 0.3), `median ${sorted[200]}`);
  assert.ok(close(sorted[380], expected.p95, 0.3), `p95 ${sorted[380]}`);
});

test('bad estimate arguments throw ArgumentError', () => {
  for (const [d, rate] of [
    [-1, 1],
    [513, 1],
    [1.5, 1],
    [8, 0],
    [8, -5],
    [8, NaN],
    [8, Infinity],
  ] as const) {
    assert.throws(
      () => estimateMining(d, rate),
      (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
    );
  }
});

test('calibrate measures every WASM kernel and names the fastest', async () => {
  const result = await calibrate({ durationMs: 200 });
  assert.ok(['hybrid', 'simd', 'scalar'].includes(result.kernel), result.kernel);
  for (const name of ['hybrid', 'simd', 'scalar'] as const) assert.ok((result.rates[name] ?? 0) > 0, JSON.stringify(result.rates));
  assert.is(result.hashRate, result.rates[result.kernel]);
  assert.is(checkKernelChoice('auto'), 'auto');
  assert.is(checkKernelChoice('js'), 'js');
  assert.throws(
    () => checkKernelChoice('gpu' as never),
    (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
  );
  // A window shorter than loading the kernels still measures (two rounds at least), never 0.
  const brief = await calibrate({ durationMs: 0.001 });
  for (const name of ['hybrid', 'simd', 'scalar'] as const) assert.ok((brief.rates[name] ?? 0) > 0, JSON.stringify(brief.rates));
  const js = await calibrate({ durationMs: 50, kernels: ['js'] });
  assert.is(js.kernel, 'js');
  assert.ok(js.hashRate > 0);
  for (const durationMs of [0, -1, 1001, NaN]) {
    await calibrate({ durationMs }).then(
      () => assert.unreachable(),
      (e: unknown) => assert.ok(e instanceof TpkitError && e.code === 'INVALID_ARGUMENT'),
    );
  }
});

test.run();
