// Block Merkle roots, composed by hand from node:crypto for one to five leaves: leaves and inner
// nodes domain-separated (0x00, 0x01), an odd node carried up unchanged, no leaves the zero root.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { EMPTY_ROOT, merkleRoot } from '../../src/node/ledger/merkle.js';

const h = (...parts: (Buffer | number[])[]) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();
const leaf = (s: string) => h([0], Buffer.from(s));
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

test.run();
