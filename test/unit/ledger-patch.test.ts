// ledger_patch rows from a block's changed wallets and what each was before, in the
// reference node's shape: [0x address, field, path, old, new], "0x" for a value not there.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ledgerPatchRows, walletBefore } from '../../src/node/ledger/ledger-patch.js';
import { newWallet, storedWallet } from '../../src/node/ledger/wallet.js';

const A = '8001400001000005';
const KEY = '02' + '11'.repeat(32);

test('a wallet the block registers: its key, and lastblk "0x" before', () => {
  const w = newWallet(Uint8Array.from(Buffer.from(KEY, 'hex')));
  w.height = 7;
  const rows = ledgerPatchRows({ [A]: { ...storedWallet(w), was: walletBefore(undefined, w) } }, 7);
  assert.equal(rows, [
    [`0x${A.toLowerCase()}`, 'pubkey', [], '0x', `0x${KEY}`],
    [`0x${A.toLowerCase()}`, 'lastblk', '0x7478', '0x', 7],
  ]);
});

test('a wallet that sends: balance per changed currency (path: the currency bytes), seq, lastblk from its last height', () => {
  const before = newWallet(null);
  before.amount.set('SK', 1000n).set('FEE', 3n);
  before.seq = 4n;
  before.height = 12;
  const after = {
    ...before,
    amount: new Map([
      ['SK', 990n],
      ['FEE', 3n],
      ['XYZ', 2n ** 63n],
    ]),
    seq: 5n,
    height: 20,
  };
  const rows = ledgerPatchRows({ [A]: { ...storedWallet(after), was: walletBefore(before, after) } }, 20);
  const a = `0x${A.toLowerCase()}`;
  assert.equal(rows, [
    [a, 'balance', '0x534b', 1000n, 990n],
    [a, 'balance', '0x58595a', 0n, 2n ** 63n],
    [a, 'seq', [], 4n, 5n],
    [a, 'lastblk', '0x7478', 12, 20],
  ]);
});

test('a key change names the old key; a receiving wallet has no seq row', () => {
  const before = newWallet(Uint8Array.from(Buffer.from(KEY, 'hex')));
  before.height = 3;
  const next = '03' + '22'.repeat(32);
  const after = { ...before, pubkey: Uint8Array.from(Buffer.from(next, 'hex')), height: 9 };
  const rows = ledgerPatchRows({ [A]: { ...storedWallet(after), was: walletBefore(before, after) } }, 9);
  assert.equal(
    rows.map((r) => (r as unknown[])[1]),
    ['pubkey', 'lastblk'],
  );
  assert.equal((rows[0] as unknown[]).slice(3), [`0x${KEY}`, `0x${next}`]);
});

test("only one address's rows when asked; none for a record kept before `was` was written", () => {
  const w = newWallet(null);
  const bals = { [A]: { ...storedWallet(w), was: null }, '8001400001000006': { ...storedWallet(w), was: null }, '8001400001000007': storedWallet(w) };
  assert.is(ledgerPatchRows(bals, 1).length, 2);
  assert.equal(
    ledgerPatchRows(bals, 1, A).map((r) => (r as unknown[])[0]),
    [`0x${A.toLowerCase()}`],
  );
  assert.equal(ledgerPatchRows(bals, 1, '8001400001000007'), []);
});

test('a currency the block takes to nothing (its entry gone): the row goes down to 0', () => {
  const before = newWallet(null);
  before.amount.set('SK', 5n).set('XX', 7n);
  before.height = 2;
  const after = { ...before, amount: new Map([['XX', 7n]]), height: 4 };
  const rows = ledgerPatchRows({ [A]: { ...storedWallet(after), was: walletBefore(before, after) } }, 4);
  assert.equal(rows, [
    [`0x${A.toLowerCase()}`, 'balance', '0x534b', 5n, 0n],
    [`0x${A.toLowerCase()}`, 'lastblk', '0x7478', 2, 4],
  ]);
});

test.run();
