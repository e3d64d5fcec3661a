// `node dist/bench/engine-kernels.js --other PATH [--rounds 4] [--ms 1500]`: each WASM kernel's
// rate in Node and in another engine that runs the same file (Bun's binary, say), both
// processes hashing at the same instant so they share whatever else the machine does; the
// ratio is the other engine's rate over Node's, per kernel and round. How the JavaScriptCore
// figures of docs/perf/2026-11-25-miner-everywhere.md were taken.
//
// A child (`engine-kernels.js --child KERNEL AT MS`) warms the kernel for 400 ms, waits for
// the wall-clock instant AT, hashes MS milliseconds and prints hashes per second.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    rounds: { type: 'string', default: '4' },
    ms: { type: 'string', default: '1500' },
    child: { type: 'boolean', default: false },
  },
  allowPositionals: true,
  strict: false,
});

async function child(name: string, at: number, ms: number): Promise<void> {
  const { createKernel } = await import('../src/pow/kernel.js');
  const kernel = createKernel(name as 'scalar');
  kernel.init(new Uint8Array(66).map((_, i) => (i * 151 + 7) & 0xff));
  // Difficulty 64 is never met: every nonce is hashed.
  for (let began = performance.now(), n = 0n; performance.now() - began < 400; n += 4096n) kernel.search(n, 4096, 64);
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 1));
  let hashes = 0;
  const began = performance.now();
  for (let n = 1n << 40n; performance.now() - began < ms; n += 8192n, hashes += 8192) kernel.search(n, 8192, 64);
  console.log(Math.round((hashes / (performance.now() - began)) * 1000));
}

const run = (exe: string, args: string[]): Promise<number> =>
  new Promise((resolve, reject) => execFile(exe, args, { encoding: 'utf8', timeout: 60_000 }, (err, out) => (err ? reject(err) : resolve(Number(out.trim().split('\n').pop())))));

if (values.child) {
  const [name, at, ms] = process.argv.slice(-3);
  await child(name, Number(at), Number(ms));
} else {
  if (typeof values.other !== 'string') throw new Error('--other PATH: the engine to compare with Node (e.g. the bun binary)');
  const self = fileURLToPath(import.meta.url);
  const rounds = Number(values.rounds);
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['scalar', 'hybrid', 'simd']) {
      const at = Date.now() + 1500;
      const args = [self, '--child', name, String(at), String(values.ms)];
      const [node, other] = await Promise.all([run(process.execPath, args), run(values.other, args)]);
      console.log(`round ${round}  ${name.padEnd(6)}  node ${(node / 1e3).toFixed(0).padStart(6)} kH/s  other ${(other / 1e3).toFixed(0).padStart(6)} kH/s  ratio ${(other / node).toFixed(2)}`);
    }
  }
}
