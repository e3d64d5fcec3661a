// Runs one compiled test file in its own uvu process under a time limit, and reads its counts.
// Shared by run-tests.mjs (the suite) and mutate.mjs (the mutation run). The process gets a
// group of its own, so a file that exceeds its limit is ended with every server, worker and
// child process it started.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const UVU = join(ROOT, 'node_modules', 'uvu', 'bin.js');
/** A file whose process is still alive this long after uvu's summary left something open. */
const EXIT_GRACE_MS = 20_000;

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {string} file name of a compiled test file in dist/test, e.g. "unit/bytes.test.js"
 * @param {{ timeoutMs: number, echo?: (chunk: string) => void, env?: Record<string, string> }} options
 * @returns {Promise<{ file: string, passed: number, failed: number, skipped: number, timedOut: boolean, lingered: boolean, code: number | null, ms: number, output: string }>}
 */
export function runTestFile(file, { timeoutMs, echo, env }) {
  const began = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [UVU, 'dist/test', `^${escape(file)}$`, '--no-color'], {
      cwd: ROOT,
      env: env ? { ...process.env, ...env } : process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    let lingered = false;
    let graceTimer;
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const limitTimer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const take = (chunk) => {
      const text = String(chunk);
      output += text;
      echo?.(text);
      if (!graceTimer && /Duration:/.test(output)) {
        graceTimer = setTimeout(() => {
          lingered = true;
          killGroup();
        }, EXIT_GRACE_MS);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      clearTimeout(limitTimer);
      clearTimeout(graceTimer);
      // Whatever the file left behind (a server in a child process) goes with it.
      killGroup();
      // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      const summary = /Total:\s+(\d+)[\s\S]*?Passed:\s+(\d+)[\s\S]*?Skipped:\s+(\d+)/.exec(plain);
      let passed;
      let failed;
      let skipped = 0;
      if (summary) {
        const total = Number(summary[1]);
        passed = Number(summary[2]);
        skipped = Number(summary[3]);
        failed = total - passed - skipped;
      } else {
        // No summary (a crash or the time limit): count the marks uvu printed as it went.
        passed = (plain.match(/•/g) ?? []).length;
        failed = (plain.match(/✘/g) ?? []).length;
      }
      if ((code !== 0 || lingered || timedOut) && failed === 0) failed = 1;
      else if (timedOut) failed += 1;
      resolve({ file, passed, failed, skipped, timedOut, lingered, code, ms: performance.now() - began, output });
    });
  });
}
