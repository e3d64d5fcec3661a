// Static files beside the API: the wallet playground (dist/web) at `/` and the browser
// bundle (dist/browser) at `/browser/`. Every answer makes the page cross-origin isolated
// (COOP + COEP), which the Web Worker miner needs to share its stop flag with the page.
// The playground takes secret keys, so its files also carry a Content-Security-Policy (its
// own scripts only, WebAssembly for the miner, no framing), and no file is served whose
// real path (symlinks followed) leaves its root.

import { readFile, realpath, stat } from 'node:fs/promises';
import type http from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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
async function realPathInside(root: string, file: string): Promise<string | undefined> {
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
  return realFile === realRoot || realFile.startsWith(realRoot + sep) ? realFile : undefined;
}

/**
 * Answers GET/HEAD for a file under one of the roots; resolves false (nothing sent) for
 * any other method or when no file matches, so the caller answers as for an unknown path.
 */
export function createStaticHandler(roots: StaticRoot[]) {
  return async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    for (const root of roots) {
      if (!pathname.startsWith(root.prefix)) continue;
      let file = resolveStaticPath(root.dir, pathname.slice(root.prefix.length));
      if (!file) return false;
      try {
        if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
        const real = await realPathInside(root.dir, file);
        if (!real) return false; // a symlink out of the root
        const body = await readFile(real);
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': body.length,
          'cache-control': 'no-cache',
          ...SECURITY_HEADERS,
          ...ISOLATION_HEADERS,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
        return true;
      } catch {
        // not under this root: the next root may have it
      }
    }
    return false;
  };
}
