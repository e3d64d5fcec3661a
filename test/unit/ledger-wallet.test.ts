// A wallet record: a new one starts empty (no key change, seq 0, no block: all-zero 32-byte
// hashes), the stored JSON reads back (a record without a height reads as height -1, unknown),
// and the balance root's bytes list the balances sorted by currency, whatever order they were set in.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeWallet, encodeWallet, newWallet, walletStateBytes, ZERO_HASH } from '../../src/node/ledger/wallet.js';

const json = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString());

test('a new wallet: no balance, seq 0, t 0, no block (all-zero hashes of 32 bytes), height 0', () => {
  assert.is(ZERO_HASH.length, 32);
  assert.ok(ZERO_HASH.every((b) => b === 0));
  const w = newWallet(null);
  assert.equal(json(encodeWallet(w)), { pubkey: null, amount: {}, seq: '0', t: 0, lastblk: '0'.repeat(64), preblk: '0'.repeat(64), height: 0 });
});

test('the stored JSON reads back; a record stored before heights were kept reads as height -1', () => {
  const w = newWallet(new Uint8Array(33).fill(2));
  w.amount.set('SK', 12_345_678_901_234_567_890n);
  w.seq = 7n;
  w.t = 1_800_000_000_000;
  w.lastblk = new Uint8Array(32).fill(0xab);
  w.height = 41;
  const back = decodeWallet(encodeWallet(w));
  assert.equal(back, w);
  const { height: _height, ...old } = json(encodeWallet(w));
  assert.is(decodeWallet(Buffer.from(JSON.stringify(old))).height, -1);
});

test("the balance root's bytes: address, key, seq, t, then the balances sorted by currency", () => {
  const w = newWallet(new Uint8Array([1, 2, 3]));
  for (const [cur, v] of [
    ['SK', 1n],
    ['ABC', 2n],
    ['XX', 3n],
    ['AB', 4n],
    ['b', 5n],
  ] as const)
    w.amount.set(cur, v);
  w.seq = 5n;
  w.t = 99;
  const state = json(walletStateBytes('00aa', w));
  assert.equal(state, [
    '00aa',
    '010203',
    '5',
    99,
    [
      ['AB', '4'],
      ['ABC', '2'],
      ['SK', '1'],
      ['XX', '3'],
      ['b', '5'],
    ],
  ]);
  // The same balances set in another order give the same bytes.
  const other = newWallet(new Uint8Array([1, 2, 3]));
  for (const cur of ['b', 'XX', 'AB', 'SK', 'ABC']) other.amount.set(cur, w.amount.get(cur)!);
  other.seq = 5n;
  other.t = 99;
  assert.equal(walletStateBytes('00aa', other), walletStateBytes('00aa', w));
  assert.equal(json(walletStateBytes('00bb', newWallet(null))), ['00bb', '', '0', 0, []]);
});

test.run();
