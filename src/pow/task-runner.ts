// What a miner thread serves: search tasks (search-task.ts) on kernels it compiled once.
// Shared by the Node worker thread (worker.ts) and the browser's Web Worker (worker.web.ts).
// Kernels compile asynchronously, so a browser never compiles WASM synchronously.

import { availableKernels, loadKernel, type KernelName } from './kernel.js';
import {
  createSearchState, runSearchTask, type KernelChoice, type SearchState, type SearchTask, type SearchTaskResult,
} from './search-task.js';

export type TaskRunner = (task: SearchTask) => Promise<SearchTaskResult>;

export async function createTaskRunner(): Promise<TaskRunner> {
  // One state per kernel choice for the thread's lifetime: which kernel 'auto' keeps,
  // and each kernel's slice size, carry over from one search to the next.
  const states = new Map<KernelChoice, Promise<SearchState>>();
  const state = (choice: KernelChoice) => {
    let found = states.get(choice);
    if (!found) {
      // 'auto' runs every WASM kernel this engine has, else the JS one.
      const wasm = availableKernels().filter((name) => name !== 'js');
      const names: KernelName[] = choice !== 'auto' ? [choice] : wasm.length > 0 ? wasm : ['js'];
      found = Promise.all(names.map(loadKernel)).then(createSearchState);
      states.set(choice, found);
    }
    return found;
  };
  await state('auto');
  return async (task) => runSearchTask(await state(task.kernel), task);
}
