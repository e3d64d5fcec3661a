// A busy port is found before the ledger is opened, so `tpkit node` fails in one line with
// advice instead of after loading a chain, and never holds a data dir it cannot serve.

import net from 'node:net';
import { TpkitError } from '../../errors.js';

export function portInUse(host: string, port: number, cause?: unknown): TpkitError {
  return new TpkitError('PORT_IN_USE', `Port ${port} on ${host} is already in use`, {
    details: `another process listens there (another tpkit node?): stop it, or pick another port with --port N (--port 0 takes any free one)`,
    cause,
  });
}

/** Resolves when `host:port` can be listened on; rejects with PORT_IN_USE when it cannot. */
export function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(portInUse(host, port, err));
      else resolve(); // EACCES and the like: the real listen reports them
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
