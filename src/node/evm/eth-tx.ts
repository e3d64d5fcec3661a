// Ethereum transactions for eth_sendRawTransaction: legacy (with or without EIP-155),
// EIP-2930 and EIP-1559, decoded and checked by @ethereumjs/tx. The sender is recovered from
// the signature; the chain id must be this chain's (a legacy transaction without EIP-155
// names none and is accepted, as geth does with --rpc.allow-unprotected-txs).

import { bytesToHex } from '../../bytes.js';
import { ValidationError } from '../../errors.js';
import { signedChainId } from './eth-chain-id.js';
import type { EvmLib } from './load.js';

export interface EthTxBody {
  kind: 'ether';
  /** EVM keys (40 hex digits); `to` absent for a create. */
  from: string;
  to?: string;
  nonce: bigint;
  gasLimit: bigint;
  /** What the sender pays per gas: the legacy price, or the EIP-1559 fee cap (the base fee is 0). */
  gasPrice: bigint;
  value: bigint;
  data: Uint8Array;
  /** keccak-256 of the raw transaction, lowercase hex. */
  hash: string;
  type: number;
  v: bigint;
  r: bigint;
  s: bigint;
  chainId: bigint;
}

function refused(details: string, cause?: unknown): ValidationError {
  return new ValidationError('BODY_BAD_FIELD', 'Invalid Ethereum transaction', { field: 'transaction', details, cause });
}

export function decodeEthTx(raw: Uint8Array, lib: EvmLib, common: unknown, chainId: bigint): EthTxBody {
  // Checked before decoding: the decoder's own refusal of another chain names neither chain.
  const named = signedChainId(raw);
  if (typeof named === 'bigint' && named !== chainId) throw refused(`signed for chain id ${named}, this node is ${chainId}`);
  let tx;
  try {
    tx = lib.createTxFromRLP(raw, { common });
  } catch (cause) {
    throw refused(
      String((cause as Error).message)
        .split('\n')[0]
        .slice(0, 200),
      cause,
    );
  }
  let from: string;
  try {
    if (!tx.verifySignature()) throw new Error('the signature does not verify');
    from = bytesToHex(tx.getSenderAddress().bytes);
  } catch (cause) {
    throw refused(`the signature does not verify: ${(cause as Error).message.split('\n')[0].slice(0, 120)}`, cause);
  }
  const gasPrice =
    tx.gasPrice ?? (tx.maxPriorityFeePerGas !== undefined && tx.maxFeePerGas !== undefined ? (tx.maxPriorityFeePerGas < tx.maxFeePerGas ? tx.maxPriorityFeePerGas : tx.maxFeePerGas) : 0n);
  return {
    kind: 'ether',
    from,
    ...(tx.to ? { to: bytesToHex(tx.to.bytes) } : {}),
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    gasPrice,
    value: tx.value,
    data: tx.data,
    hash: bytesToHex(tx.hash()),
    type: tx.type,
    v: tx.v ?? 0n,
    r: tx.r ?? 0n,
    s: tx.s ?? 0n,
    chainId,
  };
}

/**
 * An Ethereum transaction starts with a type byte below 0x80 or, legacy, a long RLP list
 * (0xf8 and up: it is always over 55 bytes); a ThePower container is a MessagePack map
 * (0x80..0x8f, 0xde, 0xdf).
 */
export function isEthTx(raw: Uint8Array): boolean {
  return raw.length > 0 && (raw[0] >= 0xf8 || raw[0] <= 0x7f);
}

/** EIP-170: the most runtime code a contract may hold, for both deploy doors. */
export const MAX_CODE_BYTES = 24_576;
/** EIP-3860: the most init code a create may run (twice EIP-170). */
export const MAX_INITCODE_BYTES = 2 * MAX_CODE_BYTES;

/**
 * Gas of an Ethereum transaction before its code runs: 21000, calldata, and a create's 32000
 * plus 2 a word of init code (EIP-3860).
 */
export function intrinsicGas(input: Uint8Array, create: boolean): bigint {
  let gas = create ? 53_000n + 2n * BigInt(Math.ceil(input.length / 32)) : 21_000n;
  for (const b of input) gas += b === 0 ? 4n : 16n;
  return gas;
}
