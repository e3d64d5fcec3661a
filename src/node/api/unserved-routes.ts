// Routes of the reference node that run smart contracts or the EVM: this node has no virtual
// machine, so they answer 501 NOT_IMPLEMENTED with a code saying so instead of a bare 404,
// and a wallet can tell "not here" from "mistyped".

import { ValidationError } from '../../errors.js';
import type { Route } from '../http/server.js';

const notImplemented = (what: string) => (): never => {
  throw new ValidationError('NOT_IMPLEMENTED', 'Not implemented by this node', { details: `${what}: the local node runs no smart contracts` });
};

export function createUnservedRoutes(): Route[] {
  return [
    { method: 'POST', prefix: ['execute', 'call'], params: 0, handler: notImplemented('contract calls (execute/call)') },
    { method: 'GET', prefix: ['logs'], params: 1, handler: notImplemented('contract event logs') },
    { method: 'GET', prefix: ['logs_height'], params: 1, handler: notImplemented('contract event logs') },
    { method: 'GET', prefix: ['address'], params: 'rest', handler: (ctx) => addressSubPath(ctx.params) },
  ];
}

/** address/{a}/code, /statekeys, /state…, /lstore… and /verify read contract storage. */
export function addressSubPath(params: string[]): never {
  const sub = params[1] ?? '';
  if (params.length >= 2 && (sub === 'code' || sub === 'statekeys' || sub === 'verify' || sub.startsWith('state') || sub === 'lstore')) {
    notImplemented(`address/{address}/${sub}`)();
  }
  throw new ValidationError('ROUTE_NOT_FOUND', 'No such endpoint', { details: `/api/address/${params.join('/')}` });
}
