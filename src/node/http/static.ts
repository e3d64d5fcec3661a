// Static files beside the API: the wallet playground (dist/web) at `/` and the browser
// bundle (dist/browser) at `/browser/`, and --static's folder at `/app/`. Every answer makes
// the page cross-origin isolated (COOP + COEP), which the Web Worker miner needs to share its
// stop flag with the page. The playground takes secret keys, so its files also carry a
// Content-Security-Policy (its own scripts only, WebAssembly for the miner, no framing). Only
// regular files are served, streamed with backpressure and the block routes' stall limit; none
// whose real path (symlinks followed) leaves its root, is a dotfile (unless asked), or lies in
// the node's data dir.

import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import type http from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../base/log.js';
import { drained, StalledReader } from './server.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Scripts, workers, styles and requests from the page's own origin only; 'wasm-unsafe-eval'
 * lets the miner compile its WebAssembly; no plugin, no <base>, and no page may frame it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

export interface StaticRoot {
  /** URL path prefix ending in '/', e.g. '/browser/'. */
  prefix: string;
  dir: string;
}

/** Where `--static DIR` serves DIR: the user's own pages, beside the playground. */
export const APP_PREFIX = '/app/';

/** The built bundle and page, found relative to this module so an installed package works. */
export function defaultStaticRoots(): StaticRoot[] {
  const dist = fileURLToPath(new URL('../../../', import.meta.url));
  return [
    { prefix: '/browser/', dir: join(dist, 'browser') },
    { prefix: '/', dir: join(dist, 'web') },
  ];
}

/** The file a URL path names under `root`, or undefined when it would leave the root. */
export function resolveStaticPath(root: string, relative: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return undefined;
  const base = resolve(root);
  const file = resolve(base, ...segments.filter((s) => s !== ''));
  return file === base || file.startsWith(base + sep) ? file : undefined;
}

/** `file` with symlinks resolved when that is inside `root` (resolved too), else undefined. */
async function realPathInside(root: string, file: string): Promise<{ real: string; realRoot: string } | undefined> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(file)]);
  return real === realRoot || real.startsWith(realRoot + sep) ? { real, realRoot } : undefined;
}

/** Whether `path` is `dir` or lies inside it. */
const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);

export interface StaticOptions {
  /** Milliseconds a reader may take nothing before it is disconnected (the block routes' limit). */
  stallTimeoutMs: number;
  /** Serve files whose path has a part starting with '.' (.env, .git/config): --static-dotfiles. */
  dotfiles?: boolean;
  /** Folders never served, whatever the roots hold: the node's data dir. */
  refused?: string[];
  logger?: Logger;
}

/** Bytes read from a file per write: what one answer holds in memory beyond the socket's buffer. */
const CHUNK = 64 * 1024;

/**
 * Answers GET/HEAD for a file under one of the roots; resolves false (nothing sent) for
 * any other method or when no file matches, so the caller answers as for an unknown path.
 */
export function createStaticHandler(roots: StaticRoot[], options: StaticOptions = { stallTimeoutMs: 30_000 }) {
  const refused = Promise.all((options.refused ?? []).map((dir) => realpath(dir).catch(() => resolve(dir))));
  /** Kinds of refusal already logged: each is logged once (a set of paths would grow with every request). */
  const warned = new Set<string>();
  const refuse = (kind: 'special' | 'dotfile' | 'data dir' | 'changed', why: string): false => {
    if (!warned.has(kind)) {
      warned.add(kind);
      options.logger?.warn(`static files: not served: ${why} (logged once)`);
    }
    return false;
  };
  const handler = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    for (const root of roots) {
      if (!pathname.startsWith(root.prefix)) continue;
      let file = resolveStaticPath(root.dir, pathname.slice(root.prefix.length));
      if (!file) return false;
      let handle: FileHandle | undefined;
      try {
        // stat, never open, decides what the path is: a FIFO or device opened for reading could
        // hold a thread of libuv's pool until a writer comes.
        let info = await stat(file);
        if (info.isDirectory()) {
          file = join(file, 'index.html');
          info = await stat(file);
        }
        if (!info.isFile()) return refuse('special', `${file} is not a regular file (a FIFO, socket or device)`);
        const found = await realPathInside(root.dir, file);
        if (!found) return false; // a symlink out of the root
        const { real, realRoot } = found;
        const hidden = (from: string, to: string) =>
          relative(from, to)
            .split(sep)
            .some((part) => part.startsWith('.'));
        if (!options.dotfiles && (hidden(resolve(root.dir), file) || hidden(realRoot, real))) {
          return refuse('dotfile', `dotfiles such as ${real} (--static-dotfiles serves them)`);
        }
        const dataDir = (await refused).find((dir) => inside(real, dir));
        if (dataDir) return refuse('data dir', `the node's own data dir ${dataDir}`);
        // O_NONBLOCK: should the path have become a FIFO since the stat, the open does not wait
        // for a writer; the descriptor's own stat must still be the regular file seen above.
        handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
        const opened = await handle.stat();
        if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) return refuse('changed', `${file}, which changed while it was opened`);
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': opened.size,
          'cache-control': 'no-cache',
          ...SECURITY_HEADERS,
          ...ISOLATION_HEADERS,
        });
        if (req.method === 'HEAD') res.end();
        else await streamFile(req, res, handle, opened.size, options);
        return true;
      } catch {
        if (res.headersSent) return true; // streamFile has cut the answer
        // not under this root: the next root may have it
      } finally {
        await handle?.close();
      }
    }
    return false;
  };
  return handler;
}

/**
 * Writes `size` bytes of `handle` a chunk at a time, each read only once the reader has taken
 * the one before (so a slow reader holds one chunk, not the file); a reader that takes nothing
 * for the stall limit, or one that goes away, ends the answer and the reading.
 */
async function streamFile(req: http.IncomingMessage, res: http.ServerResponse, handle: FileHandle, size: number, options: StaticOptions): Promise<void> {
  let at = 0;
  try {
    while (at < size) {
      if (res.destroyed) throw new Error('the reader closed the connection');
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, size - at));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, at);
      if (bytesRead === 0) throw new Error(`the file ended at ${at} of the ${size} bytes it had at the start`);
      at += bytesRead;
      if (!res.write(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead))) await drained(res, options.stallTimeoutMs);
    }
    res.end();
  } catch (err) {
    if (err instanceof StalledReader) options.logger?.warn(`${req.method} ${req.url}: closed the connection of ${req.socket.remoteAddress ?? '?'}, which ${err.message} of the file`);
    // Headers are out: the only way to say the answer is incomplete is to cut it.
    res.destroy();
    throw err;
  }
}
