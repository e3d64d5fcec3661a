// The node a command talks to, as people type it: a full URL, or host:port alone (http on
// this machine, https elsewhere), with or without a trailing /api. A mistake names the flag
// or variable it came from, not the library's argument.

import { isLoopbackHost } from '../client/transport-policy.js';
import { ArgumentError } from '../errors.js';

export function nodeUrlFrom(text: string, source: string): string {
  let given = text.trim();
  if (given === '') throw new ArgumentError(`${source} is empty`, { details: 'e.g. http://127.0.0.1:43280 or 127.0.0.1:43280' });
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
    const host = given.replace(/[/?#].*$/, '').replace(/:\d*$/, '');
    given = `${isLoopbackHost(host) ? 'http' : 'https'}://${given}`;
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ArgumentError(`${source} is not a node URL: '${text}'`, { details: 'e.g. http://127.0.0.1:43280 or 127.0.0.1:43280' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArgumentError(`${source} must be an http:// or https:// URL, got '${text}'`);
  }
  // The API's own prefix is added by the client.
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api$/, '') || '/';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/$/, '');
}
