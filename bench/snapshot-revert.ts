// `node dist/bench/snapshot-revert.js [--blocks 10000] [--rounds 5]`: how long the dev API's
// snapshot, revert and rollback take on a long chain, in memory and on LevelDB, next to the
// cost they replace (building the same chain again, block by block).
//
// Per store: snapshot S0 at the start, mine N blocks (each with a faucet credit, so each block
// changes a wallet), snapshot S1; then `rounds` times: mine 100 blocks and revert to S1 (a test
// suite's revert between tests on a long chain); rollback to height 1 (N blocks dropped);
// revert to S1 (the N blocks put back); revert to S0 (N blocks undone).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bytesToHex } from '../src/bytes.js';
import { makeAddress } from '../src/codec/address.js';
import { defaultConfig } from '../src/node/config/config.js';
import { startNode } from '../src/node/node.js';

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } } });
const BLOCKS = Number(values.blocks);
const ROUNDS = Number(values.rounds);

const ms = (start: number) => performance.now() - start;
const fmt = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0)) + ' ms';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(kind: 'memory' | 'leveldb'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-snap-'));
  const config = { ...defaultConfig(), port: 0, logLevel: 'silent' as const, mineOnDemand: true, instant: false, difficulty: 0, verifyThreads: 0, memory: kind === 'memory', dataDir: dir };
  const node = await startNode(config);
  const { chain, control } = node;
  const credit = (i: number) => [{ address: bytesToHex(makeAddress({ group: 10, block: 1, wallet: 50_000 + (i % 100) })), currency: 'SK', amount: 1n }];
  try {
    const s0 = await control.snapshot('start');
    let t = performance.now();
    for (let i = 0; i < BLOCKS; i++) await chain.mineBlock(credit(i));
    const build = ms(t);
    const s1 = await control.snapshot('long');
    const reverts: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < 100; i++) await chain.mineBlock(credit(i));
      t = performance.now();
      await control.revert(s1.id);
      reverts.push(ms(t));
    }
    t = performance.now();
    await control.rollback(1);
    const rollback = ms(t);
    t = performance.now();
    await control.revert(s1.id);
    const redo = ms(t);
    if (chain.height !== s1.height) throw new Error(`revert gave height ${chain.height}, expected ${s1.height}`);
    t = performance.now();
    await control.revert(s0.id);
    const undoAll = ms(t);
    if (chain.height !== s0.height) throw new Error(`revert gave height ${chain.height}, expected ${s0.height}`);
    console.log(`${kind.padEnd(8)} build ${BLOCKS} blocks ${fmt(build)} (${fmt(build / BLOCKS)} per block)`);
    console.log(`${kind.padEnd(8)} revert after 100 blocks on the ${BLOCKS}-block chain: median ${fmt(median(reverts))} (${reverts.map(fmt).join(', ')})`);
    console.log(`${kind.padEnd(8)} rollback ${BLOCKS} blocks to height 1: ${fmt(rollback)}`);
    console.log(`${kind.padEnd(8)} revert that puts the ${BLOCKS} blocks back: ${fmt(redo)}`);
    console.log(`${kind.padEnd(8)} revert that undoes all ${BLOCKS} blocks: ${fmt(undoAll)}`);
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await measure('memory');
await measure('leveldb');
