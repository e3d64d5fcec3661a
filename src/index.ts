// tpkit: the ThePower transaction toolkit. Everything a wallet embeds is exported here:
// codec (MessagePack, bodies, container, addresses, txids), crypto (keys, PEM, BSig,
// transaction signatures), proof of work (bits, miner, estimates), the node API client
// and the error classes.

export * from './core.js';
// Seed phrases, export files and WIF of the official wallets (in browsers: tpkit/browser/keys).
export * from './keys/index.js';
// Node only: the worker-thread pool the miner uses when no pool is passed.
export { createMinerPool, sharedMinerPool, closeSharedMinerPool } from './pow/pool.node.js';
// Node only, to keep the browser bundle small: contract deploys and calls from a wallet
// (views are client.executeCall, in both entries).
export { deployBody, type DeployBodyInput } from './codec/body-deploy.js';
export { deployContract, sendContractCall, type ContractTxOptions, type ContractTxResult } from './client/contract.js';
