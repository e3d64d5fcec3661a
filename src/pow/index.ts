// The proof-of-work API (R2, R3). Browser-safe: the Node thread pool lives in
// pool.node.ts and is loaded only when no pool is passed.

export { leadingZeroBits, powBits } from './bits.js';
export { estimateMining, hashesForProbability, type MiningEstimate } from './estimate.js';
export { calibrate, type Calibration, type CalibrateOptions } from './calibrate.js';
export { availableKernels, createKernel, loadKernel, KERNEL_NAMES, type KernelName, type MiningKernel } from './kernel.js';
export { mineBody, type MineOptions, type MineResult } from './mine-body.js';
export { mineRegister, type MineRegisterOptions } from './mine-register.js';
export { warmMiner, type WarmMinerOptions } from './warm.js';
export type { MinerPool, MiningProgress } from './search.js';
export { minerSupport, type MinerSupport, type MinerSupportOptions } from './support.js';
export type { WasmRefusalInfo } from '../wasm/refusal.js';
// The task a pool runs, for those who bring their own pool (MinerPool.run receives it).
export type { KernelChoice, SearchTask, SearchTaskResult } from './search-task.js';
