#!/usr/bin/env node
// Runs every compiled test file with uvu and ends with the line CI counts:
// "N passed, N failed". A crash before uvu's summary counts as a failure, and so does a
// test process that stays alive after its summary (a server, worker or timer left open).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const uvu = join(root, 'node_modules', 'uvu', 'bin.js');
// An optional argument narrows the run to test files whose name matches it.
const pattern = `(?:${process.argv[2] ?? ''}).*\\.test\\.js$`;
const EXIT_GRACE_MS = 20_000;

const child = spawn(process.execPath, [uvu, 'dist/test', pattern, '--no-color'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
let lingered = false;
let graceTimer;
child.stdout.on('data', (chunk) => {
  out += chunk;
  process.stdout.write(chunk);
  if (!graceTimer && /Duration:/.test(out)) {
    graceTimer = setTimeout(() => {
      lingered = true;
      console.error(`\nThe test process did not exit ${EXIT_GRACE_MS / 1000} s after its summary: something was left open.`);
      child.kill('SIGKILL');
    }, EXIT_GRACE_MS);
  }
});
child.on('close', (code) => {
  clearTimeout(graceTimer);
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  let failed = total - passed - skipped;
  if ((code !== 0 || lingered) && failed === 0) failed = 1;
  if (skipped > 0) failed += skipped; // a skipped check is not a passed one
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
});
