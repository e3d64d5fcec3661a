#!/usr/bin/env node
// The `tpkit` binary: the arguments to dispatch(), its answer as the exit code.

import { dispatch } from './dispatch.js';

dispatch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`tpkit: ${err instanceof Error ? err.stack : String(err)}`);
    process.exitCode = 1;
  },
);
