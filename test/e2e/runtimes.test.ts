// The wallet's work in the server-side runtimes a wallet's tooling uses, from the packed
// package root (examples/runtime/wallet.mjs): Node, Deno and Bun, their binaries from their
// npm packages (examples/package.json pins them; the platform package holds the binary,
// which runs whether or not npm ran their install scripts). Each mines a difficulty-16
// register body and signs, checked with node:crypto, and measures one miner thread against
// Node's in the same run (Node before and after).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installExamples, PROJECT, run } from '../helpers/examples.js';
import { nodeReport } from '../helpers/bundler-matrix.js';
import { checkWalletReport, type WalletReport } from '../helpers/wallet-report.js';

let setupError: unknown;

test.before(() => {
  try {
    installExamples();
  } catch (err) {
    setupError = err;
  }
});

/** The first of `paths` that is a real binary (an install script may leave a small placeholder behind). */
function binary(name: string, paths: string[]): string {
  const found = paths.map((p) => join(PROJECT, 'node_modules', p)).find((p) => existsSync(p) && statSync(p).size > 1_000_000);
  if (!found) throw new Error(`no ${name} binary in ${paths.join(', ')}: examples/package.json pins ${name}, is the install complete?`);
  return found;
}

const RUNTIMES: Record<string, () => string[]> = {
  Deno: () => [binary('deno', ['@deno/linux-x64-glibc/deno']), 'run', '-A', '--node-modules-dir=manual', 'runtime/wallet.mjs'],
  Bun: () => [binary('bun', ['@oven/bun-linux-x64/bin/bun', 'bun/bin/bun.exe']), 'runtime/wallet.mjs'],
};

for (const [name, command] of Object.entries(RUNTIMES)) {
  test(`${name} mines difficulty 16 and signs with the package root; node:crypto agrees`, () => {
    if (setupError) throw setupError;
    const [exe, ...args] = command();
    const before = nodeReport();
    const report = JSON.parse(run(exe, args, PROJECT).trim().split('\n').pop()!) as WalletReport;
    const after = nodeReport();
    checkWalletReport(report);
    assert.ok(report.workerRate > 0, `a ${name} miner thread hashed`);
    const ratio = (2 * report.workerRate) / (before.workerRate + after.workerRate);
    console.log(`  ${name} (${report.userAgent}): one thread ${(report.workerRate / 1e6).toFixed(2)} MH/s, ${ratio.toFixed(2)}x Node's`);
  });
}

test.run();
