// A transaction as the node keeps it once it has passed the submission checks: the exact
// container bytes (what is stored and hashed), the decoded fields the ledger needs, and the
// keys whose signatures verified.

import type { EthTxBody } from '../evm/eth-tx.js';

export interface PayloadItem {
  purpose: number;
  currency: string;
  amount: bigint;
}

export type NodeTxBody =
  | {
      kind: 'generic';
      from: Uint8Array;
      to: Uint8Array;
      seq: bigint;
      t: number;
      payload: PayloadItem[];
      /** Contract calldata (`c` = ["0x0", [data]]). */ call?: Uint8Array;
      /** A `c` of another form. */ badCall?: true;
    }
  | { kind: 'deploy'; from: Uint8Array; seq: bigint; t: number; payload: PayloadItem[]; /** Creation code and ABI-encoded constructor arguments. */ code: Uint8Array; args?: Uint8Array }
  | EthTxBody
  | { kind: 'notify'; from: Uint8Array; seq: bigint; t: number; payload: PayloadItem[] }
  | { kind: 'chkey'; from: Uint8Array; seq: bigint; t: number; keys: Uint8Array[] }
  | { kind: 'register'; t: number; keysHash: Uint8Array };

export interface NodeTx {
  txid: string;
  /** The txid's time component: the order transactions are applied in. */
  timeNs: bigint;
  /** The container exactly as received. */
  raw: Uint8Array;
  bodyLength: number;
  /** Hex SHA-256 of the body bytes: the identity of "the same transaction" on resubmission. */
  bodyHash: string;
  body: NodeTxBody;
  /** Compressed keys of the signatures that verified (for senders: only the sender's key is checked). */
  signers: Uint8Array[];
}

export const PURPOSE_TRANSFER = 0;
export const PURPOSE_SRCFEE = 1;
export const PURPOSE_GAS = 3;

/** Milliseconds a transaction timestamp may differ from the node clock (reference: 1 h). */
export const TIMESTAMP_WINDOW_MS = 3_600_000;
