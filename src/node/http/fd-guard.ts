// File descriptors: each connection holds one, and at the process's limit (ulimit -n) libuv
// accepts and at once closes every new connection without a word, so the node looks dead. The
// guard counts open connections; near the limit it closes the idle ones (connected, no request
// in flight, the oldest first, live-stream connections aside) to make room, and says so in the
// log, at most once every few seconds.

import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Logger } from '../base/log.js';

/** Share of the limit at which idle connections are closed, and the share they are closed down to. */
const HIGH_WATER = 0.8;
const LOW_WATER = 0.6;
const WARN_EVERY_MS = 10_000;

/** The soft limit on open files, from /proc (Linux); undefined where it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface FdGuard {
  /** Connections open now. */
  readonly open: number;
  close(): void;
}

interface Tracked {
  busy: boolean;
  upgraded: boolean;
}

export function guardDescriptors(server: Server, logger: Logger, limit = openFileLimit()): FdGuard {
  // Insertion order is age: the oldest idle connection is closed first.
  const sockets = new Map<Socket, Tracked>();
  let warnedAt = -Infinity;
  const high = limit === undefined ? Infinity : Math.max(16, Math.floor(limit * HIGH_WATER));
  const low = limit === undefined ? Infinity : Math.max(8, Math.floor(limit * LOW_WATER));
  const makeRoom = () => {
    const excess = sockets.size - low;
    let closed = 0;
    for (const [socket, state] of [...sockets]) {
      if (closed >= excess) break;
      if (state.busy || state.upgraded) continue;
      socket.destroy();
      closed++;
    }
    const now = Date.now();
    if (now - warnedAt >= WARN_EVERY_MS) {
      warnedAt = now;
      logger.warn(
        `${sockets.size} connections open, near the limit of ${limit} open files (ulimit -n): closed ${closed} idle ones to make room; ` +
          'at the limit new connections are dropped unanswered. Raise it with ulimit -n, or find the client holding them',
      );
    }
  };
  const onConnection = (socket: Socket) => {
    sockets.set(socket, { busy: false, upgraded: false });
    socket.once('close', () => sockets.delete(socket));
    if (sockets.size >= high) makeRoom();
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket as Socket);
    if (!state) return;
    state.busy = true;
    res.once('close', () => (state.busy = false));
  };
  const onUpgrade = (req: IncomingMessage) => {
    const state = sockets.get(req.socket as Socket);
    if (state) state.upgraded = true;
  };
  // Over TLS the request's socket is the TLS one, announced by 'secureConnection'.
  const event = 'setSecureContext' in server ? 'secureConnection' : 'connection';
  server.on(event, onConnection);
  server.on('request', onRequest);
  server.on('upgrade', onUpgrade);
  return {
    get open() {
      return sockets.size;
    },
    close: () => {
      server.off(event, onConnection);
      server.off('request', onRequest);
      server.off('upgrade', onUpgrade);
    },
  };
}
