// One JSON request to a node: joins the path to the base URL, bounds it with a timeout and
// its answer with a byte cap, and turns every way it can go wrong into a typed error: the
// caller's abort, a timeout, an unreachable node, an answer too large, a redirect on a
// request that changes state, an API error answer, or an answer that is not JSON.

import { AbortError, TpkitError } from '../errors.js';
import { parseApiJson } from './api-json.js';
import { ApiError, NetworkError, NotANodeError, TimeoutError } from './client-errors.js';

export interface HttpSettings {
  baseUrl: URL;
  fetch: typeof fetch;
  timeoutMs: number;
  /** Longest answer read, in bytes; the read stops past it. */
  maxResponseBytes: number;
}

/** The default cap on one answer: far above the largest block a tpkit node serves. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** A JSON request body. */
  json?: unknown;
  signal?: AbortSignal;
}

/** What every client call takes: the caller's cancellation. */
export interface CallOptions {
  signal?: AbortSignal;
}

export type JsonObject = Record<string, unknown>;

/** `base` + `path`, keeping any path prefix of the base URL (e.g. https://host/node1/). */
export function joinUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  const [pathname, query] = path.split('?', 2);
  url.pathname = url.pathname.replace(/\/+$/, '') + pathname;
  if (query !== undefined) url.search = query;
  return url;
}

/** Aborts when the caller's signal does or when `timeoutMs` passes; says which. */
function deadline(timeoutMs: number, outer: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** OpenSSL's answer to a TLS hello that met a plain-HTTP server ("wrong version number"). */
function speaksPlainHttp(err: unknown): boolean {
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long/i.test(cause?.message ?? '');
}

function apiErrorFrom(status: number, body: unknown, text: string, request: string): ApiError {
  const o = (typeof body === 'object' && body !== null ? body : {}) as JsonObject;
  let message = typeof o.msg === 'string' ? o.msg : typeof o.result === 'string' ? o.result : text.slice(0, 200) || `HTTP ${status}`;
  // A tpkit node adds what exactly was wrong; the spec's fixed messages do not say it.
  if (typeof o.details === 'string' && !message.includes(o.details)) message += ` (${o.details})`;
  return new ApiError({
    status,
    apiCode: typeof o.code === 'number' ? o.code : undefined,
    apiMessage: message,
    nodeError: typeof o.error === 'string' ? o.error : undefined,
    request,
  });
}

/** A body that is not JSON, named without its markup: a page's title (or words) says what answered. */
function describeBody(type: string, text: string): string {
  if (/html/i.test(type) || /^\s*</.test(text)) {
    const words = (/<title[^>]*>([^<]*)/i.exec(text)?.[1] ?? text.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim().slice(0, 60);
    return `an HTML page instead of JSON${words ? ` ("${words}")` : ''}`;
  }
  return text.trim() ? `text instead of JSON: ${JSON.stringify(text.trim().slice(0, 60))}` : 'an empty answer instead of JSON';
}

function tooLarge(request: string, cap: number, seen: string): TpkitError {
  return new TpkitError('RESPONSE_TOO_LARGE', 'Node answer exceeds the size limit', {
    details: `${request}: ${seen}, maxResponseBytes ${cap}`,
  });
}

/** The answer's text, read chunk by chunk and abandoned as soon as it passes `cap` bytes. */
async function readCapped(res: Response, cap: number, request: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > cap) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(request, cap, `Content-Length ${declared}`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(request, cap, `${total} bytes so far`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * A request that changes state is never sent on to where a redirect points: another host
 * would get the signed transaction and its answer would be taken for the node's.
 */
function refuseRedirect(res: Response, request: string, origin: string): void {
  if (res.type !== 'opaqueredirect' && !(res.status >= 300 && res.status < 400)) return;
  const to = res.headers.get('location');
  throw new TpkitError('REDIRECT_REFUSED', 'Node answered a state-changing request with a redirect', {
    details: `${request} to ${origin}: HTTP ${res.status || 'redirect'}${to ? ` to ${to}` : ''}`,
  });
}

export async function requestJson(http: HttpSettings, path: string, options: RequestOptions = {}): Promise<JsonObject> {
  const method = options.method ?? 'GET';
  const request = `${method} ${path}`;
  if (options.signal?.aborted) throw new AbortError(`${request} aborted`);
  const limit = deadline(http.timeoutMs, options.signal);
  let text: string;
  let status: number;
  let type: string;
  try {
    const res = await http.fetch(joinUrl(http.baseUrl, path), {
      method,
      headers: options.json === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: limit.signal,
      // A GET may follow a redirect (it changes nothing); a POST stops at it.
      redirect: method === 'POST' ? 'manual' : 'follow',
    });
    if (method === 'POST') refuseRedirect(res, request, http.baseUrl.origin);
    status = res.status;
    type = res.headers.get('content-type') ?? '';
    text = await readCapped(res, http.maxResponseBytes, request);
  } catch (err) {
    if (err instanceof TpkitError) throw err;
    if (options.signal?.aborted) throw new AbortError(`${request} aborted`, { cause: err });
    if (limit.timedOut()) throw new TimeoutError(`${request} got no answer from ${http.baseUrl.origin} within ${http.timeoutMs} ms`, { cause: err });
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
    if (http.baseUrl.protocol === 'https:' && speaksPlainHttp(err)) {
      const plain = new URL(http.baseUrl.href);
      plain.protocol = 'http:';
      throw new NetworkError(`${request} to ${http.baseUrl.origin}: the server answers plain HTTP, not TLS; use ${plain.origin}`, { cause: err });
    }
    throw new NetworkError(`${request} to ${http.baseUrl.origin}: ${cause}`, { cause: err });
  } finally {
    limit.done();
  }
  let body: unknown;
  try {
    body = parseApiJson(text);
  } catch (err) {
    // A gateway's error page stands for the node behind it; anything else that answers
    // the API's paths with a page is another server (a static file server, a dev server).
    if (status >= 500) throw apiErrorFrom(status, undefined, describeBody(type, text), request);
    throw new NotANodeError(http.baseUrl.origin, `${request}: HTTP ${status}, ${describeBody(type, text)}`, { cause: err });
  }
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as JsonObject) : undefined;
  if (status >= 400 || object?.ok === false) throw apiErrorFrom(status, body, text, request);
  if (!object) {
    throw new TpkitError('BAD_RESPONSE', 'Node answer is not a JSON object', { details: `${request}: ${text.slice(0, 80)}` });
  }
  return object;
}
