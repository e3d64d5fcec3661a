// tpkit: the ThePower transaction toolkit. Everything a wallet embeds is exported here:
// codec (MessagePack, bodies, container, addresses, txids), crypto (keys, PEM, BSig,
// transaction signatures), proof of work (bits, miner, estimates), the node API client
// and the error classes.

export * from './core.js';
// Seed phrases, export files and WIF of the official wallets (in browsers: tpkit/browser/keys).
export * from './keys/index.js';
// Node only: the worker-thread pool the miner uses when no pool is passed.
export { createMinerPool, sharedMinerPool, closeSharedMinerPool } from './pow/pool.node.js';
