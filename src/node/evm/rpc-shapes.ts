// The JSON shapes the Ethereum JSON-RPC answers with: blocks, events, receipts and
// transactions as geth writes them (hex quantities, 0x data, null for what is not there yet).

import { bytesToHex } from '../../bytes.js';
import type { EthBlock, EthReceipt, EthTransaction } from './eth-chain.js';
import type { StoredLog } from './logs.js';

const ZERO_BLOOM = '0x' + '0'.repeat(512);
const EMPTY_LIST_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

export const hex = (n: bigint | number) => '0x' + n.toString(16);
export const hexBytes = (b: Uint8Array | string) => '0x' + (typeof b === 'string' ? b : bytesToHex(b));

/**
 * One event as eth_getLogs and receipts show it; `blockTimestamp` (seconds, as the block's
 * `timestamp`) when the block is at hand: PowerWallet's token history dates each event by it.
 */
export function rpcLog(log: StoredLog, block: { height: number; hash: string }, txHash: string, time?: number) {
  return {
    address: hexBytes(log.address),
    topics: log.topics.map(hexBytes),
    data: hexBytes(log.data),
    blockNumber: hex(block.height),
    blockHash: hexBytes(block.hash.toLowerCase()),
    transactionHash: hexBytes(txHash),
    transactionIndex: hex(log.txIndex),
    logIndex: hex(log.logIndex),
    removed: false,
    ...(time === undefined ? {} : { blockTimestamp: hex(Math.floor(time / 1000)) }),
  };
}

/**
 * `gasLimit` is the most gas a block may use, what eth_sendRawTransaction checks a transaction
 * against. `baseFee` is the least price per gas the node takes: no fee is burnt, but a base fee
 * of 0 tells clients gas is free (Hardhat Ignition then sends fees of 0, which are refused).
 */
export function rpcBlock(b: EthBlock, gasLimit: bigint, baseFee: bigint) {
  return {
    number: hex(b.height),
    hash: hexBytes(b.hash),
    parentHash: hexBytes(b.parent),
    nonce: '0x0000000000000000',
    sha3Uncles: EMPTY_LIST_HASH,
    logsBloom: ZERO_BLOOM,
    transactionsRoot: hexBytes(b.txroot),
    stateRoot: hexBytes(b.balroot),
    receiptsRoot: hexBytes(b.txroot),
    miner: '0x' + '0'.repeat(40),
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: hex(0),
    gasLimit: hex(gasLimit),
    gasUsed: '0x0',
    baseFeePerGas: hex(baseFee),
    timestamp: hex(Math.floor(b.time / 1000)),
    mixHash: '0x' + '0'.repeat(64),
    transactions: b.txHashes.map(hexBytes),
    uncles: [],
  };
}

/** `gasPrice` is what the sender paid per gas (its transaction's price). */
export function rpcReceipt(r: EthReceipt, gasPrice: bigint) {
  return {
    transactionHash: hexBytes(r.hash),
    transactionIndex: hex(r.index),
    blockHash: hexBytes(r.blockHash.toLowerCase()),
    blockNumber: hex(r.height),
    from: hexBytes(r.from),
    to: r.to === null ? null : hexBytes(r.to),
    cumulativeGasUsed: hex(r.gasUsed),
    gasUsed: hex(r.gasUsed),
    effectiveGasPrice: hex(gasPrice),
    contractAddress: r.created ? hexBytes(r.created) : null,
    logs: r.logs.map((log) => rpcLog(log, { height: r.height, hash: r.blockHash }, r.hash)),
    logsBloom: ZERO_BLOOM,
    status: hex(r.status),
    type: '0x0',
    txID: r.txid,
  };
}

/** A transaction waiting for a block has null block fields, as geth shows a pending one. */
export function rpcTransaction(t: EthTransaction) {
  return {
    hash: hexBytes(t.hash),
    from: hexBytes(t.from),
    to: t.to === null ? null : hexBytes(t.to),
    nonce: hex(t.nonce),
    gas: hex(t.gas),
    gasPrice: hex(t.gasPrice),
    value: hex(t.value),
    input: hexBytes(t.input),
    type: hex(t.type),
    v: hex(t.v),
    r: hex(t.r),
    s: hex(t.s),
    chainId: hex(t.chainId),
    blockHash: t.block ? hexBytes(t.block.hash.toLowerCase()) : null,
    blockNumber: t.block ? hex(t.block.height) : null,
    transactionIndex: t.block ? hex(t.block.index) : null,
  };
}
