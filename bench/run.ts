// `npm run bench`: every benchmark.js suite, one after another, each in its own process so
// one suite's JIT state and worker threads never colour the next one's figures.
// The miner sweep and the node load generator run separately: `tpkit bench`, `node dist/bench/node-load.js`.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SUITES = ['codec.bench.js', 'crypto.bench.js', 'hash-kernels.bench.js'];

let failed = 0;
for (const suite of SUITES) {
  console.log(`\n== ${suite}`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(`./${suite}`, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
