// The proof-of-work API (R2, R3). Browser-safe: the Node thread pool lives in
// pool.node.ts and is loaded only when no pool is passed.

export { leadingZeroBits, powBits } from './bits.js';
export { estimateMining, hashesForProbability, type MiningEstimate } from './estimate.js';
export { calibrate, type Calibration, type CalibrateOptions } from './calibrate.js';
export {
  availableKernels,
  checkKernelChoice,
  createKernel,
  loadKernel,
  mineRange,
  KERNEL_NAMES,
  type KernelName,
  type MiningKernel,
} from './kernel.js';
export { mineBody, type MineOptions, type MineResult, type PiscinaLike } from './mine-body.js';
export { mineRegister, type MineRegisterOptions } from './mine-register.js';
export { searchNonce, type MinerPool, type MiningProgress, type SearchOptions, type SearchOutcome } from './search.js';
export { runSearchTask, RUNNING, SOLVED, ABORTED, PROBE_EVERY, type KernelChoice, type SearchTask, type SearchTaskResult } from './search-task.js';
