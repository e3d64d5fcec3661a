// What the tests of readers that never read share: a real node process with mining on demand
// and a short stall limit, its RSS, and GETs on raw sockets that read slowly or not at all.
import type { Test } from 'uvu';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode, type NodeProcess } from './node-process.js';

/** The suite's node, set when it starts. */
export let node: NodeProcess;

/** Runs the suite against a node process on its own data dir with `limits.stallTimeoutMs` = `stallMs`. */
export function readerNodeDuring(suite: Test, stallMs: number): void {
  let dir = '';
  suite.before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tpkit-readers-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ limits: { stallTimeoutMs: stallMs } }));
    node = await spawnNode([
      '--port',
      '0',
      '--data-dir',
      join(dir, 'data'),
      '--config',
      join(dir, 'config.json'),
      '--accounts',
      '2',
      '--difficulty',
      '0',
      '--mine-on-demand',
      '--fee',
      'none',
      '--log-level',
      'warn',
    ]);
  });
  suite.after(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

/** A process's resident memory in MB. */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** A GET on a raw socket; `paused` never reads a byte of the answer. */
export function rawReader(url: string, path: string, paused: boolean): { socket: Socket; received: () => number; closed: Promise<void> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = 0;
  socket.on('data', (d) => (received += d.length));
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  if (paused) socket.pause();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, closed };
}

/**
 * `stalled` readers of `path` that never read and `slow` ones that take a little every 200 ms
 * (never stalled for a stall limit, never fast); `close()` stops the pacing and every socket.
 */
export function stalledAndSlowReaders(url: string, path: string, stalled: number, slow: number) {
  const stalledReaders = Array.from({ length: stalled }, () => rawReader(url, path, true));
  const slowReaders = Array.from({ length: slow }, () => rawReader(url, path, true));
  const pacer = setInterval(() => {
    for (const r of slowReaders) {
      r.socket.resume();
      setTimeout(() => r.socket.pause(), 5);
    }
  }, 200);
  return {
    stalled: stalledReaders,
    slow: slowReaders,
    close(): void {
      clearInterval(pacer);
      for (const r of [...stalledReaders, ...slowReaders]) r.socket.destroy();
    },
  };
}
