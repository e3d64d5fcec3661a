// The piscina worker of the miner pool: its default export is a promise of the task
// function, so each thread compiles and instantiates the WASM kernels once, then serves
// search tasks (search-task.ts) for as long as the pool lives.

import { availableKernels, createKernel, type KernelName, type MiningKernel } from './kernel.js';
import { runSearchTask, type SearchTask, type SearchTaskResult } from './search-task.js';

async function setup(): Promise<(task: SearchTask) => SearchTaskResult> {
  const kernels = new Map<KernelName, MiningKernel>();
  for (const name of availableKernels()) {
    if (name !== 'js') kernels.set(name, createKernel(name));
  }
  return (task) => {
    let kernel = kernels.get(task.kernel);
    if (!kernel) {
      kernel = createKernel(task.kernel);
      kernels.set(task.kernel, kernel);
    }
    return runSearchTask(kernel, task);
  };
}

export default setup();
