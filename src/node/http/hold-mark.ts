// The mark a 'hold' fault rule leaves on a request: tx/new accepts its transaction and never
// includes it. Kept apart from the fault rules so the API routes read it without depending on
// the dev API.

import type http from 'node:http';

const held = new WeakSet<http.IncomingHttpHeaders>();

export function markHeld(headers: http.IncomingHttpHeaders): void {
  held.add(headers);
}

export function holdRequested(headers: http.IncomingHttpHeaders): boolean {
  return held.has(headers);
}
