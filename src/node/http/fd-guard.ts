// File descriptors: each connection holds one, and at the process's limit (ulimit -n) libuv
// accepts and at once closes every new connection without a word, so the node looks dead. The
// guard counts open connections; near the limit it closes idle ones (no request in flight for a
// second or more, the oldest first, live-stream connections aside) to make room, and says so in
// the log, at most once every few seconds. The server's own cap sits below the limit, so the
// store and the worker threads keep descriptors to open files with: a connection beyond it is
// refused, and each refusal makes room again and is logged (rate-limited), never silent.
// A connection that has not yet sent its request is not idle: closing it would refuse the very
// client that asks while every older connection is busy.

import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Logger } from '../base/log.js';

/** Shares of the connection budget at which idle connections are closed, and down to which. */
const HIGH_WATER = 0.8;
const LOW_WATER = 0.6;
/** Share of the limit kept free beyond what is open at start: worker threads, store files, modules. */
const RESERVE = 0.1;
const MIN_RESERVE = 8;
const WARN_EVERY_MS = 10_000;

/** Descriptors this process has open now, from /proc (Linux); 0 where it cannot be read. */
export function openDescriptors(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return 0;
  }
}

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
  /** When the connection last became idle (opened, or its last answer ended). */
  idleSince: number;
}

/** A connection counts as idle once it has had nothing in flight for this long. */
const IDLE_GRACE_MS = 1000;

export interface GuardOptions {
  /** The limit on open files (ulimit -n); unknown means no guard. */
  limit?: number;
  /** Descriptors already open before the first connection (the store, stdio, the threads). */
  inUse?: number;
  clock?: () => number;
}

/**
 * Connections get the limit less what is open at start and a reserve; the server refuses
 * beyond that budget, and idle connections are closed from 80 % of it down to 60 %.
 */
export function guardDescriptors(server: Server, logger: Logger, { limit = openFileLimit(), inUse = openDescriptors(), clock = Date.now }: GuardOptions = {}): FdGuard {
  // Insertion order is age: the oldest idle connection is closed first.
  const sockets = new Map<Socket, Tracked>();
  const budget = limit === undefined ? undefined : Math.max(2, limit - inUse - Math.max(MIN_RESERVE, Math.ceil(limit * RESERVE)));
  const high = budget === undefined ? Infinity : Math.floor(budget * HIGH_WATER);
  const low = budget === undefined ? Infinity : Math.floor(budget * LOW_WATER);
  if (budget !== undefined) server.maxConnections = budget;
  let roomWarnedAt = -Infinity;
  let refusedWarnedAt = -Infinity;
  let refused = 0;
  const makeRoom = () => {
    const now = clock();
    const excess = sockets.size - low;
    let closed = 0;
    for (const [socket, state] of [...sockets]) {
      if (closed >= excess) break;
      if (state.busy || state.upgraded || now - state.idleSince < IDLE_GRACE_MS) continue;
      socket.destroy();
      closed++;
    }
    if (closed > 0 && now - roomWarnedAt >= WARN_EVERY_MS) {
      roomWarnedAt = now;
      logger.warn(
        `${sockets.size} connections open, near the limit of ${limit} open files (ulimit -n): closed ${closed} idle ones to make room. ` + 'Raise it with ulimit -n, or find the client holding them',
      );
    }
  };
  const onDrop = () => {
    refused++;
    makeRoom();
    const now = clock();
    if (now - refusedWarnedAt < WARN_EVERY_MS) return;
    refusedWarnedAt = now;
    const busy = [...sockets.values()].filter((s) => s.busy || s.upgraded).length;
    logger.warn(
      `refused ${refused} connection${refused === 1 ? '' : 's'}: ${sockets.size} open (${busy} busy), the most this node takes with ${limit} open files allowed (ulimit -n). ` +
        'Raise it with ulimit -n, or find the client holding them',
    );
    refused = 0;
  };
  const onConnection = (socket: Socket) => {
    sockets.set(socket, { busy: false, upgraded: false, idleSince: clock() });
    socket.once('close', () => sockets.delete(socket));
    if (sockets.size >= high) makeRoom();
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket as Socket);
    if (!state) return;
    state.busy = true;
    res.once('close', () => {
      state.busy = false;
      state.idleSince = clock();
    });
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
  server.on('drop', onDrop);
  return {
    get open() {
      return sockets.size;
    },
    close: () => {
      server.off(event, onConnection);
      server.off('request', onRequest);
      server.off('upgrade', onUpgrade);
      server.off('drop', onDrop);
    },
  };
}
