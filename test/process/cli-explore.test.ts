// `tpkit tx` and `tpkit block`, the real binary against a real node: a transaction explained
// from its block (included, failed, pending, unknown) and a block's header and transactions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { addressToText } from '../../src/codec/address.js';
import { fee, pay, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
let ok = '';
let failed = '';
let t = Date.now();

const tpkit = (...args: string[]) => runTpkit([...args, '--node', node.url]);

test.before(async () => {
  node = await startTestNode({ accounts: 2, instant: false, blockTime: 3_600_000 }); // both in one block
  const [a, b] = node.chain.accounts;
  ok = (await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: ++t, payload: [pay(42), fee(5)] }))).body.txid;
  failed = (await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: ++t, payload: [pay(43), fee(5)] }))).body.txid;
  await node.chain.settle();
});

test.after(async () => {
  await node.close();
});

test('tx explains an included transaction from its block', async () => {
  const [a, b] = node.chain.accounts;
  const r = await tpkit('tx', ok);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`status     included in block \\d+ \\([0-9A-F]{64}\\)`));
  assert.match(r.out, /kind       generic \(16\)/);
  assert.match(r.out, new RegExp(`from       ${addressToText(a.address)}`));
  assert.match(r.out, new RegExp(`to         ${addressToText(b.address)}`));
  assert.match(r.out, /transfer\s+SK\s+42/);
  assert.match(r.out, /srcfee\s+SK\s+5/);
  assert.match(r.out, /seq        1/);
  assert.match(r.out, /\namount     42 SK\nfee        5 SK\n/);
  assert.match(r.out, /signed by  0[23][0-9A-F]{64}/);
  const json = JSON.parse((await tpkit('tx', ok, '--json')).out);
  assert.is(json.state, 'included');
  assert.is(json.kind, 'generic');
});

/** Every string in a JSON value that reads like a display line: "text (more text)". */
function displayStrings(value: unknown, at = '$'): string[] {
  if (typeof value === 'string') return /\S \(.+\)$/.test(value) ? [`${at}: ${value}`] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => displayStrings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => displayStrings(v, `${at}.${k}`));
  return [];
}

test('--json of tx and block holds data: text addresses with the hex apart, times in ms with the ISO date apart', async () => {
  const [a, b] = node.chain.accounts;
  const hexOf = (bytes: Uint8Array) => '0x' + Buffer.from(bytes).toString('hex').toUpperCase();
  const tx = JSON.parse((await tpkit('tx', ok, '--json')).out);
  assert.equal(displayStrings(tx), []);
  assert.is(tx.body.from, addressToText(a.address));
  assert.is(tx.body.fromHex, hexOf(a.address));
  assert.is(tx.body.to, addressToText(b.address));
  assert.is(tx.body.toHex, hexOf(b.address));
  assert.type(tx.body.timestamp, 'number');
  assert.is(tx.body.timestampIso, new Date(tx.body.timestamp).toISOString());

  const height = tx.height;
  const block = JSON.parse((await tpkit('block', String(height), '--json')).out);
  assert.equal(displayStrings(block), []);
  assert.is(block.height, height);
  assert.type(block.time, 'number');
  assert.is(block.timeIso, new Date(block.time).toISOString());
  const row = block.txs.find((x: { txid: string }) => x.txid === ok);
  assert.is(row.from, addressToText(a.address));
  assert.is(row.fromHex, hexOf(a.address));
  assert.is(row.to, addressToText(b.address));
  assert.is(row.result, 'ok');
  assert.equal(
    row.payload.find((p: { purpose: string }) => p.purpose === 'transfer'),
    { purpose: 'transfer', currency: 'SK', amount: '42' },
  );
  const bad = block.txs.find((x: { txid: string }) => x.txid === failed);
  assert.equal([bad.result, bad.reason], ['failed', 'bad_seq']);
});

test('tx of a failed transaction says why and exits 1; unknown exits 1; a bad id is usage', async () => {
  const bad = await tpkit('tx', failed);
  assert.is(bad.code, 1);
  assert.match(bad.out, /status     failed: bad_seq in block/);
  const unknown = await tpkit('tx', '26CmF99wJRUJHd1-c4n1');
  assert.is(unknown.code, 1);
  assert.match(unknown.out, /unknown transaction/);
  const typo = await tpkit('tx', 'not-a-txid!');
  assert.is(typo.code, 2);
});

test('block: latest, genesis, a height and a hash; a table of its transactions', async () => {
  const latest = await tpkit('block', 'latest');
  assert.is(latest.code, 0, latest.err);
  assert.match(latest.out, new RegExp(`height   ${node.chain.height}`));
  const height = Number(/in block (\d+)/.exec((await tpkit('tx', ok)).out)![1]);
  const byHeight = await tpkit('block', String(height));
  assert.match(byHeight.out, /txs      2 \(1 failed\)/);
  assert.match(byHeight.out, /^txid\s+kind\s+from\s+to\s+amount\s+result$/m);
  assert.match(byHeight.out, new RegExp(`${ok}\\s+generic\\s+AA\\d{18}\\s+AA\\d{18}\\s+42 SK\\s+ok`));
  assert.match(byHeight.out, new RegExp(`${failed}\\s+generic.*failed: bad_seq`));
  const hash = /hash     ([0-9A-F]{64})/.exec(byHeight.out)![1];
  assert.match((await tpkit('block', hash)).out, new RegExp(`height   ${height}`));
  assert.match((await tpkit('block', 'genesis')).out, /height   0\n[^]*txs      0/);
  const nope = await tpkit('block', 'nope');
  assert.is(nope.code, 2);
  assert.match(nope.err, /^tpkit block: expected a block hash \(64 hex digits\), a height, latest or genesis, got 'nope'/);
  assert.not.match(nope.err, /"id"|'last'/, 'the command speaks of its own ID, not the client argument');
  const missing = await tpkit('block', '99999');
  assert.is(missing.code, 1);
  assert.match(missing.err, /no block at height 99999 \[API_ERROR\]\n  no block has that hash or height on this node; `tpkit block latest` shows the newest/);
});

test.run();
