// Block Merkle roots, composed by hand from node:crypto for one to five leaves: leaves and inner
// nodes domain-separated (0x00, 0x01), an odd node carried up unchanged, no leaves the zero root.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { EMPTY_ROOT, merkleRoot } from '../../src/node/ledger/merkle.js';
import { blockHash, blockRecord, recordHash, txRoot } from '../../src/node/ledger/block.js';

const h = (...parts: (Buffer | number[])[]) =>
  createHash('sha256')
    .update(Buffer.concat(parts.map((p) => Buffer.from(p))))
    .digest();
const leaf = (s: string) => h([0], Buffer.from(s, 'latin1'));
const node = (a: Buffer, b: Buffer) => h([1], a, b);
const root = (names: string[]) => Buffer.from(merkleRoot(names.map((s) => new Uint8Array(Buffer.from(s))))).toString('hex');

test('one to five leaves give the roots composed by hand', () => {
  const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(leaf);
  assert.is(root(['a']), a.toString('hex'));
  assert.is(root(['a', 'b']), node(a, b).toString('hex'));
  assert.is(root(['a', 'b', 'c']), node(node(a, b), c).toString('hex'));
  assert.is(root(['a', 'b', 'c', 'd']), node(node(a, b), node(c, d)).toString('hex'));
  assert.is(root(['a', 'b', 'c', 'd', 'e']), node(node(node(a, b), node(c, d)), e).toString('hex'));
});

test('no leaves give the all-zero root; the order of leaves matters', () => {
  assert.equal(merkleRoot([]), EMPTY_ROOT);
  assert.is(EMPTY_ROOT.length, 32);
  assert.is.not(root(['a', 'b']), root(['b', 'a']));
});

test("a block's transaction root: leaves are the txid text, a zero byte, the container", () => {
  const txs = [
    { txid: 'AAAA-1', raw: new Uint8Array([0x81, 0xa1, 0x61, 0x01]) },
    { txid: 'BBBB-2', raw: new Uint8Array([0x80]) },
    { txid: 'CCCC-3', raw: new Uint8Array([0x92, 0x01, 0x02]) },
  ];
  const leaves = txs.map((t) => leaf(Buffer.concat([Buffer.from(t.txid), Buffer.from([0]), Buffer.from(t.raw)]).toString('latin1')));
  const byHand = node(node(leaves[0], leaves[1]), leaves[2]);
  assert.is(Buffer.from(txRoot(txs)).toString('hex'), byHand.toString('hex'));
});

test("a block's hash: SHA-256 over chain, height (u64 big-endian), parent, the two roots and the time (u64 ms)", () => {
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(n));
    return b;
  };
  const parent = Buffer.alloc(32, 0xab);
  const txroot = Buffer.alloc(32, 0x01);
  const balroot = Buffer.alloc(32, 0xfe);
  const header = { chain: 258, height: 70_000, parent, txroot, balroot, time: 1_800_000_000_123 };
  const byHand = h(u64(258), u64(70_000), parent, txroot, balroot, u64(1_800_000_000_123));
  const hash = blockHash(header);
  assert.is(Buffer.from(hash).toString('hex'), byHand.toString('hex'));
  const up = (b: Buffer) => b.toString('hex').toUpperCase();
  // The stored record: uppercase hex fields, the time as its u64 in mean_time, header version 2.
  const record = blockRecord(header, hash, { txs: ['A-1'], failed: {}, registered: {}, bals: {} });
  assert.equal(record.header, {
    chain: 258,
    height: 70_000,
    parent: up(parent),
    roots: { txroot: up(txroot), balroot: up(balroot), mean_time: up(u64(1_800_000_000_123)) },
    ver: 2,
  });
  assert.is(record.hash, up(byHand));
  assert.is(record.time, 1_800_000_000_123);
  assert.equal(record.txs, ['A-1']);
  assert.is(recordHash(record), record.hash, 'a whole record hashes to its own hash');
  assert.is.not(recordHash({ ...record, time: record.time + 1 }), record.hash, 'the time is covered');
});

test.run();
