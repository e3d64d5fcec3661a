// A small ledger for tests of the ledger rules at their own seam: two keyed wallets with
// balances, a fixed clock, and transactions run through the real submission checks.
import { base64ToBytes, bytesToHex } from '../../src/bytes.js';
import { makeAddress } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { defaultConfig } from '../../src/node/config/config.js';
import { devSecretKey } from '../../src/node/ledger/genesis.js';
import type { NodeTx } from '../../src/node/ledger/node-tx.js';
import { validateSubmission, type SubmissionContext } from '../../src/node/ledger/validate.js';
import { newWallet, type Wallet } from '../../src/node/ledger/wallet.js';

export const NOW = 1_750_000_000_000;
export const CHAIN = 1;
export const alice = { key: devSecretKey(0), address: makeAddress({ group: 10, block: CHAIN, wallet: 1 }) };
export const bob = { key: devSecretKey(1), address: makeAddress({ group: 10, block: CHAIN, wallet: 2 }) };
/** A key no wallet holds. */
export const stranger = { key: devSecretKey(7), address: makeAddress({ group: 10, block: CHAIN, wallet: 9 }) };

export const hex = (address: Uint8Array) => bytesToHex(address);

/** Alice holds 1000 SK at seq 5, t NOW - 10 s; Bob 10 SK, fresh. */
export function ledger(): Map<string, Wallet> {
  const a = newWallet(publicKeyOf(alice.key));
  a.amount.set('SK', 1000n);
  a.seq = 5n;
  a.t = NOW - 10_000;
  const b = newWallet(publicKeyOf(bob.key));
  b.amount.set('SK', 10n);
  return new Map([
    [hex(alice.address), a],
    [hex(bob.address), b],
  ]);
}

export function context(wallets: ReadonlyMap<string, Wallet>, overrides: Partial<SubmissionContext> = {}): SubmissionContext {
  return { now: NOW, chain: CHAIN, difficulty: 0, limits: defaultConfig().limits, wallet: (a) => wallets.get(a), ...overrides };
}

let serial = 0;

/** A container (base64, as the helpers sign it) checked by the submission rules, with a txid. */
export function admitted(txBase64: string, wallets: ReadonlyMap<string, Wallet> = ledger()): NodeTx {
  const tx = validateSubmission(base64ToBytes(txBase64), context(wallets));
  serial++;
  tx.txid = `tx${serial}`;
  tx.timeNs = BigInt(serial);
  return tx;
}
