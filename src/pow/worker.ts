// A miner thread of Node's pool (pool.node.ts): answers {id, task} messages with {id, result}
// or {id, error}. Kernels compile once, when the thread starts, and serve every search after.

import { parentPort } from 'node:worker_threads';
import { TpkitError } from '../errors.js';
import type { SearchTask } from './search-task.js';
import { createTaskRunner } from './task-runner.js';

const runner = createTaskRunner();

parentPort!.on('message', async ({ id, task }: { id: number; task: SearchTask }) => {
  try {
    parentPort!.postMessage({ id, result: await (await runner)(task) });
  } catch (err) {
    const code = err instanceof TpkitError ? err.code : undefined;
    parentPort!.postMessage({ id, error: { code, message: err instanceof Error ? err.message : String(err) } });
  }
});
