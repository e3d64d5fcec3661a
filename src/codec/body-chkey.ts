// Builder for chkey (24) bodies: k, f, t, s, y (the new public keys; the first becomes the
// wallet's key).

import { KIND } from './constants.js';
import { encodeMsgpack } from './msgpack-write.js';
import type { MsgValue } from './msgpack-types.js';
import type { ChkeyBodyInput } from './body-types.js';
import { addressArg, objectArg, publicKeysArg, safeUintArg, u64Arg } from './body-args.js';

export function chkeyBody(input: ChkeyBodyInput): Uint8Array {
  objectArg(input, 'body');
  const fields = new Map<string, MsgValue>([
    ['k', KIND.chkey],
    ['f', addressArg(input.from, 'f')],
    ['t', safeUintArg(input.timestamp, 't')],
    ['s', u64Arg(input.seq, 's')],
    ['y', publicKeysArg(input.publicKeys, 'y')],
  ]);
  return encodeMsgpack(fields, { label: 'body' });
}
