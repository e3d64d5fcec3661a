// What a miner thread serves: search tasks (search-task.ts) on kernels it loaded once.
// Shared by the Node worker thread (worker.ts), the browser's Web Worker (worker.web.ts)
// and the calling thread's share of a search (calling-thread.ts). Kernels load
// asynchronously, so a browser never compiles WASM synchronously; a task may carry the
// modules the calling thread compiled, which the thread adopts instead of compiling.

import { adoptWasmModules } from '../wasm/kernel.js';
import { availableKernels, distrustSimd, loadKernel, type KernelName } from './kernel.js';
import { createSearchState, runSearchTask, type KernelChoice, type RunOptions, type SearchState, type SearchTask, type SearchTaskResult } from './search-task.js';

export type TaskRunner = (task: SearchTask, options?: RunOptions) => Promise<SearchTaskResult>;

/** The kernels a choice runs: 'auto' is every WASM kernel this engine has, else the JS one. */
export function kernelsFor(choice: KernelChoice): KernelName[] {
  if (choice !== 'auto') return [choice];
  const wasm = availableKernels().filter((name) => name !== 'js');
  return wasm.length > 0 ? wasm : ['js'];
}

/**
 * One search state per kernel list for the thread's lifetime: which kernel 'auto' keeps,
 * and each kernel's slice size, carry over from one search to the next. Keyed by the
 * kernels a choice runs now, not the choice: once the SIMD kernels are distrusted, 'auto'
 * gets a state without them instead of the one it had.
 */
export function createStateCache(): (choice: KernelChoice) => Promise<SearchState> {
  const states = new Map<string, Promise<SearchState>>();
  return (choice) => {
    const names = kernelsFor(choice);
    const key = names.join(',');
    let found = states.get(key);
    if (!found) {
      found = Promise.all(names.map(loadKernel)).then(createSearchState);
      // A failed load is not kept: the next task tries again.
      found.catch(() => states.delete(key));
      states.set(key, found);
    }
    return found;
  };
}

/**
 * A thread's runner. Nothing is compiled until the first task, which normally brings the
 * calling thread's compiled modules; `warm` loads the 'auto' kernels at once instead.
 */
export async function createTaskRunner(warm = false): Promise<TaskRunner> {
  const state = createStateCache();
  if (warm) await state('auto');
  return async (task, options) => {
    if (task.modules) adoptWasmModules(task.modules);
    if (task.distrustSimd) distrustSimd();
    return runSearchTask(await state(task.kernel), task, options);
  };
}
