// A static server for a built example (its folder as the bundler left it) and a place for the
// page to report to: the wallet page POSTs its outcome to ?report=URL (examples/wallet.js),
// and `nextReport()` resolves with it. Optional response headers (a Content-Security-Policy)
// go on every file. Requests that failed are recorded, so a test can say none did.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

export interface ExampleServer {
  url: string;
  /** The URL the page reports to. */
  reportUrl: string;
  /** Serves `dir` from now on (with `headers` on every file). */
  serve(dir: string, headers?: Record<string, string>): void;
  /** The next report POSTed, or an error after `timeoutMs`. */
  nextReport(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Paths that answered 404 since the last serve(). */
  readonly missing: string[];
  close(): Promise<void>;
}

export async function startExampleServer(): Promise<ExampleServer> {
  let root = '';
  let headers: Record<string, string> = {};
  const missing: string[] = [];
  const reports: Record<string, unknown>[] = [];
  const waiting: ((report: Record<string, unknown>) => void)[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (req.method === 'POST' && path === '/result') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
      const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const waiter = waiting.shift();
      if (waiter) waiter(report);
      else reports.push(report);
      return;
    }
    let file = normalize(join(root, path));
    if (!root || !(file === root || file.startsWith(root + sep))) return void res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...headers }).end(body);
    } catch {
      missing.push(path);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    reportUrl: `${url}/result`,
    missing,
    serve(dir, extra = {}) {
      root = normalize(dir);
      headers = extra;
      missing.length = 0;
    },
    nextReport(timeoutMs = 120_000) {
      const ready = reports.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const at = waiting.indexOf(done);
          if (at >= 0) waiting.splice(at, 1);
          reject(new Error(`no report within ${timeoutMs} ms${missing.length ? ` (404: ${missing.join(', ')})` : ''}`));
        }, timeoutMs);
        const done = (report: Record<string, unknown>) => {
          clearTimeout(timer);
          resolve(report);
        };
        waiting.push(done);
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
