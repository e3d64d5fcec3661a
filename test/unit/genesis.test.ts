// The genesis ledger from the config: the wallets it lists (key, balances, seq, t as given; no
// key: a receive-only wallet), the fee wallet, and where registration numbers continue: after
// the highest genesis wallet of the node's own allocation block, wallets elsewhere not counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { makeAddress } from '../../src/codec/address.js';
import { defaultConfig, type NodeConfig } from '../../src/node/config/config.js';
import { buildGenesis } from '../../src/node/ledger/genesis.js';

const KEY = '02B1912FABA80FCECD2A64C574FEFE422C61106001EC588AF1BD9D7548B81064CB';
const hex0x = (address: Uint8Array) => '0x' + bytesToHex(address);

test('config wallets: key, balances, seq and t as given; without a key a wallet only receives', () => {
  const base = defaultConfig();
  const at = (wallet: number) => makeAddress({ group: base.allocGroup, block: base.chain, wallet });
  const config: NodeConfig = {
    ...base,
    accounts: 1,
    balance: { SK: 10n },
    wallets: [
      { address: hex0x(at(40)), publicKey: KEY, amount: { SK: 5n, XYZ: 7n }, seq: 12n, t: 1_800_000_000_000 },
      { address: hex0x(at(41)), amount: { SK: 1n } },
    ],
  };
  const g = buildGenesis(config);
  const w40 = g.wallets.get(bytesToHex(at(40)))!;
  assert.equal(
    [bytesToHex(w40.pubkey!).toUpperCase(), [...w40.amount], w40.seq, w40.t],
    [
      KEY,
      [
        ['SK', 5n],
        ['XYZ', 7n],
      ],
      12n,
      1_800_000_000_000,
    ],
  );
  const w41 = g.wallets.get(bytesToHex(at(41)))!;
  assert.equal([w41.pubkey, [...w41.amount], w41.seq, w41.t], [null, [['SK', 1n]], 0n, 0]);
  assert.equal([...g.wallets.get(bytesToHex(at(1)))!.amount], [['SK', 10n]], 'the development account');
  assert.is(g.wallets.size, 4, 'one account, two config wallets, the fee wallet');
  assert.is(g.allocLast, 41, 'registration continues after the highest');
});

test('registration numbers: only wallets of our own allocation block count; with none there, they start at 1', () => {
  const base = defaultConfig();
  const elsewhere = makeAddress({ group: base.allocGroup + 1, block: base.chain, wallet: 500 });
  const otherChain = makeAddress({ group: base.allocGroup, block: base.chain + 1, wallet: 600 });
  const fee = makeAddress({ group: base.allocGroup + 2, block: base.chain, wallet: 9 });
  const g = buildGenesis({
    ...base,
    accounts: 0,
    feeAddress: hex0x(fee),
    wallets: [
      { address: hex0x(elsewhere), amount: {} },
      { address: hex0x(otherChain), amount: {} },
    ],
  });
  assert.is(g.allocLast, 0);
  assert.equal(g.feeAddress, fee);
  assert.is(g.wallets.size, 3);
  const two = buildGenesis({ ...base, accounts: 2, feeAddress: hex0x(fee), wallets: [{ address: hex0x(elsewhere), amount: {} }] });
  assert.is(two.allocLast, 2, 'the two accounts; the fee wallet and the other wallet are elsewhere');
});

test.run();
