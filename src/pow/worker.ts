// A miner thread of Node's pool (pool.node.ts), run by piscina: the default export is the
// task function. Kernels load on the first task, from the modules the calling thread
// compiled and handed over, and serve every search after. A failure travels back as data,
// so its error code survives the trip (piscina passes an Error on as a plain one).

import { TpkitError } from '../errors.js';
import type { SearchTask, SearchTaskResult } from './search-task.js';
import { createTaskRunner } from './task-runner.js';
import { useNodeSha512 } from './native-sha512.js';

// The JS kernel hashes with node:crypto in Node's threads (native-sha512.ts).
useNodeSha512();

export type WorkerReply = { result: SearchTaskResult } | { error: { code?: string; message: string } };

const runner = createTaskRunner();

export default async function runTask(task: SearchTask): Promise<WorkerReply> {
  try {
    return { result: await (await runner)(task) };
  } catch (err) {
    const code = err instanceof TpkitError ? err.code : undefined;
    return { error: { code, message: err instanceof Error ? err.message : String(err) } };
  }
}
