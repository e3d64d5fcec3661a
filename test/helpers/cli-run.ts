// Runs the built `tpkit` binary in a child process, as a user would, and collects what it
// printed and its exit code. Each CLI test file wraps it with the environment it needs.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const TPKIT_MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export interface CliRunOptions {
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Written to the command's standard input, which is then closed. */
  stdin?: string;
  /** Called with the child once it is spawned (to signal it, say). */
  started?: (child: ChildProcess) => void;
}

export function runTpkit(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TPKIT_MAIN, ...args], { env: { ...process.env, ...options.env } });
    options.started?.(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(options.stdin ?? '');
  });
}
