// deploy (18) bodies as the official SDK writes them (composeDeployTX), read from the fields
// decodeBody leaves as they are for this kind. Kept apart from decodeBody so the browser
// build, which never deploys, does not carry it.

import { address, call, extra, fail, indexFields, payload, required, safeUnsigned, unsigned } from './body-decode.js';
import type { DeployBody, OtherBody } from './body-types.js';

/** The deploy layout of a body that decodeBody returned as { kind: 'deploy', fields }. */
export function decodeDeployBody(other: OtherBody): DeployBody {
  if (other.kind !== 'deploy') throw fail('BODY_BAD_FIELD', 'k', `expected a deploy body (18), got ${other.kind} (${other.kindNumber})`);
  const raw = other.raw;
  const fields = indexFields(raw, '');
  const e = extra(required(fields, 'e'));
  const code = e.code;
  if (!(code instanceof Uint8Array) || code.length === 0) throw fail('BODY_BAD_FIELD', 'e.code', 'expected the contract code as a non-empty bin');
  if (typeof e.vm !== 'string') throw fail('BODY_BAD_FIELD', 'e.vm', 'expected the virtual machine\'s name, e.g. "evm"');
  const body: DeployBody = {
    kind: 'deploy',
    kindNumber: 18,
    from: address(required(fields, 'f'), 'f'),
    seq: unsigned(required(fields, 's'), 's'),
    timestamp: safeUnsigned(required(fields, 't'), 't'),
    payload: payload(required(fields, 'p')),
    code: code.slice(),
    vm: e.vm,
    extra: e,
    raw,
  };
  const c = fields.get('c');
  // The SDK writes `c: []` for a constructor without arguments.
  if (c !== undefined && !(c.type === 'array' && c.items.length === 0)) {
    const { method, args } = call(c);
    if (method !== '0x0' || args.length !== 1 || !(args[0] instanceof Uint8Array)) {
      throw fail('BODY_BAD_FIELD', 'c', 'expected ["0x0", [<ABI-encoded constructor arguments>]]');
    }
    body.args = args[0].slice();
  }
  return body;
}
