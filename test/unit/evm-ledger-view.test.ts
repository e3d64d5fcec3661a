// The EVM's ledger over the node's: a ThePower wallet is an account whose balance is its SK and
// whose nonce the contract state keeps; every other account, code and storage are the contract
// state's; a block being built reads its own changes first. A run's changes split back into
// wallet balances and the contract state's entries.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { evmKey } from '../../src/node/evm/address.js';
import { ContractState } from '../../src/node/evm/contract-state.js';
import { EVM_CURRENCY, splitChanges, walletLedger } from '../../src/node/evm/ledger-view.js';
import { emptyChanges } from '../../src/node/evm/state.js';
import { storageKey } from '../../src/node/store/keys.js';
import { MemoryStore } from '../../src/node/store/store.js';

const walletAddress = addressFromText('AA100000001677721780');
const other = addressFromText('AA100000001677722185');
const third = addressFromText('AA100000001677721940');
const wallet = evmKey(walletAddress);
const otherKey = evmKey(other);
const thirdKey = evmKey(third);
const eth = 'ab'.repeat(20);
/** 24 zero digits, then 16 that are no valid ThePower address: an Ethereum account. */
const lookalike = '0'.repeat(24) + 'ffffffffffffffff';
const slot = '00'.repeat(32);

async function fixture() {
  const store = new MemoryStore();
  await store.batch([{ type: 'put', key: storageKey(otherKey, slot), value: new Uint8Array([5]) }]);
  const state = new ContractState(store);
  state.accounts.set(wallet, { balance: 0n, nonce: 4n });
  state.accounts.set(eth, { balance: 70n, nonce: 2n });
  state.accounts.set(lookalike, { balance: 9n, nonce: 1n });
  state.code.set(otherKey, new Uint8Array([0x60]));
  const wallets = new Map([
    [
      bytesToHex(walletAddress),
      {
        amount: new Map([
          ['SK', 120n],
          ['FEE', 3n],
        ]),
      },
    ],
    [bytesToHex(third), { amount: new Map([['FEE', 3n]]) }],
  ]);
  return { state, wallet: (hex: string) => wallets.get(hex) };
}

test('the EVM currency is SK', () => {
  assert.is(EVM_CURRENCY, 'SK');
});

test("accounts: a wallet is its SK and its nonce; other accounts are the contract state's; a contract without a wallet has balance 0", async () => {
  const { state, wallet: lookup } = await fixture();
  const ledger = walletLedger(state, lookup);
  assert.equal(ledger.account(wallet), { balance: 120n, nonce: 4n });
  assert.equal(ledger.account(thirdKey), { balance: 0n, nonce: 0n }, 'a wallet without SK');
  assert.equal(ledger.account(eth), { balance: 70n, nonce: 2n });
  assert.equal(ledger.account(lookalike), { balance: 9n, nonce: 1n }, 'twelve zero bytes that are no ThePower address: an Ethereum account');
  assert.equal(ledger.account(otherKey), { balance: 0n, nonce: 0n }, 'code and no wallet');
  assert.is(ledger.account(evmKey(addressFromText('AA100000001677722039'))), undefined);
  assert.is(ledger.account('cd'.repeat(20)), undefined);
  assert.equal(ledger.code(otherKey), new Uint8Array([0x60]));
  assert.equal(await ledger.storage(otherKey, slot), new Uint8Array([5]));
  assert.is(await ledger.storage(otherKey, '11'.repeat(32)), undefined);
  state.accounts.set(otherKey, { balance: 0n, nonce: 6n });
  assert.equal(ledger.account(otherKey), { balance: 0n, nonce: 6n }, 'code and a nonce, no wallet');
  state.code.delete(otherKey);
  assert.equal(ledger.account(otherKey), { balance: 0n, nonce: 6n }, 'a nonce alone, no wallet');
});

test('a block being built: its changes first, a slot it set back to zero absent, the rest from the state', async () => {
  const { state, wallet: lookup } = await fixture();
  const pending = emptyChanges();
  pending.accounts.set(eth, { balance: 1n, nonce: 3n });
  pending.accounts.set(wallet, { balance: 0n, nonce: 5n });
  pending.code.set(eth, new Uint8Array([0xfe]));
  pending.storage.set(
    otherKey,
    new Map([
      [slot, undefined],
      ['22'.repeat(32), new Uint8Array([7])],
    ]),
  );
  const ledger = walletLedger(state, lookup, pending);
  assert.equal(ledger.account(eth), { balance: 1n, nonce: 3n });
  assert.equal(ledger.account(wallet), { balance: 120n, nonce: 5n }, "the balance is still the wallet's SK");
  assert.equal(ledger.code(eth), new Uint8Array([0xfe]));
  assert.equal(ledger.code(otherKey), new Uint8Array([0x60]));
  assert.is(await ledger.storage(otherKey, slot), undefined);
  assert.equal(await ledger.storage(otherKey, '22'.repeat(32)), new Uint8Array([7]));
});

test("a run's changes split: wallet balances by address, a wallet's nonce only when not zero, everything else as it is", () => {
  const changes = emptyChanges();
  changes.accounts.set(wallet, { balance: 100n, nonce: 0n });
  changes.accounts.set(otherKey, { balance: 7n, nonce: 2n });
  changes.accounts.set(eth, { balance: 5n, nonce: 0n });
  changes.accounts.set(lookalike, { balance: 6n, nonce: 0n });
  changes.code.set(eth, new Uint8Array([1]));
  changes.storage.set(otherKey, new Map([[slot, undefined]]));
  const { balances, rest } = splitChanges(changes);
  assert.equal(
    balances,
    new Map([
      [bytesToHex(walletAddress), 100n],
      [bytesToHex(other), 7n],
    ]),
  );
  assert.equal(
    rest.accounts,
    new Map([
      [otherKey, { balance: 0n, nonce: 2n }],
      [eth, { balance: 5n, nonce: 0n }],
      [lookalike, { balance: 6n, nonce: 0n }],
    ]),
  );
  assert.equal(rest.code, new Map([[eth, new Uint8Array([1])]]));
  assert.equal(rest.storage, new Map([[otherKey, new Map([[slot, undefined]])]]));
});

test.run();
