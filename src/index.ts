// tpkit: the ThePower transaction toolkit. Everything a wallet embeds is exported here:
// codec (MessagePack, bodies, container, addresses, txids), crypto (keys, PEM, BSig,
// transaction signatures), proof of work (bits, miner, estimates) and the error classes.

export * from './errors.js';
export {
  base64ToBytes, bytesFromInput, bytesToBase64, bytesToHex, compareBytes, concatBytes, equalBytes, hexToBytes,
} from './bytes.js';
export * from './codec/index.js';
export * from './crypto/index.js';
export { signTx, verifyTx, addSignature, type SigningKey, type SignTxOptions, type TxVerification } from './crypto/sign-tx.js';
export * from './pow/index.js';
export * from './client/index.js';
// Node only: the piscina worker pool the miner uses when no pool is passed.
export { createMinerPool, sharedMinerPool, closeSharedMinerPool } from './pow/pool.node.js';
