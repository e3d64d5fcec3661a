// The checks every request and WebSocket upgrade passes before any handler runs or any body
// is read: its Host (host-policy.ts), its Origin (origin-policy.ts) and, for the development
// endpoints, a JSON content type, which no HTML form and no CORS-free fetch can send.

import type http from 'node:http';
import { ValidationError } from '../../errors.js';
import { hostAllowed, hostRefusal } from './host-policy.js';
import { corsHeaders, originAllowed, originRefusal } from './origin-policy.js';

export interface AccessPolicy {
  /** --allow-host entries, beyond localhost, *.localhost and IP literals. */
  allowHosts: readonly string[];
  /** --allow-origin entries, beyond this machine's pages and the node's own. */
  allowOrigins: readonly string[];
}

export const LOCAL_ONLY: AccessPolicy = { allowHosts: [], allowOrigins: [] };

/** Methods that change nothing here. */
const READ_METHODS = new Set(['GET', 'HEAD']);

export interface RequestAccess {
  /** Refuse with this before anything else, or undefined. */
  refusal?: ValidationError;
  /** CORS headers for the answer. */
  cors: Record<string, string>;
}

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** What a request may do: a refusal (Host; Origin on a preflight or a state-changing method), else its CORS headers. */
export function checkRequest(req: http.IncomingMessage, policy: AccessPolicy): RequestAccess {
  const host = req.headers.host;
  if (!hostAllowed(host, policy.allowHosts)) return { refusal: hostRefusal(host ?? ''), cors: {} };
  const origin = single(req.headers.origin);
  const allowed = origin === undefined || originAllowed(origin, host, policy.allowOrigins);
  // A disallowed page may still load what a <script> or <img> could (no CORS header: it cannot
  // read it); anything that changes state, and a preflight asking to, is refused outright.
  if (!allowed && !READ_METHODS.has(req.method ?? 'GET')) return { refusal: originRefusal(origin!), cors: { vary: 'Origin' } };
  const privateNetwork = req.method === 'OPTIONS' && single(req.headers['access-control-request-private-network']) === 'true';
  return { cors: corsHeaders(origin, allowed, single(req.headers['access-control-request-headers']), privateNetwork) };
}

/** A WebSocket upgrade: the same Host rule, and an Origin (browsers always send one) that is allowed. */
export function checkUpgrade(req: http.IncomingMessage, policy: AccessPolicy): ValidationError | undefined {
  const host = req.headers.host;
  if (!hostAllowed(host, policy.allowHosts)) return hostRefusal(host ?? '');
  const origin = single(req.headers.origin);
  if (origin !== undefined && !originAllowed(origin, host, policy.allowOrigins)) return originRefusal(origin);
  return undefined;
}

/** The development endpoints take JSON only: a form or a text/plain fetch cannot reach them without a preflight. */
export function checkDevContentType(req: http.IncomingMessage): ValidationError | undefined {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return undefined;
  return new ValidationError('CONTENT_TYPE_UNSUPPORTED', 'The development endpoints take application/json', {
    details: `got ${type === '' ? 'no Content-Type' : JSON.stringify(type.slice(0, 100))}; send Content-Type: application/json`,
  });
}
