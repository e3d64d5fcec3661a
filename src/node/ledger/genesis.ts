// The ledger a new data directory starts from: deterministic development accounts (the same
// keys on every machine, like Anvil's), the wallet that collects fees, and any wallets the
// config lists. Development keys are public knowledge: never use them on a real chain.

import { createHash } from 'node:crypto';
import { bytesToHex, hexToBytes } from '../../bytes.js';
import { addressParts, addressToText, makeAddress, parseAddress } from '../../codec/address.js';
import { normalizePublicKey, publicKeyOf } from '../../crypto/keys.js';
import { ValidationError } from '../../errors.js';
import type { NodeConfig } from '../config/config.js';
import { newWallet, type Wallet } from './wallet.js';

export interface DevAccount {
  index: number;
  secretKey: Uint8Array;
  publicKey: Uint8Array;
  address: Uint8Array;
}

/** Secret key of development account i: SHA-256 of a fixed label (valid for every i tried). */
export function devSecretKey(index: number): Uint8Array {
  return createHash('sha256').update(`tpkit development account ${index}`).digest();
}

export function devAccounts(config: NodeConfig): DevAccount[] {
  const out: DevAccount[] = [];
  for (let i = 0; i < config.accounts; i++) {
    const secretKey = devSecretKey(i);
    out.push({
      index: i,
      secretKey,
      publicKey: publicKeyOf(secretKey),
      address: makeAddress({ group: config.allocGroup, block: config.chain, wallet: i + 1 }),
    });
  }
  return out;
}

export interface Genesis {
  wallets: Map<string, Wallet>;
  feeAddress: Uint8Array;
  allocLast: number;
  accounts: DevAccount[];
}

function invalid(field: string, message: string, cause?: unknown): ValidationError {
  return new ValidationError('CONFIG_INVALID', `${field}: ${message}`, { field, cause });
}

/** Where fees go: the configured address, else the wallet after the development accounts. */
export function feeAddressOf(config: NodeConfig): Uint8Array {
  if (config.feeAddress === undefined) return makeAddress({ group: config.allocGroup, block: config.chain, wallet: config.accounts + 1 });
  try {
    return parseAddress(config.feeAddress);
  } catch (cause) {
    throw invalid('feeAddress', `not an address: ${JSON.stringify(config.feeAddress)}`, cause);
  }
}

export function buildGenesis(config: NodeConfig): Genesis {
  const wallets = new Map<string, Wallet>();
  const accounts = devAccounts(config);
  const put = (address: Uint8Array, wallet: Wallet, what: string) => {
    const key = bytesToHex(address);
    if (wallets.has(key)) throw invalid(what, `address ${addressToText(address)} is given twice in the genesis`);
    wallets.set(key, wallet);
  };
  for (const account of accounts) {
    const w = newWallet(account.publicKey);
    for (const [cur, amount] of Object.entries(config.balance)) w.amount.set(cur, amount);
    put(account.address, w, `account ${account.index}`);
  }
  config.wallets.forEach((entry, i) => {
    const field = `wallets[${i}]`;
    let address: Uint8Array;
    let pubkey: Uint8Array | null = null;
    try {
      address = parseAddress(entry.address);
    } catch (cause) {
      throw invalid(`${field}.address`, `not an address: ${JSON.stringify(entry.address)}`, cause);
    }
    if (entry.publicKey !== undefined) {
      try {
        pubkey = normalizePublicKey(hexToBytes(entry.publicKey));
      } catch (cause) {
        throw invalid(`${field}.publicKey`, 'not a secp256k1 public key', cause);
      }
    }
    const w = newWallet(pubkey);
    for (const [cur, amount] of Object.entries(entry.amount)) w.amount.set(cur, amount);
    if (entry.seq !== undefined) w.seq = entry.seq;
    if (entry.t !== undefined) w.t = entry.t;
    put(address, w, field);
  });
  const feeAddress = feeAddressOf(config);
  if (!wallets.has(bytesToHex(feeAddress))) wallets.set(bytesToHex(feeAddress), newWallet(null));

  // Registration continues after the highest genesis wallet of the allocation block.
  let highest = 0;
  for (const key of wallets.keys()) {
    const parts = addressParts(hexToBytes(key));
    if (parts.kind === 'public' && parts.group === config.allocGroup && parts.block === config.chain) highest = Math.max(highest, parts.wallet);
  }
  return { wallets, feeAddress, allocLast: config.allocLast ?? highest, accounts };
}
