// Tearing a pool down while its threads still start must not take the process with it. piscina
// require()s its worker file first; had that file been an ES module, a thread terminated during
// Node's synchronous ES-module instantiation aborts the whole process ("v8::Module::IsGraphAsync
// must be used on an instantiated module"). Before the CommonJS entries this loop aborted in
// about one process out of eight; the file-type checks below fail at once if an entry regresses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entries = [
  ['the miner pool', '../../src/pow/pool.node.js', './worker-entry.cjs'],
  ['the verification pool', '../../src/node/ledger/verifier.js', './verify-worker-entry.cjs'],
] as const;

for (const [name, module, entry] of entries) {
  test(`${name} hands piscina a CommonJS entry that imports the ES module`, () => {
    const source = readFileSync(fileURLToPath(new URL(module, import.meta.url)), 'utf8');
    assert.ok(source.includes(`new URL('${entry}', import.meta.url)`), `${module} loads ${entry}`);
    const entryUrl = new URL(entry, new URL(module, import.meta.url));
    const text = readFileSync(fileURLToPath(entryUrl), 'utf8');
    assert.match(text, /module\.exports = import\(/);
  });
}

test('pools destroyed while their threads start, after an aborted search, leave the process alive', () => {
  const index = JSON.stringify(new URL('../../src/index.js', import.meta.url).href);
  const script = `
    const { createMinerPool, mineBody } = await import(${index});
    for (let i = 0; i < 40; i++) {
      const pool = createMinerPool(2);
      const controller = new AbortController();
      const body = new Uint8Array(96);
      body[0] = i;
      const search = mineBody(body, { difficulty: 40, pool, signal: controller.signal }).catch((err) => err.code);
      setTimeout(() => controller.abort(), Math.random() * 40);
      const code = await search;
      if (code !== 'ABORTED') throw new Error('expected ABORTED, got ' + code);
      await pool.destroy();
    }
    console.log('alive');
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 240_000 });
  assert.not.match(run.stderr, /FATAL ERROR/);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stdout.trim(), 'alive');
});

test.run();
