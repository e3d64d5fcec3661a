// Starts `tpkit node` (the built CLI) as a child process for a benchmark, and resolves with its
// URL once it listens: the node under test runs apart from the load generator, as a user's does.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const TPKIT_MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

export interface SpawnedNode {
  child: ChildProcess;
  url: string;
  port: number;
}

/** `tpkit node ARGS` (after the runtime's own flags), its stdout read until "listening on URL". */
export async function spawnBenchNode(args: string[], runtimeFlags: string[] = [], main = TPKIT_MAIN): Promise<SpawnedNode> {
  const child = spawn(process.execPath, [...runtimeFlags, main, 'node', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`node exited with ${code}`)));
  });
  return { child, url, port: Number(new URL(url).port) };
}
