// `node dist/bench/js-kernel.js [--ms 400] [--rounds 5] [--engine PATH]...`: the pure-JS mining
// kernel (the fallback without WebAssembly) against the one it replaced, side by side in one
// run. Each engine runs in a process of its own (`node`, `node --jitless`, and any
// `--engine` given: a Bun or Deno binary), alternating the two kernels round by round so
// both see the same machine load; printed: each kernel's median MH/s over the rounds and
// their ratio, for a one-block register body (80 bytes) and a two-block one (200 bytes).
// The old kernel is rebuilt here as it was: the whole body hashed per nonce with
// @noble/hashes' SHA-512, the nonce patched through a DataView.

import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { ms: { type: 'string', default: '400' }, rounds: { type: 'string', default: '5' }, engine: { type: 'string', multiple: true, default: [] } } });
const hasherUrl = new URL('../src/pow/sha512-nonce.js', import.meta.url).href;
const nobleUrl = import.meta.resolve('@noble/hashes/sha2.js');

const script = `
const { NonceHasher } = await import(${JSON.stringify(hasherUrl)});
const { sha512 } = await import(${JSON.stringify(nobleUrl)});
const [ms, rounds] = [Number(process.argv.at(-2)), Number(process.argv.at(-1))];
function oldKernel(body) {
  const copy = body.slice();
  const view = new DataView(copy.buffer);
  return (low) => {
    view.setUint32(copy.length - 4, low);
    const h = sha512(copy);
    return h[0] === 0 && h[1] === 0 && h[2] === 0 && h[3] === 0;
  };
}
function newKernel(body) {
  const hasher = new NonceHasher(body);
  return (low) => hasher.zeroBits(0, low, 32) >= 32;
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const out = {};
for (const size of [80, 200]) {
  const body = new Uint8Array(size).map((_, i) => (i * 151 + 7) & 0xff);
  const kernels = { old: oldKernel(body), new: newKernel(body) };
  const rates = { old: [], new: [] };
  let low = 0;
  for (let r = 0; r < rounds + 1; r++) {
    for (const name of ['old', 'new']) {
      const hash = kernels[name];
      let n = 0;
      const began = performance.now();
      let now = began;
      while (now - began < ms) {
        for (let i = 0; i < 256; i++) hash(low++ >>> 0);
        n += 256;
        now = performance.now();
      }
      // The first round warms the engine up and is not counted.
      if (r > 0) rates[name].push(n / (now - began) / 1000);
    }
  }
  out[size] = { old: median(rates.old), new: median(rates.new) };
}
console.log(JSON.stringify(out));`;

const engines: { name: string; command: string; args: string[] }[] = [
  { name: `Node ${process.versions.node}`, command: process.execPath, args: ['--input-type=module', '-e', script] },
  { name: `Node ${process.versions.node} --jitless`, command: process.execPath, args: ['--jitless', '--input-type=module', '-e', script] },
];
for (const path of values.engine) engines.push({ name: path, command: path, args: ['-e', script] });

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}; ${values.rounds} rounds of ${values.ms} ms per kernel, medians`,
);
console.log('engine                        body   old MH/s   new MH/s   new/old');
for (const engine of engines) {
  // --jitless runs about fifty times slower: shorter rounds would say little, so the same time is kept.
  const out = JSON.parse(
    execFileSync(engine.command, [...engine.args, '--', values.ms, values.rounds], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!,
  );
  for (const size of ['80', '200']) {
    const { old, new: fresh } = out[size];
    console.log(`${engine.name.padEnd(29)} ${`${size} B`.padStart(5)}  ${old.toFixed(3).padStart(9)}  ${fresh.toFixed(3).padStart(9)}  ${(fresh / old).toFixed(2).padStart(7)}x`);
  }
}
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at the end`,
);
