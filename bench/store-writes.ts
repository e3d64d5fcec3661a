// `node dist/bench/store-writes.js [--seconds 10] [--writers 64] [--block-every 50]`: how many
// batches the LevelDB store takes, and how long a synced one waits, when many arrive at once as
// under a node's load: --writers loops each write one synced batch of one pending transaction
// (about 600 bytes: what a submission's 200 waits for), and every --block-every-th batch is an
// unsynced block of 100 records. Prints batches/s, synced batches/s and the synced p50/p99.
// Run it from two builds to compare two ways of writing (a build's dist/bench has the file).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LevelStore } from '../src/node/store/store-level.js';
import type { StoreOp } from '../src/node/store/store.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, writers: { type: 'string', default: '64' }, 'block-every': { type: 'string', default: '50' } },
});
const SECONDS = Number(values.seconds);
const WRITERS = Number(values.writers);
const BLOCK_EVERY = Number(values['block-every']);

const pendingOps = (n: number): StoreOp[] => [{ type: 'put', key: `p:${n.toString(16).padStart(12, '0')}`, value: randomBytes(600) }];
const blockOps = (n: number): StoreOp[] => Array.from({ length: 100 }, (_, i) => ({ type: 'put' as const, key: `t:${n.toString(16).padStart(12, '0')}:${i}`, value: randomBytes(300) }));

const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-writes-'));
try {
  const store = await LevelStore.open(join(dir, 'ledger'));
  const synced: number[] = [];
  let batches = 0;
  let next = 0;
  const end = performance.now() + SECONDS * 1000;
  const writer = async () => {
    while (performance.now() < end) {
      const n = next++;
      if (n % BLOCK_EVERY === BLOCK_EVERY - 1) {
        await store.batch(blockOps(n));
      } else {
        const started = performance.now();
        await store.batch(pendingOps(n), { sync: true });
        synced.push(performance.now() - started);
      }
      batches++;
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, writer));
  const elapsed = (performance.now() - began) / 1000;
  await store.close();
  synced.sort((a, b) => a - b);
  const at = (q: number) => synced[Math.min(synced.length - 1, Math.floor(q * synced.length))].toFixed(2);
  console.log(`store writes, ${WRITERS} writers, ${elapsed.toFixed(1)} s, load ${loadavg()[0].toFixed(1)}`);
  console.log(`  batches   ${batches} = ${Math.round(batches / elapsed)} /s (${Math.round(synced.length / elapsed)} synced /s)`);
  console.log(`  synced    p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
