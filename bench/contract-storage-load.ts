// `node dist/bench/contract-storage-load.js [--slots 200000] [--reads 1000] [--old OTHER/dist]`:
// what a node's start pays for contract storage. Writes --slots slots of one contract into a
// fresh LevelDB store, then times ContractState.load and the heap it keeps, then reads --reads
// slots at random (a cold read goes to the store). --old names another build's dist folder and
// loads the same store with its ContractState too, side by side.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ContractState } from '../src/node/evm/contract-state.js';
import { codeKey, storageKey } from '../src/node/store/keys.js';
import { LevelStore } from '../src/node/store/store-level.js';
import type { Store, StoreOp } from '../src/node/store/store.js';

const { values } = parseArgs({ options: { slots: { type: 'string', default: '200000' }, reads: { type: 'string', default: '1000' }, old: { type: 'string' } } });
const SLOTS = Number(values.slots);
const READS = Number(values.reads);
const contract = 'cc'.repeat(20);
const slotOf = (i: number) => i.toString(16).padStart(64, '0');

interface Loader {
  load(store: Store): Promise<unknown>;
}

async function measure(name: string, Loader: Loader, store: Store): Promise<void> {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const state = await Loader.load(store);
  const loadMs = performance.now() - started;
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  let readMs = NaN;
  const reader = state as { storageValue?(k: string, s: string): unknown };
  if (reader.storageValue) {
    const t = performance.now();
    for (let i = 0; i < READS; i++) await reader.storageValue(contract, slotOf(Math.floor(Math.random() * SLOTS)));
    readMs = (performance.now() - t) / READS;
  }
  console.log(`${name.padEnd(6)} load ${loadMs.toFixed(0).padStart(6)} ms, heap kept ${heapMb.toFixed(1).padStart(6)} MB, a random slot read ${readMs.toFixed(3)} ms`);
  void state;
}

const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-storage-'));
try {
  const store = await LevelStore.open(join(dir, 'ledger'));
  const ops: StoreOp[] = [{ type: 'put', key: codeKey(contract), value: randomBytes(2000) }];
  for (let i = 0; i < SLOTS; i++) {
    ops.push({ type: 'put', key: storageKey(contract, slotOf(i)), value: randomBytes(32) });
    if (ops.length === 10_000) await store.batch(ops.splice(0));
  }
  await store.batch(ops.splice(0));
  console.log(`${SLOTS} slots of one contract in LevelDB; load average ${loadavg()[0].toFixed(1)}${global.gc ? '' : ' (run with --expose-gc for the heap figure)'}`);
  await measure('this', ContractState, store);
  if (values.old) {
    const old = (await import(pathToFileURL(resolve(values.old, 'src/node/evm/contract-state.js')).href)) as { ContractState: Loader };
    await measure('old', old.ContractState, store);
  }
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
