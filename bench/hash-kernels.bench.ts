// benchmark.js suites for the hash kernels, side by side: SHA-512 of one block (the
// proof-of-work hash), SHA-256 at BSig-digest size, and the mining kernels per nonce.
// Run: npm run build:ts && node dist/bench/hash-kernels.bench.js
// (`tpkit bench` is the end-to-end benchmark: openssl, thread scaling, time to solution.)

import Benchmark from 'benchmark';
import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { createKernel, type KernelName } from '../src/pow/kernel.js';
import { loadWasmSync, simdSupported } from '../src/wasm/kernel.js';

/** Nonces per mining-kernel call: one benchmark op. */
const NONCES = 4096;

function printMachine(): void {
  console.log(`Machine: ${cpus()[0]?.model.trim()}, ${availableParallelism()} cores, Node ${process.versions.node} (V8 ${process.versions.v8})`);
  console.log(`WASM SIMD: ${simdSupported() ? 'on' : 'off'}; date ${new Date().toISOString()}`);
}

/** A case: label, function, and how many hashes one call does (default 1). */
type Case = [string, () => void, number?];

function runSuite(name: string, cases: Case[]): Promise<void> {
  return new Promise((resolve) => {
    const suite = new Benchmark.Suite(name);
    const units = new Map<string, number>();
    for (const [label, fn, perOp] of cases) {
      suite.add(label, fn, { minSamples: 20 });
      units.set(label, perOp ?? 1);
    }
    console.log(`\n${name}`);
    suite
      .on('cycle', (event: Benchmark.Event) => {
        const b = event.target;
        const rate = (b.hz ?? 0) * (units.get(String(b.name)) ?? 1);
        const rme = b.stats?.rme ?? 0;
        console.log(`  ${String(b.name).padEnd(34)} ${(rate / 1e6).toFixed(3).padStart(8)} M/s  ±${rme.toFixed(1)}%`);
      })
      .on('complete', () => resolve())
      .run({ async: false });
  });
}

async function main(): Promise<void> {
  printMachine();
  const scalar = loadWasmSync('scalar');
  const simd = simdSupported() ? loadWasmSync('simd') : undefined;

  const block = randomBytes(80);
  await runSuite('SHA-512, 80 bytes (one block), hashes/s', [
    ['node:crypto', () => createHash('sha512').update(block).digest()],
    ['@noble/hashes', () => nobleSha512(block)],
    ['tpkit WASM scalar sha512()', () => scalar.sha512(block)],
    ...(simd ? [['tpkit WASM SIMD-build sha512()', () => simd.sha512(block)] as Case] : []),
  ]);

  const digestInput = randomBytes(160);
  await runSuite('SHA-256, 160 bytes (a BSig digest), hashes/s', [
    ['node:crypto', () => createHash('sha256').update(digestInput).digest()],
    ['@noble/hashes', () => nobleSha256(digestInput)],
    ['tpkit WASM sha256()', () => scalar.sha256(digestInput)],
  ]);

  const body = randomBytes(66);
  const kernels: Case[] = [];
  for (const name of ['hybrid', 'simd', 'scalar', 'js'] as KernelName[]) {
    if ((name === 'simd' || name === 'hybrid') && !simd) continue;
    const kernel = createKernel(name);
    kernel.init(body);
    let nonce = 0n;
    const count = name === 'js' ? NONCES / 16 : NONCES;
    // Difficulty 64 never qualifies in practice: every nonce is hashed.
    kernels.push([
      `tpkit ${name} kernel`,
      () => {
        kernel.search(nonce, count, 64);
        nonce += BigInt(count);
      },
      count,
    ]);
  }
  await runSuite('Mining kernels on a 66-byte register body, nonces/s', kernels);
}

await main();
