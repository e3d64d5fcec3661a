// The CLI as the tests run it. In process: dispatch() with argv, stdout and stderr captured,
// for everything that needs no real process (usage errors, parsing, messages). As a process:
// the built binary spawned here and only here (spawnTpkit), for what needs one: signals, a
// terminal, a node that outlives a command, exit codes set by the binary itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dispatch } from '../../src/cli/dispatch.js';

export const TPKIT_MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export interface CliRunOptions {
  /** Added to this process's environment (an empty string unsets nothing: it is set empty). */
  env?: Record<string, string>;
  /** Written to the command's standard input, which is then closed. */
  stdin?: string;
  /** Called with the child once it is spawned (to signal it, say). */
  started?: (child: ChildProcess) => void;
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** Options for node itself, before the binary (e.g. --import a preload). */
  nodeArgs?: string[];
  /** Run on a pseudo-terminal (util-linux `script`), as a user at a terminal would. */
  tty?: boolean;
  /** Shell commands run first, in the shell the binary then replaces (e.g. `ulimit -n 256`). */
  shellPrefix?: string;
}

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** The one place the binary is spawned: `tpkit ...args` as a child process. */
export function spawnTpkit(
  args: string[],
  options: SpawnOptions = {},
): ChildProcess & { stdin: NonNullable<ChildProcess['stdin']>; stdout: NonNullable<ChildProcess['stdout']>; stderr: NonNullable<ChildProcess['stderr']> } {
  const env = options.env ?? process.env;
  const argv = [...(options.nodeArgs ?? []), TPKIT_MAIN, ...args];
  const command = [process.execPath, ...argv].map(quote).join(' ');
  const child = options.tty
    ? spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : options.shellPrefix
      ? spawn('sh', ['-c', `${options.shellPrefix} && exec ${command}`], { env, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(process.execPath, argv, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  return child as ReturnType<typeof spawnTpkit>;
}

/** Runs the binary to its end; resolves with its exit code and output. */
export function runTpkit(args: string[], options: CliRunOptions & Omit<SpawnOptions, 'env' | 'tty'> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnTpkit(args, { env: { ...process.env, ...options.env }, nodeArgs: options.nodeArgs });
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

/**
 * Runs `tpkit ...args` in this process through dispatch(), with what it writes to stdout and
 * stderr captured (and not shown) and `env` set for the duration. One at a time: the capture
 * replaces the process's write functions until the command ends.
 */
export async function runTpkitInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const writes = { out: process.stdout.write, err: process.stderr.write };
  let out = '';
  let err = '';
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  process.stdout.write = capture((t) => (out += t));
  process.stderr.write = capture((t) => (err += t));
  try {
    const code = await dispatch(args);
    return { code, out, err };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
