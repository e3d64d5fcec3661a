// Routes of the reference node this node does not serve (LStore data, ledger proofs): they
// answer 501 NOT_IMPLEMENTED with a code saying so instead of a bare 404, and a wallet can
// tell "not here" from "mistyped".

import { ValidationError } from '../../errors.js';
import type { Route } from '../http/server.js';

const notImplemented = (what: string) => (): never => {
  throw new ValidationError('NOT_IMPLEMENTED', 'Not implemented by this node', { details: `${what}: the local node keeps no LStore data or ledger proofs` });
};

export function createUnservedRoutes(): Route[] {
  return [{ method: 'GET', prefix: ['address'], params: 'rest', handler: (ctx) => addressSubPath(ctx.params) }];
}

/** address/{a}/lstore… (LStore data) and /verify (Merkle proofs of the ledger) are not kept here. */
export function addressSubPath(params: string[]): never {
  const sub = params[1] ?? '';
  if (params.length >= 2 && (sub === 'verify' || sub === 'lstore')) {
    notImplemented(`address/{address}/${sub}`)();
  }
  throw new ValidationError('ROUTE_NOT_FOUND', 'No such endpoint', { details: `/api/address/${params.join('/')}` });
}
