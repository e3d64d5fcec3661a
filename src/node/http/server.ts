// The HTTP(S) front of the node: routing, request-body limits, the access checks
// (access-policy.ts), CORS and the mapping of every thrown error to a JSON answer. Handlers
// never see a socket; anything they throw becomes `{ok:false,...}` through api-errors.ts, so
// no request can take the process down.

import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '../../errors.js';
import { errorResponse } from './api-errors.js';
import { DEFAULT_HTTP_TIMEOUTS, missingHost, onClientError, onConnect, type HttpTimeouts } from './guards.js';
import { toJson } from '../base/json.js';
import type { JsonChunks } from '../base/json-bytes.js';
import type { Logger } from '../base/log.js';
import { isBodyTooLarge, readBody } from './request-body.js';
import { checkDevContentType, checkRequest, LOCAL_ONLY, type AccessPolicy } from './access-policy.js';
import { corsHeaders } from './origin-policy.js';
import { guardDescriptors } from './fd-guard.js';

export interface RequestContext {
  method: string;
  /** Path segments after the route's fixed prefix, URI-decoded. */
  params: string[];
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array;
  /** 'bin' when the path ended in `.bin` (the reference's raw request format), else 'json'. */
  format: 'json' | 'bin';
  /** Aborts when the client closes the connection before the answer is sent (long work stops). */
  signal?: AbortSignal;
}

/**
 * An answer written while it is made, for the largest ones (a block): `write` resolves once
 * the reader has taken what was written, so a slow reader slows the writing instead of
 * growing a buffer, and one that takes nothing for stallTimeoutMs is disconnected.
 */
export interface JsonStream {
  stream(write: (chunks: readonly Buffer[]) => Promise<void>): Promise<void>;
}

/** A handler answers with ready JSON text (hot paths build it by hand) and an optional status. */
export interface Reply {
  status?: number;
  /** Another content type than JSON (then `json` holds the bytes as one chunk). */
  contentType?: string;
  /** The answer's JSON: text, byte chunks (json-bytes.ts), or a stream for the largest answers. */
  json: string | JsonChunks | JsonStream;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  method: 'GET' | 'POST';
  /** Fixed leading segments, e.g. ['tx', 'status']. */
  prefix: string[];
  /** How many segments follow the prefix: an exact count, or 'rest' for any number. */
  params: number | 'rest';
  handler: Handler;
}

export interface ServerOptions {
  routes: Route[];
  maxRequestBytes: number;
  tls?: { cert: string | Buffer; key: string | Buffer };
  logger: Logger;
  /** Serves a GET/HEAD outside /api/ from files; false when it has none for the path. */
  staticFiles?: (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => Promise<boolean>;
  /** Defaults: DEFAULT_HTTP_TIMEOUTS. */
  timeouts?: Partial<HttpTimeouts>;
  /** Hosts and origins answered; default: this machine only. */
  access?: AccessPolicy;
  /** Milliseconds a reader may take nothing of a streamed answer before it is disconnected (default 30000). */
  stallTimeoutMs?: number;
  /** Sees each request before routing (injected faults): passes it on, answers it, or neither. */
  intercept: (req: http.IncomingMessage, next: () => void, reply: (status: number, json: string) => void) => void;
}

/** Headers of every answer: JSON never sniffed as something else. */
const JSON_HEADERS = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' };

/** Headers of every JSON answer without an Origin, built once (the hot path: SDKs in Node). */
const PLAIN_HEADERS = Object.entries({ ...JSON_HEADERS, ...corsHeaders(undefined, true, undefined, false) }).flat();

function send(res: http.ServerResponse, status: number, json: string | JsonChunks, cors: Record<string, string> | undefined, extra?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  const length = String(typeof json === 'string' ? Buffer.byteLength(json) : json.byteLength);
  if (!extra && !cors) {
    res.writeHead(status, [...PLAIN_HEADERS, 'content-length', length]);
  } else {
    res.writeHead(status, { ...JSON_HEADERS, ...(cors ?? corsHeaders(undefined, true, undefined, false)), 'content-length': length, ...extra });
  }
  if (typeof json === 'string') res.end(json);
  else {
    for (const chunk of json.chunks) res.write(chunk);
    res.end();
  }
}

/** Resolves when the reader has taken the buffered data; rejects when it goes away or takes nothing for `ms`. */
export function drained(res: http.ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('the reader closed the connection'));
    const timer = setTimeout(() => done(new StalledReader(ms)), ms);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

export class StalledReader extends Error {
  constructor(readonly ms: number) {
    super(`took nothing for ${ms} ms`);
  }
}

/** A streamed answer: chunked, written as made, with backpressure and a stall limit. */
async function sendStream(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  body: JsonStream,
  cors: Record<string, string> | undefined,
  stallMs: number,
  logger: Logger,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...JSON_HEADERS, ...(cors ?? corsHeaders(undefined, true, undefined, false)) });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await body.stream(async (chunks) => {
      for (const chunk of chunks) {
        if (res.destroyed) throw new Error('the reader closed the connection');
        if (!res.write(chunk)) await drained(res, stallMs);
      }
    });
    res.end();
  } catch (err) {
    if (err instanceof StalledReader) logger.warn(`${req.method} ${req.url}: closed the connection of ${req.socket.remoteAddress ?? '?'}, which ${err.message} of the answer`);
    else if (!res.destroyed) logger.error(`${req.method} ${req.url}: the answer failed midway: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    // Headers are out: the only way to say the answer is incomplete is to cut it.
    res.destroy();
  }
}

function sendError(req: http.IncomingMessage, res: http.ServerResponse, err: unknown, logger: Logger, cors: Record<string, string> | undefined, extra?: Record<string, string>): void {
  const { status, body } = errorResponse(err);
  if (status >= 500) logger.error(`${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  send(res, status, toJson(body), cors, extra);
}

interface Match {
  route?: Route;
  params: string[];
  allowed: string[];
}

function matchRoute(routes: Route[], method: string, segments: string[]): Match {
  const allowed: string[] = [];
  for (const route of routes) {
    const n = route.prefix.length;
    if (segments.length < n) continue;
    let same = true;
    for (let i = 0; i < n; i++)
      if (segments[i] !== route.prefix[i]) {
        same = false;
        break;
      }
    if (!same) continue;
    const rest = segments.length - n;
    if (route.params !== 'rest' && rest !== route.params) continue;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params: segments.slice(n), allowed };
    allowed.push(route.method);
  }
  return { params: [], allowed };
}

/** The reference selects a format with a suffix on the last path segment, e.g. tx/new.bin. */
const FORMAT_SUFFIX = /\.(json|bin|mp)$/;

function splitPath(url: string): { segments: string[]; query: URLSearchParams; format: 'json' | 'bin' } {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Malformed percent-encoding in the path', { details: JSON.stringify(raw) });
    }
  }
  // The reference node serves every endpoint both under /api and at the root.
  if (segments[0] === 'api') segments.shift();
  let format: 'json' | 'bin' = 'json';
  const suffix = segments.length > 0 ? FORMAT_SUFFIX.exec(segments[segments.length - 1]) : null;
  if (suffix) {
    if (suffix[1] === 'mp') {
      throw new ValidationError('NOT_IMPLEMENTED', 'MessagePack answers are not served', { details: 'drop the .mp suffix for JSON' });
    }
    segments[segments.length - 1] = segments[segments.length - 1].slice(0, -suffix[0].length);
    format = suffix[1] as 'json' | 'bin';
  }
  return { segments, query, format };
}

export function createRequestListener(options: ServerOptions): http.RequestListener {
  const { routes, maxRequestBytes, logger } = options;
  const stallMs = options.stallTimeoutMs ?? 30_000;
  const answer = (req: http.IncomingMessage, res: http.ServerResponse, status: number, json: Reply['json'], cors: Record<string, string> | undefined, contentType?: string) => {
    if (typeof json === 'object' && 'stream' in json) void sendStream(req, res, status, json, cors, stallMs, logger);
    else send(res, status, json, cors, contentType ? { 'content-type': contentType } : undefined);
  };
  const policy = options.access ?? LOCAL_ONLY;
  const empty = new Uint8Array(0);
  const debug = logger.level === 'debug';
  return (req, res) => {
    const method = req.method ?? 'GET';
    if (debug) {
      const start = performance.now();
      res.on('finish', () => logger.debug(`${method} ${req.url} ${res.statusCode} ${(performance.now() - start).toFixed(1)} ms`));
    }
    const noHost = missingHost(req);
    if (noHost) {
      sendError(req, res, noHost, logger, undefined, { connection: 'close' });
      return;
    }
    // Host and Origin are checked before any route, file or body: a refused request changes nothing.
    const access = checkRequest(req, policy);
    // The hot path (no Origin, no preflight headers) shares one prebuilt header list.
    const cors = req.headers.origin === undefined && req.headers['access-control-request-headers'] === undefined ? undefined : access.cors;
    if (access.refusal) {
      if (access.refusal.code === 'HOST_NOT_ALLOWED') logger.debug(`${method} ${req.url}: refused Host ${JSON.stringify(req.headers.host)} from ${req.socket.remoteAddress ?? '?'}`);
      sendError(req, res, access.refusal, logger, access.cors, method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? undefined : { connection: 'close' });
      return;
    }
    if (method === 'OPTIONS') {
      res.writeHead(204, { 'x-content-type-options': 'nosniff', ...access.cors });
      res.end();
      return;
    }
    options.intercept(
      req,
      () => route(req, res, method, cors),
      (status, json) => send(res, status, json, cors, { connection: 'close' }),
    );
  };

  function route(req: http.IncomingMessage, res: http.ServerResponse, method: string, cors: Record<string, string> | undefined): void {
    const pathname = (req.url ?? '/').split('?')[0];
    if (options.staticFiles && (method === 'GET' || method === 'HEAD') && !pathname.startsWith('/api/')) {
      options.staticFiles(req, res, pathname).then(
        (served) => served || dispatch(req, res, method, cors),
        (err) => sendError(req, res, err, logger, cors),
      );
      return;
    }
    dispatch(req, res, method, cors);
  }

  function dispatch(req: http.IncomingMessage, res: http.ServerResponse, method: string, cors: Record<string, string> | undefined): void {
    let match: Match;
    let query: URLSearchParams;
    let format: 'json' | 'bin';
    try {
      const split = splitPath(req.url ?? '/');
      query = split.query;
      format = split.format;
      if (method === 'POST' && split.segments[0] === 'dev') {
        const refusal = checkDevContentType(req);
        if (refusal) {
          sendError(req, res, refusal, logger, cors, { connection: 'close' });
          return;
        }
      }
      match = matchRoute(routes, method, split.segments);
    } catch (err) {
      sendError(req, res, err, logger, cors);
      return;
    }
    const route = match.route;
    if (!route) {
      const err = match.allowed.length
        ? new ValidationError('METHOD_NOT_ALLOWED', `${method} is not allowed here`, { details: `allowed: ${match.allowed.join(', ')}` })
        : new ValidationError('ROUTE_NOT_FOUND', 'No such endpoint', { details: `${method} ${(req.url ?? '').split('?')[0]}` });
      sendError(req, res, err, logger, cors, match.allowed.length ? { allow: [...match.allowed, 'OPTIONS'].join(', ') } : undefined);
      return;
    }
    const run = (body: Uint8Array) => {
      let reply: Reply | Promise<Reply>;
      const hangUp = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) hangUp.abort();
      });
      try {
        reply = route.handler({ method, params: match.params, query, headers: req.headers, body, format, signal: hangUp.signal });
      } catch (err) {
        sendError(req, res, err, logger, cors);
        return;
      }
      if (reply instanceof Promise) {
        reply.then(
          (r) => answer(req, res, r.status ?? 200, r.json, cors, r.contentType),
          (err) => sendError(req, res, err, logger, cors),
        );
      } else {
        answer(req, res, reply.status ?? 200, reply.json, cors, reply.contentType);
      }
    };
    if (route.method === 'GET') {
      run(empty);
      return;
    }
    readBody(req, maxRequestBytes).then(run, (err: unknown) => {
      if (isBodyTooLarge(err)) {
        sendError(req, res, err.error, logger, cors, err.close ? { connection: 'close' } : undefined);
        return;
      }
      // readBody rejects with nothing else than REQUEST_ABORTED: the client hung up mid-upload.
      logger.warn(`${method} ${req.url}: upload aborted by the client from ${req.socket.remoteAddress ?? '?'}`);
      req.destroy();
    });
  }
}

export interface RunningServer {
  server: http.Server | https.Server;
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions, host: string, port: number): Promise<RunningServer> {
  const listener = createRequestListener(options);
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  const serverOptions: http.ServerOptions = {
    // The Host check is ours (missingHost), so its answer is JSON like every other.
    requireHostHeader: false,
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    connectionsCheckingInterval: timeouts.checkEvery,
  };
  const server = options.tls ? https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener) : http.createServer(serverOptions, listener);
  server.on('clientError', onClientError(options.logger));
  guardDescriptors(server, options.logger);
  server.on('connect', onConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // An error of the listening socket (an accept that failed) is logged; unheard, it would end the process.
  server.on('error', (err: NodeJS.ErrnoException) => options.logger.error(`server socket: ${err.code ?? ''} ${err.message}`.trim()));
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${options.tls ? 'https' : 'http'}://${shownHost}:${address.port}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
