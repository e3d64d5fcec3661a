// The EVM's view of the block being built: what earlier transactions of the block changed comes
// first, a slot they set back to zero reads as absent, and everything else is the ledger's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emptyChanges, ledgerWithChanges, mergeChanges, type EvmLedger } from '../../src/node/evm/state.js';

const A = 'aa'.repeat(20);
const B = 'bb'.repeat(20);
const slot = (n: number) => n.toString(16).padStart(64, '0');
const bytes = (...b: number[]) => new Uint8Array(b);

const base: EvmLedger = {
  account: (key) => (key === A ? { balance: 100n, nonce: 1n } : undefined),
  code: (key) => (key === A ? bytes(0x60, 0x00) : undefined),
  storage: (key, s) => (key === A && (s === slot(1) || s === slot(3)) ? bytes(7) : key === B && s === slot(1) ? bytes(9) : undefined),
};

test('reads fall through to the ledger for what the block has not changed, per key and per slot', () => {
  const changes = emptyChanges();
  changes.storage.set(
    A,
    new Map([
      [slot(2), bytes(5)],
      [slot(3), undefined],
    ]),
  );
  changes.accounts.set(B, { balance: 1n, nonce: 0n });
  const view = ledgerWithChanges(base, changes);
  assert.equal(view.storage(A, slot(1)), bytes(7), 'an untouched slot of a touched contract');
  assert.equal(view.storage(A, slot(2)), bytes(5), 'a slot the block wrote');
  assert.is(view.storage(A, slot(3)), undefined, 'a slot the block set back to zero');
  assert.equal(view.storage(B, slot(1)), bytes(9), 'an untouched contract');
  assert.is(view.storage(B, slot(2)), undefined);
  assert.equal(view.account(A), { balance: 100n, nonce: 1n });
  assert.equal(view.account(B), { balance: 1n, nonce: 0n });
  assert.equal(view.code(A), bytes(0x60, 0x00));
  assert.is(view.code(B), undefined);
});

test("a later transaction's changes fold over an earlier one's, slot by slot", () => {
  const first = emptyChanges();
  first.storage.set(
    A,
    new Map([
      [slot(1), bytes(1)],
      [slot(2), bytes(2)],
    ]),
  );
  first.accounts.set(A, { balance: 5n, nonce: 2n });
  const later = emptyChanges();
  later.storage.set(A, new Map([[slot(2), undefined]]));
  later.storage.set(B, new Map([[slot(4), bytes(4)]]));
  later.code.set(B, bytes(1));
  mergeChanges(first, later);
  const view = ledgerWithChanges(base, first);
  assert.equal(view.storage(A, slot(1)), bytes(1));
  assert.is(view.storage(A, slot(2)), undefined);
  assert.equal(view.storage(B, slot(4)), bytes(4));
  assert.equal(view.storage(B, slot(1)), bytes(9));
  assert.equal(view.code(B), bytes(1));
  assert.equal(view.account(A), { balance: 5n, nonce: 2n });
});

test.run();
