// tpkit/mine: the registration miner and nothing else, for a wallet whose first proof should
// start at once: importing it evaluates the proof-of-work code, the register body encoder
// and the error classes only (no signing code, no @noble/curves, no client), about a tenth
// of what the full `tpkit` entry evaluates. Node only (its default pool is worker threads);
// browsers use tpkit/browser.

export { ERROR_CODES, type ErrorCode, TpkitError, ArgumentError, DecodeError, ValidationError, CryptoError, AbortError } from './errors.js';
export { leadingZeroBits, powBits } from './pow/bits.js';
export { estimateMining, hashesForProbability, type MiningEstimate } from './pow/estimate.js';
export { mineBody, type MineOptions, type MineResult } from './pow/mine-body.js';
export { mineRegister, type MineRegisterOptions } from './pow/mine-register.js';
export { warmMiner, type WarmMinerOptions } from './pow/warm.js';
export type { MinerPool, MiningProgress } from './pow/search.js';
export { minerSupport, type MinerSupport, type MinerSupportOptions } from './pow/support.js';
export type { WasmRefusalInfo } from './wasm/refusal.js';
export type { KernelChoice, SearchTask, SearchTaskResult } from './pow/search-task.js';
export type { KernelName } from './pow/kernel-types.js';
export { createMinerPool, sharedMinerPool, closeSharedMinerPool } from './pow/pool.node.js';
