// What a miner thread serves: search tasks (search-task.ts) on kernels it compiled once.
// Shared by the piscina worker (worker.ts) and the browser's Web Worker (worker.web.ts).
// Kernels compile asynchronously, so a browser never compiles WASM synchronously.

import { availableKernels, loadKernel, type KernelName, type MiningKernel } from './kernel.js';
import { runSearchTask, type SearchTask, type SearchTaskResult } from './search-task.js';

export type TaskRunner = (task: SearchTask) => Promise<SearchTaskResult>;

export async function createTaskRunner(): Promise<TaskRunner> {
  const kernels = new Map<KernelName, Promise<MiningKernel>>();
  const get = (name: KernelName) => {
    let kernel = kernels.get(name);
    if (!kernel) {
      kernel = loadKernel(name);
      kernels.set(name, kernel);
    }
    return kernel;
  };
  // 'auto' runs every WASM kernel this engine has, else the JS one; each search starts
  // with the kernel the previous one ended on.
  const wasm = availableKernels().filter((name) => name !== 'js');
  let auto = await Promise.all((wasm.length > 0 ? wasm : (['js'] as KernelName[])).map(get));
  return async (task) => {
    if (task.kernel !== 'auto') return runSearchTask(await get(task.kernel), task);
    const result = runSearchTask(auto, task);
    auto = [...auto].sort((a, b) => Number(b.name === result.kernel) - Number(a.name === result.kernel));
    return result;
  };
}
