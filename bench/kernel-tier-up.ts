// `node dist/bench/kernel-tier-up.js [--ms 300] [--exe PATH]`: how fast each WASM kernel hashes in its first
// milliseconds in a fresh process, from the compile on: V8 runs a new function in its baseline
// tier (Liftoff) and moves it to the optimizing one (TurboFan) later. Each kernel runs in a
// process of its own, in slices of 1024 nonces; printed: the compile, the first call, and the
// rate over successive 20 ms windows, in Node or in the engine at --exe (Bun's binary, say). Why
// the calling thread runs the scalar kernel under 'auto' (memsched on JavaScriptCore).

import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { ms: { type: 'string', default: '300' }, exe: { type: 'string', default: process.execPath } } });
const kernelUrl = new URL('../src/pow/kernel.js', import.meta.url).href;
const script = `
const t0 = performance.now();
const { loadKernel } = await import(${JSON.stringify(kernelUrl)});
const kernel = await loadKernel(process.argv[1]);
kernel.init(new Uint8Array(80)); // one SHA-512 block, as a one-key register body
const loaded = performance.now() - t0;
const began = performance.now();
let start = 0n, firstCall = 0;
const windows = [];
while (performance.now() - began < Number(process.argv[2])) {
  const s = performance.now();
  kernel.search(start, 1024, 512);
  const e = performance.now();
  if (start === 0n) firstCall = e - s;
  start += 1024n;
  const w = Math.floor((e - began) / 20);
  windows[w] = (windows[w] ?? 0) + 1024;
}
console.log(JSON.stringify({ loaded, firstCall, windows: Array.from(windows, (n) => ((n ?? 0) / 20 / 1000).toFixed(2)).slice(0, Math.floor(Number(process.argv[2]) / 20)) }));`;

console.log('kernel   compile  first call  MH/s in successive 20 ms windows');
for (const kernel of ['scalar', 'memsched', 'hybrid', 'simd']) {
  const out = JSON.parse(execFileSync(values.exe, ['--input-type=module', '-e', script, kernel, values.ms], { encoding: 'utf8' }));
  console.log(`${kernel.padEnd(8)} ${`${out.loaded.toFixed(1)} ms`.padStart(8)}  ${`${out.firstCall.toFixed(1)} ms`.padStart(10)}  ${out.windows.join(' ')}`);
}
