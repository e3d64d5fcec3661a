// A thread of the baseline pool (baseline-thread-pool.ts): answers {id, task} messages with
// {id, result} or {id, error}. Kernels load when the thread starts, as the previous pool did.

import { parentPort } from 'node:worker_threads';
import { TpkitError } from '../src/errors.js';
import type { SearchTask } from '../src/pow/search-task.js';
import { createTaskRunner } from '../src/pow/task-runner.js';

const runner = createTaskRunner(true);

parentPort!.on('message', async ({ id, task }: { id: number; task: SearchTask }) => {
  try {
    parentPort!.postMessage({ id, result: await (await runner)(task) });
  } catch (err: unknown) {
    const code = err instanceof TpkitError ? err.code : undefined;
    parentPort!.postMessage({ id, error: { code, message: err instanceof Error ? err.message : String(err) } });
  }
});
