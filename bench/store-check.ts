// `node dist/bench/store-check.js [--blocks 100000] [--txs 2] [--repair]`: how long the start-up
// check of a chain takes (store-check.ts: every block read and hashed, its links, each
// transaction's container and status looked up), on LevelDB, for a chain of --blocks blocks of
// --txs transactions each. The chain is written directly (records that hash right), so the
// figure is the check's alone; a node pays it once at each start. With --repair, the block at
// 90 % of the height is then deleted and `tpkit node --repair` timed on the data dir, as a user
// runs it (copies, LevelDB's repair, the rebuild, the check of the result, the swap).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bytesToHex } from '../src/bytes.js';
import { encodeTxid } from '../src/codec/txid.js';
import { blockHash, blockRecord } from '../src/node/ledger/block.js';
import { checkStore } from '../src/node/ledger/chain-check.js';
import { LevelStore } from '../src/node/store/store-level.js';
import type { StoreOp } from '../src/node/store/store.js';

const { values } = parseArgs({ options: { blocks: { type: 'string', default: '100000' }, txs: { type: 'string', default: '2' }, repair: { type: 'boolean', default: false } } });
const BLOCKS = Number(values.blocks);
const TXS = Number(values.txs);
const utf8 = new TextEncoder();
const heightKey = (h: number) => 'b:' + h.toString(16).padStart(12, '0');

const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-check-'));
try {
  const store = await LevelStore.open(join(dir, 'ledger'));
  let began = performance.now();
  let parent: Uint8Array = new Uint8Array(32);
  let ops: StoreOp[] = [];
  const container = new Uint8Array(200).fill(7);
  const status = utf8.encode('{"ok":true,"res":"ok"}');
  for (let height = 0; height < BLOCKS; height++) {
    const time = 1_700_000_000_000 + height * 1000;
    const txs = Array.from({ length: height === 0 ? 0 : TXS }, (_, i) => encodeTxid({ chain: 1, height, timeNs: BigInt(time) * 1_000_000n + BigInt(i), node: 'tpkit' }));
    const header = { chain: 1, height, parent, txroot: new Uint8Array(32).fill(height & 0xff), balroot: new Uint8Array(32).fill(1), time };
    const hash = blockHash(header);
    const record = blockRecord(header, hash, { txs, failed: {}, registered: {}, bals: {} });
    ops.push({ type: 'put', key: heightKey(height), value: utf8.encode(JSON.stringify(record)) });
    for (const txid of txs) ops.push({ type: 'put', key: 'x:' + txid, value: container }, { type: 'put', key: 's:' + txid, value: status });
    parent = hash;
    if (ops.length > 20_000 || height === BLOCKS - 1) {
      if (height === BLOCKS - 1) ops.push({ type: 'put', key: 'meta', value: utf8.encode(JSON.stringify({ height, hash: bytesToHex(hash, true) })) });
      await store.batch(ops);
      ops = [];
    }
  }
  console.log(`wrote ${BLOCKS} blocks of ${TXS} transactions in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  for (let round = 1; round <= 3; round++) {
    began = performance.now();
    const check = await checkStore(store);
    if (check.problems.length) throw new Error(check.problems.join('; '));
    console.log(`check ${round}: ${check.blocks} blocks, ${check.txs} transactions in ${((performance.now() - began) / 1000).toFixed(2)} s`);
  }
  if (values.repair) await store.batch([{ type: 'del', key: heightKey(Math.floor(BLOCKS * 0.9)) }], { sync: true });
  await store.close();
  if (values.repair) {
    began = performance.now();
    const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
    const run = spawnSync(process.execPath, [cli, 'node', '--repair', '--data-dir', dir], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`tpkit node --repair failed: ${run.stderr}`);
    const kept = /kept: .*/.exec(run.stdout)?.[0];
    console.log(`repair of a chain damaged at block ${Math.floor(BLOCKS * 0.9)}: ${((performance.now() - began) / 1000).toFixed(1)} s (${kept})`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
