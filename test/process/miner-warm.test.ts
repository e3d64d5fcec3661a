// Compile once, warm ahead of need: one compile per binary however many callers ask at once,
// and warmMiner runs every pool thread (given the calling thread's modules) then stops them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { compiledWasmModules } from '../../src/wasm/kernel.js';
import { mineBody } from '../../src/pow/mine-body.js';
import { createMinerPool } from '../../src/pow/pool.node.js';
import { ABORTED, type SearchTask, type SearchTaskResult } from '../../src/pow/search-task.js';
import type { MinerPool } from '../../src/pow/search.js';
import { warmMiner } from '../../src/pow/warm.js';

test("concurrent loads of one binary compile it once ('auto' loads hybrid and simd from one SIMD module)", () => {
  // In a fresh process: this one may have compiled the binaries already.
  const script = `
    const compile = WebAssembly.compile;
    let compiles = 0;
    WebAssembly.compile = (bytes) => (compiles++, compile(bytes));
    const { compileWasm, compiledWasmModules } = await import(${JSON.stringify(new URL('../../src/wasm/kernel.js', import.meta.url).href)});
    const { loadKernel } = await import(${JSON.stringify(new URL('../../src/pow/kernel.js', import.meta.url).href)});
    const before = compiledWasmModules().simd === undefined;
    const [a, b] = await Promise.all([compileWasm('simd'), compileWasm('simd'), loadKernel('hybrid'), loadKernel('simd')]);
    console.log(JSON.stringify({ before, same: a === b && compiledWasmModules().simd === a, module: a instanceof WebAssembly.Module, compiles }));
  `;
  const result = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.equal(result, { before: true, same: true, module: true, compiles: 1 });
});

test('warmMiner runs every pool thread with the modules compiled here, then stops them all', async () => {
  const real = createMinerPool(2);
  const tasks: SearchTask[] = [];
  const results: SearchTaskResult[] = [];
  const pool: MinerPool = {
    threads: real.threads,
    run: async (task) => {
      tasks.push(task);
      const result = await real.run(task);
      results.push(result);
      return result;
    },
  };
  await warmMiner({ pool, durationMs: 30 });
  assert.is(tasks.length, 2);
  assert.is(results.length, 2, 'every warm-up task returned before warmMiner did');
  for (const result of results) assert.ok(result.hashes > 0, 'each thread hashed');
  assert.is(tasks[0].modules?.simd, compiledWasmModules().simd);
  assert.is(new Int32Array(tasks[0].control)[0], ABORTED);
  // The pool's own warm() is shared by concurrent callers; a search after it works as before.
  assert.is(real.warm(), real.warm());
  await real.warm();
  const mined = await mineBody(randomBytes(90), { difficulty: 12, pool: real });
  assert.ok(mined.bits >= 12);
  await real.destroy();
});

test.run();
