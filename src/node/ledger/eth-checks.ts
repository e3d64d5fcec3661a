// The checks geth makes of an Ethereum transaction before it takes it into its pool
// (core/txpool validation), with geth's error texts, which clients match on: viem and ethers
// turn "nonce too low", "insufficient funds", "intrinsic gas too low" into their own errors.

import type { ValidationError } from '../../errors.js';
import { intrinsicGas, MAX_INITCODE_BYTES, type EthTxBody } from '../evm/eth-tx.js';
import { ethRefused } from './eth-queue.js';

export function alreadyKnown(hash: string): ValidationError {
  return ethRefused('already known', `transaction 0x${hash} is waiting for a block or included already`);
}

/**
 * Why an Ethereum transaction cannot be taken, given its account's committed nonce and SK
 * balance and the chain's minimum gas price and block gas limit; undefined when it can.
 */
export function ethSubmissionRefusal(body: EthTxBody, account: { nonce: bigint; balance: bigint }, chain: { minGasPrice: bigint; blockGasLimit: bigint }): ValidationError | undefined {
  if (body.nonce < account.nonce) return ethRefused('nonce too low', `address 0x${body.from}, tx: ${body.nonce} state: ${account.nonce}`);
  if (body.gasLimit > chain.blockGasLimit) return ethRefused('exceeds block gas limit', `gas ${body.gasLimit}, a block holds at most ${chain.blockGasLimit}`);
  const create = body.to === undefined;
  if (create && body.data.length > MAX_INITCODE_BYTES) return ethRefused('max initcode size exceeded', `code size ${body.data.length}, limit ${MAX_INITCODE_BYTES} (EIP-3860)`);
  const intrinsic = intrinsicGas(body.data, create);
  if (body.gasLimit < intrinsic) return ethRefused('intrinsic gas too low', `gas ${body.gasLimit}, minimum needed ${intrinsic}`);
  if (body.gasPrice < chain.minGasPrice) return ethRefused('transaction underpriced', `gas price ${body.gasPrice}, the node takes at least ${chain.minGasPrice} (eth_gasPrice)`);
  const cost = body.gasLimit * body.gasPrice + body.value;
  if (account.balance < cost) return ethRefused('insufficient funds for gas * price + value', `address 0x${body.from} have ${account.balance} want ${cost}`);
  return undefined;
}
