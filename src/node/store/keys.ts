// The store's key schema: every key the ledger writes, spelled once. Heights are 12 hex digits
// so that block keys sort by height.
//
//   meta            chain head and genesis parameters (JSON, ChainMeta)
//   b:<height>      block record (JSON)
//   h:<HASH>        height of a block hash
//   x:<txid>        transaction container as received
//   s:<txid>        status JSON as GET /api/tx/status answers it
//   d:<body hash>   txid of the included, successful transaction with that body
//   w:<address>     wallet (JSON), lowercase address hex
//   p:<txid>        pending transaction container (written ahead of its acknowledgement)
//   dev:clock       offset of the node clock from the system clock, ms (dev API `time`)
//   c:<evm key>             contract code (runtime)
//   k:<evm key>:<slot>      contract storage value (big-endian, no leading zeros)
//   e:<evm key>             EVM account {"balance","nonce"} (decimal strings)
//   l:<height>              the block's events (JSON)
//   r:<hash>                a contract transaction's receipt (JSON), by Ethereum hash
//   ev:<height>             the block's EVM undo record (evm/contract-state.ts)
// An EVM key is 40 lowercase hex digits (evm/address.ts), a slot 64.

export const META_KEY = 'meta';
export const CLOCK_KEY = 'dev:clock';

/** Prefixes of the keys that hold one record each, for prefix scans. */
export const PREFIX = {
  block: 'b:',
  hash: 'h:',
  tx: 'x:',
  status: 's:',
  body: 'd:',
  wallet: 'w:',
  pending: 'p:',
  code: 'c:',
  storage: 'k:',
  evmAccount: 'e:',
  logs: 'l:',
  receipt: 'r:',
  evmUndo: 'ev:',
} as const;

export const heightKey = (height: number): string => PREFIX.block + height.toString(16).padStart(12, '0');
export const hashKey = (hashHex: string): string => PREFIX.hash + hashHex.toUpperCase();
export const txKey = (txid: string): string => PREFIX.tx + txid;
export const statusKey = (txid: string): string => PREFIX.status + txid;
export const bodyKey = (bodyHash: string): string => PREFIX.body + bodyHash;
export const walletKey = (addressHex: string): string => PREFIX.wallet + addressHex.toLowerCase();
export const pendingKey = (txid: string): string => PREFIX.pending + txid;
const height12 = (height: number) => height.toString(16).padStart(12, '0');
export const codeKey = (evmKey: string): string => PREFIX.code + evmKey;
export const storageKey = (evmKey: string, slot: string): string => `${PREFIX.storage}${evmKey}:${slot}`;
export const evmAccountKey = (evmKey: string): string => PREFIX.evmAccount + evmKey;
export const logsKey = (height: number): string => PREFIX.logs + height12(height);
export const receiptKey = (hashHex: string): string => PREFIX.receipt + hashHex;
export const evmUndoKey = (height: number): string => PREFIX.evmUndo + height12(height);

/** The chain head and the genesis parameters, stored under META_KEY. */
export interface ChainMeta {
  version: 1;
  chain: number;
  allocGroup: number;
  nodeName: string;
  feeAddress: string;
  accounts: number;
  height: number;
  hash: string;
  time: number;
  allocLast: number;
}
