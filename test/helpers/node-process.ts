// A `tpkit node` process for the tests that kill, restart or drive the real binary: spawned
// with the given flags, resolved once it prints its URL.
import type { ChildProcess } from 'node:child_process';
import { spawnTpkit, type SpawnOptions } from './cli-run.js';

export interface NodeProcess {
  proc: ChildProcess;
  url: string;
  port: number;
  /** Resolves when the process has exited and its output has been read to the end. */
  exited: Promise<unknown>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Everything it wrote to stdout so far (the banner). */
  stdout(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export function spawnNode(args: string[], options: SpawnOptions = {}): Promise<NodeProcess> {
  const proc = spawnTpkit(['node', ...args], options);
  proc.stdin.end();
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  const exited = new Promise((r) => proc.once('close', r));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (!m) return;
      resolve({
        proc,
        url: m[1],
        port: Number(new URL(m[1]).port),
        exited,
        stderr: () => err,
        stdout: () => out,
        stop: async () => {
          proc.kill('SIGTERM');
          await exited;
        },
      });
    });
    proc.on('exit', (code) => reject(new Error(`node exited (${code}) before listening: ${err}`)));
  });
}
