// Which web pages may use the node from a browser. CORS is granted to pages on this machine
// (localhost, *.localhost, 127.0.0.0/8, [::1], any port and scheme http/https), to a page the
// node serves itself (Origin equal to Host), and to --allow-origin entries; never to the
// opaque origin `null` (sandboxed frames, file: pages, redirects), which any site can take.

import { ValidationError } from '../../errors.js';

function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]') return true;
  // The URL parser has already turned 0x7f.1, 2130706433 and the like into dotted decimal.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * True when a page of `origin` may read answers and change state. `host` is the request's
 * Host header (already allowed): a page the node itself serves is always its own origin.
 */
export function originAllowed(origin: string, host: string | undefined, allowOrigins: readonly string[]): boolean {
  if (origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return allowOrigins.includes(url.origin);
  if (isLoopbackHostname(url.hostname)) return true;
  if (host !== undefined && url.host === host.toLowerCase()) return true;
  return allowOrigins.includes('*') || allowOrigins.includes(url.origin);
}

export function originRefusal(origin: string): ValidationError {
  return new ValidationError('ORIGIN_NOT_ALLOWED', 'Origin not allowed', {
    details: `pages of ${JSON.stringify(origin.slice(0, 200))} may not use this node; it allows this machine's pages and --allow-origin entries`,
  });
}

/** Checks one --allow-origin value: `*` or an origin (scheme://host[:port], no path); returns it serialized. */
export function allowOriginEntry(value: string, field: string): string {
  const bad = () => new ValidationError('CONFIG_INVALID', `${field}: expected an origin such as https://wallet.example:8443 (no path) or *, got ${JSON.stringify(value)}`, { field });
  const entry = value.trim();
  if (entry === '*') return entry;
  if (entry === 'null') throw new ValidationError('CONFIG_INVALID', `${field}: the origin "null" is shared by every sandboxed page and is never allowed`, { field });
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw bad();
  }
  if (url.origin === 'null' || entry.replace(/\/$/, '') !== url.origin) throw bad();
  return url.origin;
}

/** CORS headers for an answer: the page's own origin when it is allowed, `*` for requests without Origin (no browser reads those). */
export function corsHeaders(origin: string | undefined, allowed: boolean, requestHeaders: string | undefined, privateNetwork: boolean): Record<string, string> {
  if (origin !== undefined && !allowed) return { vary: 'Origin' };
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin ?? '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': requestHeaders ?? 'content-type',
    'access-control-max-age': '86400',
  };
  if (origin !== undefined) headers.vary = 'Origin';
  // Private Network Access: a public page's preflight to a loopback address asks this.
  if (privateNetwork && origin !== undefined) headers['access-control-allow-private-network'] = 'true';
  return headers;
}
