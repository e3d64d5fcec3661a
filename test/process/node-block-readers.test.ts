// The largest block the node allows, asked for by readers that never read and readers that
// read slowly: a real `tpkit node` process keeps its RSS under a bound, answers
// /api/node/status throughout, and disconnects each stalled reader (one log line each).
// Bounds only; the times are measured in bench/block-readers.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../src/bytes.js';
import { node, readerNodeDuring, rssMb, stalledAndSlowReaders } from '../helpers/reader-node.js';
import { pay, transfer } from '../helpers/node-helpers.js';
import { addressFromText } from '../../src/codec/address.js';

const STALLED = 20;
const SLOW = 8;
const STALL_MS = 3000;
/** The bound: 20 GETs that never read took the node to 2.09 GB before. */
const RSS_LIMIT_MB = 400;

readerNodeDuring(test, STALL_MS);

test(`the largest block: ${STALLED} stalled and ${SLOW} slow readers; RSS under ${RSS_LIMIT_MB} MB, status answers, each stalled reader disconnected`, async () => {
  const accounts = (await (await fetch(`${node.url}/api/dev/accounts`)).json()).accounts as { address: string; secret_key: string }[];
  const key = hexToBytes(accounts[0].secret_key);
  const from = addressFromText(accounts[0].address);
  const to = addressFromText(accounts[1].address);
  // Transfers of about 63 KB until the pending bytes pass the block's cap (4 MiB).
  const t = Date.now();
  let sentBytes = 0;
  for (let seq = 1; sentBytes < 4.5 * 1024 * 1024; seq++) {
    const tx = transfer({ key, from, to, seq, t: t + seq, payload: [pay(1)], extra: { msg: 'x'.repeat(62_000) } });
    const res = await fetch(`${node.url}/api/tx/new`, { method: 'POST', body: JSON.stringify({ tx }), headers: { 'content-type': 'application/json' } });
    assert.is(res.status, 200, await res.text());
    sentBytes += (tx.length * 3) / 4;
  }
  const mined = await (await fetch(`${node.url}/api/dev/mine`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).json();
  const hash = mined.blocks[0].hash;
  const info = (await (await fetch(`${node.url}/api/blockinfo/${hash}`)).json()).block;
  assert.ok(info.txs_count * 62_000 <= 4 * 1024 * 1024, `${info.txs_count} transactions of 62 KB exceed the 4 MiB cap`);
  assert.ok(info.txs_count * 62_000 > 3.5 * 1024 * 1024, `the block is full: ${info.txs_count} transactions`);
  const full = await (await fetch(`${node.url}/api/block/${hash}`)).arrayBuffer();
  console.log(`  the largest block: ${info.txs_count} transactions, its answer ${(full.byteLength / 2 ** 20).toFixed(1)} MiB`);

  const readers = stalledAndSlowReaders(node.url, `/api/block/${hash}`, STALLED, SLOW);
  const { stalled } = readers;
  let peak = 0;
  try {
    for (let i = 0; i < 12; i++) {
      await new Promise((r) => setTimeout(r, 500));
      peak = Math.max(peak, rssMb(node.proc.pid!));
      const status = await fetch(`${node.url}/api/node/status`);
      assert.is(status.status, 200);
      await status.arrayBuffer();
    }
    // Every stalled reader is disconnected by the node; its log names each one.
    const deadline = Date.now() + 60_000;
    const count = () => (node.stderr().match(/took nothing for 3000 ms/g) ?? []).length;
    while (count() < STALLED && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.is(count(), STALLED, node.stderr().slice(-2000));
    for (const r of stalled) assert.ok(r.received() < full.byteLength, 'a stalled reader never got the whole answer');
  } finally {
    readers.close();
  }
  console.log(`  node RSS peak ${peak.toFixed(0)} MB (bound ${RSS_LIMIT_MB} MB)`);
  assert.ok(peak < RSS_LIMIT_MB, `RSS ${peak.toFixed(0)} MB`);
});

test.run();
