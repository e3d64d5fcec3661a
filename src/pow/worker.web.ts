// The browser's miner worker (bundled as miner-worker.js, and carried as text by the
// self-contained entry, which starts it from a blob: URL): answers {id, task} messages with
// {id, result} or {id, error}. The page hands it the compiled kernels in its tasks; only a
// task without them makes it fetch the .wasm files beside its own script (binary.web.ts; a
// blob: worker cannot, and says so).

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
