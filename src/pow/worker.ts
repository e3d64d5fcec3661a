// The piscina worker of the miner pool: its default export is a promise of the task
// function, so each thread compiles and instantiates the WASM kernels once, then serves
// search tasks for as long as the pool lives.

import { createTaskRunner } from './task-runner.js';

export default createTaskRunner();
