// A busy port, an address this machine does not have, a port it may not open: found before the
// ledger is opened, so `tpkit node` fails in one line with advice instead of after loading a
// chain, and never holds a data dir it cannot serve. With --port 0 nothing is probed: the real
// listen meets the same failures and reports them through listenError.

import net from 'node:net';
import { TpkitError, ValidationError } from '../../errors.js';

export function portInUse(host: string, port: number, cause?: unknown): TpkitError {
  return new TpkitError('PORT_IN_USE', `Port ${port} on ${host} is already in use`, {
    details: `another process listens there (another tpkit node?): stop it, or pick another port with --port N (--port 0 takes any free one)`,
    cause,
  });
}

/** A failed listen on `host:port` as a typed error, or the error itself when its cause is none of the known ones. */
export function listenError(host: string, port: number, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return portInUse(host, port, err);
  if (code === 'EADDRNOTAVAIL') {
    return new ValidationError('CONFIG_INVALID', `--host ${host}: no network interface of this machine has that address`, {
      field: 'host',
      details: 'listen on an address of this machine: 127.0.0.1 (the default), ::1, or 0.0.0.0 for every interface',
      cause: err,
    });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new ValidationError('CONFIG_INVALID', `--host ${host}: the name does not resolve to an address`, {
      field: 'host',
      details: 'give an IP address of this machine (127.0.0.1, ::1, 0.0.0.0) or a name that resolves to one',
      cause: err,
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new ValidationError('CONFIG_INVALID', `--port ${port}: this user may not listen on that port`, {
      field: 'port',
      details: 'ports below 1024 need root or CAP_NET_BIND_SERVICE: pick another with --port N (--port 0 takes any free one)',
      cause: err,
    });
  }
  return err;
}

/** Resolves when `host:port` can be listened on; rejects with a typed error (listenError) when it cannot. */
export function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      const typed = listenError(host, port, err);
      if (typed instanceof TpkitError) reject(typed);
      else resolve(); // anything else: the real listen reports it
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
