// Fresh mutations of the codec, the crypto, the miner, the client and the CLI shown to change nothing a caller can observe.
// The list's format: scripts/equivalent-mutations.mjs.

const CANCEL_STARTS_AT_CALL =
  "a stream's cancel runs the underlying source's cancel steps at the call (fetch's aborts the connection there); awaiting the returned promise only delays the throw that follows, and its rejection is caught either way";

export const EQUIVALENT_LIBRARY = [
  {
    file: 'src/client/http.ts',
    original: 'await reader.cancel().catch(() => undefined);',
    mutated: 'reader.cancel().catch(() => undefined);',
    why: CANCEL_STARTS_AT_CALL,
  },
  {
    file: 'src/client/http.ts',
    original: 'await res.body?.cancel().catch(() => undefined);',
    mutated: 'res.body?.cancel().catch(() => undefined);',
    why: CANCEL_STARTS_AT_CALL,
  },
  {
    file: 'src/client/client.ts',
    original: 'await abortableSleep(Math.min(delay, left), wait.signal);',
    mutated: 'await abortableSleep(Math.min(left, delay), wait.signal);',
    why: 'Math.min of two numbers does not depend on their order',
  },
  {
    file: 'src/client/client.ts',
    original: "signal?.addEventListener('abort', onAbort, { once: true });",
    mutated: "signal?.addEventListener('abort', onAbort, { });",
    why: "once only matters after the abort fired: an aborted signal never fires 'abort' again, a sleep on an already aborted signal rejects before adding a listener, and the timer's end removes it; the leftover stays only on a signal that is dead",
  },
];
