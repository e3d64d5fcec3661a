// Which `Host` header values the node answers. A web page can make a name it controls
// resolve to 127.0.0.1 (DNS rebinding) and then read the node as its own origin; the only
// trace of that is the name in `Host`. So the node answers only names that are this machine
// by definition (localhost, *.localhost), IP literals (which cannot be rebound), and names the
// user lists with --allow-host, as Vite's server.allowedHosts and geth's --http.vhosts do.

import { isIP, isIPv6 } from 'node:net';
import { ValidationError } from '../../errors.js';

/** The host name of a `Host` header (lowercase, without port, IPv6 without brackets), or undefined when malformed. */
export function hostName(header: string): string | undefined {
  let name: string;
  if (header.startsWith('[')) {
    const end = header.indexOf(']');
    if (end < 0 || !/^(:\d{1,5})?$/.test(header.slice(end + 1))) return undefined;
    name = header.slice(1, end);
    return isIPv6(name) ? name.toLowerCase() : undefined;
  }
  const colon = header.lastIndexOf(':');
  name = colon >= 0 && /^\d{1,5}$/.test(header.slice(colon + 1)) ? header.slice(0, colon) : header;
  name = name.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1); // "localhost." is the same name
  return /^[a-z0-9_.-]+$/.test(name) && !name.startsWith('.') && !name.includes('..') ? name : undefined;
}

/** localhost and *.localhost always mean this machine (RFC 6761; browsers never ask DNS for them). */
export function isLocalhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * True when a request with this `Host` may be answered. `allowHosts` entries: an exact name,
 * `.example.com` for that domain and every name under it, or `*` for any host.
 */
export function hostAllowed(header: string | undefined, allowHosts: readonly string[]): boolean {
  if (header === undefined) return true; // HTTP/1.0 without Host: no name to rebind
  const name = hostName(header);
  if (name === undefined) return false;
  if (isLocalhostName(name) || isIP(name) !== 0) return true;
  for (const entry of allowHosts) {
    if (entry === '*' || entry === name) return true;
    if (entry.startsWith('.') && (name === entry.slice(1) || name.endsWith(entry))) return true;
  }
  return false;
}

export function hostRefusal(header: string): ValidationError {
  const name = hostName(header);
  return new ValidationError('HOST_NOT_ALLOWED', 'Host not allowed', {
    details: `${name === undefined ? 'a malformed Host header' : JSON.stringify(name)} is not localhost, *.localhost or an IP address; start the node with --allow-host ${name ?? 'NAME'} to serve it`,
  });
}

/** Checks one --allow-host value; returns it normalized (lowercase, no trailing dot). */
export function allowHostEntry(value: string, field: string): string {
  const entry = value.trim().toLowerCase().replace(/\.$/, '');
  if (entry === '*') return entry;
  const name = entry.startsWith('.') ? entry.slice(1) : entry;
  if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name)) {
    throw new ValidationError('CONFIG_INVALID', `${field}: expected a host name such as dev.example, .example (it and every name under it) or *, got ${JSON.stringify(value)}`, { field });
  }
  return entry;
}

/** True for an address to listen on that only this machine reaches: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackListen(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLocalhostName(name) || name === '::1') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
