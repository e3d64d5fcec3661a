// The browser's miner worker (bundled as miner-worker.js): answers {id, task} messages
// with {id, result} or {id, error}. Kernels compile once, when the worker starts.

import { TpkitError } from '../errors.js';
import type { SearchTask } from './search-task.js';
import { createTaskRunner } from './task-runner.js';

interface WorkerScope {
  onmessage: ((event: MessageEvent<{ id: number; task: SearchTask }>) => void) | null;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
const runner = createTaskRunner();

scope.onmessage = async (event) => {
  const { id, task } = event.data;
  try {
    scope.postMessage({ id, result: await (await runner)(task) });
  } catch (err) {
    const code = err instanceof TpkitError ? err.code : undefined;
    scope.postMessage({ id, error: { code, message: err instanceof Error ? err.message : String(err) } });
  }
};
