// The EVM's ledger over the node's: a ThePower wallet is an account whose balance is its SK,
// every other account and all code and storage are the ContractState's. `walletLedger` reads
// the committed state or a block being built (through `wallet`); `splitChanges` turns a run's
// changes back into wallet balances and the ContractState's own entries.

import { bytesToHex } from '../../bytes.js';
import { powerAddress } from './address.js';
import type { ContractState } from './contract-state.js';
import { emptyChanges, type EvmAccount, type EvmChanges, type EvmLedger } from './state.js';

/** The native currency of the EVM's balances. */
export const EVM_CURRENCY = 'SK';

interface WalletLike {
  amount: Map<string, bigint>;
}

/** A read of the ledger: `wallet` by lowercase address hex, `pending` the block's EVM changes so far. */
export function walletLedger(state: ContractState, wallet: (addressHex: string) => WalletLike | undefined, pending?: EvmChanges): EvmLedger {
  const own = (key: string): EvmAccount | undefined => pending?.accounts.get(key) ?? state.accounts.get(key);
  return {
    account(key) {
      const address = key.startsWith('000000000000000000000000') ? powerAddress(key) : undefined;
      if (address) {
        const w = wallet(bytesToHex(address));
        const nonce = own(key)?.nonce ?? 0n;
        if (w) return { balance: w.amount.get(EVM_CURRENCY) ?? 0n, nonce };
        return own(key) ?? (this.code(key) ? { balance: 0n, nonce } : undefined);
      }
      return own(key);
    },
    code: (key) => pending?.code.get(key) ?? state.code.get(key),
    storage(key, slot) {
      const slots = pending?.storage.get(key);
      return slots?.has(slot) ? slots.get(slot) : state.storageValue(key, slot);
    },
  };
}

/**
 * A run's changes, split: SK balances of ThePower wallets (lowercase address hex → amount),
 * and the rest for the ContractState, where a wallet's account keeps only its nonce.
 */
export function splitChanges(changes: EvmChanges): { balances: Map<string, bigint>; rest: EvmChanges } {
  const balances = new Map<string, bigint>();
  const rest = emptyChanges();
  for (const [key, account] of changes.accounts) {
    const address = key.startsWith('000000000000000000000000') ? powerAddress(key) : undefined;
    if (address) {
      balances.set(bytesToHex(address), account.balance);
      if (account.nonce !== 0n) rest.accounts.set(key, { balance: 0n, nonce: account.nonce });
    } else rest.accounts.set(key, account);
  }
  for (const [k, v] of changes.code) rest.code.set(k, v);
  for (const [k, v] of changes.storage) rest.storage.set(k, v);
  return { balances, rest };
}
