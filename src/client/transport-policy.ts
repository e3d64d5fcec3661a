// The spec says transactions are sent over HTTPS. Plain HTTP stays allowed to this machine
// (a local node) and when the caller explicitly opts in; anywhere else a signed transaction
// on the wire could be read or replayed by anyone on the path.

import { TpkitError } from '../errors.js';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function checkTransactionTransport(url: URL, allowInsecure: boolean): void {
  if (url.protocol === 'https:' || allowInsecure || isLoopbackHost(url.hostname)) return;
  throw new TpkitError('INSECURE_TRANSPORT', 'Refusing to send a transaction over plain HTTP', {
    details: `${url.origin} is not this machine; use an https:// node URL, or pass allowInsecure: true if this network is trusted`,
  });
}
