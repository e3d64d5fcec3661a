// The piscina worker of the miner pool: its default export is a promise of the task
// function, so each thread compiles and instantiates the WASM kernels once, then serves
// search tasks (search-task.ts) for as long as the pool lives.

import { availableKernels, createKernel, type KernelName, type MiningKernel } from './kernel.js';
import { runSearchTask, type SearchTask, type SearchTaskResult } from './search-task.js';

async function setup(): Promise<(task: SearchTask) => SearchTaskResult> {
  const kernels = new Map<KernelName, MiningKernel>();
  const get = (name: KernelName) => {
    let kernel = kernels.get(name);
    if (!kernel) {
      kernel = createKernel(name);
      kernels.set(name, kernel);
    }
    return kernel;
  };
  // 'auto' runs every WASM kernel this engine has, else the JS one; each search starts
  // with the kernel the previous one ended on.
  const wasm = availableKernels().filter((name) => name !== 'js');
  let auto = (wasm.length > 0 ? wasm : (['js'] as KernelName[])).map(get);
  return (task) => {
    if (task.kernel !== 'auto') return runSearchTask(get(task.kernel), task);
    const result = runSearchTask(auto, task);
    auto = [...auto].sort((a, b) => Number(b.name === result.kernel) - Number(a.name === result.kernel));
    return result;
  };
}

export default setup();
