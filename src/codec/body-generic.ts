// Builders for generic (16) and notify (23) bodies, in the spec's key order
// k, f, to, s, t, p, then c and e when given. Integers take their smallest unsigned form,
// addresses and currencies are bin, payload items have exactly 3 elements (R9).

import { ArgumentError, describeValue } from '../errors.js';
import { KIND } from './constants.js';
import { encodeMsgpack } from './msgpack-write.js';
import type { MsgValue } from './msgpack-types.js';
import type { GenericBodyInput, NotifyBodyInput } from './body-types.js';
import { addressArg, callArg, objectArg, payloadArg, plainObjectArg, safeUintArg, u64Arg } from './body-args.js';

function tailFields(input: NotifyBodyInput, fields: Map<string, MsgValue>): Uint8Array {
  fields.set('s', u64Arg(input.seq, 's'));
  fields.set('t', safeUintArg(input.timestamp, 't'));
  fields.set('p', payloadArg(input.payload, 'p'));
  if (input.call !== undefined) fields.set('c', callArg(input.call, 'c'));
  if (input.extra !== undefined) fields.set('e', plainObjectArg(input.extra, 'e'));
  return encodeMsgpack(fields, { label: 'body' });
}

/** Encodes a generic (transfer / call / data) body. */
export function genericBody(input: GenericBodyInput): Uint8Array {
  objectArg(input, 'body');
  const fields = new Map<string, MsgValue>([
    ['k', KIND.generic],
    ['f', addressArg(input.from, 'f')],
    ['to', addressArg(input.to, 'to')],
  ]);
  return tailFields(input, fields);
}

/** Encodes a notify body: a generic body without `to`. */
export function notifyBody(input: NotifyBodyInput): Uint8Array {
  objectArg(input, 'body');
  if ('to' in input && (input as { to?: unknown }).to !== undefined) {
    throw new ArgumentError(`"to" is not part of a notify body, got ${describeValue((input as { to?: unknown }).to)}`, { field: 'to' });
  }
  return tailFields(
    input,
    new Map<string, MsgValue>([
      ['k', KIND.notify],
      ['f', addressArg(input.from, 'f')],
    ]),
  );
}
