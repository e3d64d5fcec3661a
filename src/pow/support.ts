// minerSupport(): the diagnosis before the wait. Its work lives in support-check.ts, loaded
// on the first call and handed the functions it needs: a page that never asks does not
// download it (the browser build makes it a chunk of its own), and importing tpkit
// evaluates none of it.

import { ArgumentError } from '../errors.js';
import { simdSupported, wasmAvailable, wasmRefusal } from '../wasm/kernel.js';
import { defaultMinerPool } from './default-pool.js';
import { estimateMining } from './estimate.js';
import { availableKernels, distrustSimd, loadKernel } from './kernel.js';
import { modulesFor } from './calling-thread.js';
import { kernelReason } from './mine-body.js';
import { ABORTED, createSearchState, runSearchTask } from './search-task.js';
import { kernelsFor } from './task-runner.js';
import type { MinerSupport, MinerSupportOptions } from './support-types.js';

export type { MinerSupport, MinerSupportOptions } from './support-types.js';

/** What this environment offers the miner, what mining will use, and how long a proof should take (docs/guide/miner-support.md). */
export async function minerSupport(options: MinerSupportOptions = {}): Promise<MinerSupport> {
  const [{ checkMinerSupport }, { describeRefusal }] = await Promise.all([import('./support-check.js'), import('../wasm/refusal.js')]);
  return checkMinerSupport(options, [
    ArgumentError,
    describeRefusal,
    simdSupported,
    wasmAvailable,
    wasmRefusal,
    { ArgumentError, loadKernel, kernelsFor, createSearchState, runSearchTask },
    defaultMinerPool,
    estimateMining,
    availableKernels,
    distrustSimd,
    loadKernel,
    kernelReason,
    ABORTED,
    modulesFor,
  ]);
}
