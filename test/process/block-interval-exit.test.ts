// The block interval never holds a process open: a program that runs a chain making blocks on
// --block-time and ends without closing it (a script, a test that forgets close()) still
// exits once its own work is done, as it would had it never started the chain.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';

const at = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);

test('a chain left open with a block interval lets its process exit once a block is made', () => {
  const script = `
    const { Chain } = await import(${at('../../src/node/ledger/chain.js')});
    const { MemoryStore } = await import(${at('../../src/node/store/store.js')});
    const { base64ToBytes } = await import(${at('../../src/bytes.js')});
    const { pay, testConfig, transfer } = await import(${at('../helpers/node-helpers.js')});
    const chain = await Chain.open(testConfig({ instant: false, blockTime: 20, verifyThreads: 0 }), new MemoryStore());
    const [a, b] = chain.accounts;
    // The program's own work (waiting for the block) holds the process, as a server or a client would.
    const working = setInterval(() => {}, 1000);
    const made = new Promise((resolve) => chain.onBlock(resolve));
    await chain.submit(base64ToBytes(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(1)] })));
    const block = await made;
    clearInterval(working);
    console.log('block of ' + block.txs.length + ' made by the interval; the chain is left open');
  `;
  // The limit only turns a process that never ends into a failure; it exits in about a second.
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 90_000 });
  assert.is(run.signal, null, `the process did not exit by itself: ${run.stdout}${run.stderr}`);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stdout.trim(), 'block of 1 made by the interval; the chain is left open');
});

test.run();
