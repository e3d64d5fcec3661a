// Builder for deploy (18) bodies as the official SDK writes them (composeDeployTX): keys k, f,
// s, t, p, then c (the constructor's ABI-encoded arguments as ["0x0", [bytes]]) when given,
// and e with the contract: {code, vm: "evm", deploy: "inplace"}, the code running at the
// sender's own address. Extra `e` entries (the SDK's `view`) may be added.

import { KIND } from './constants.js';
import { encodeMsgpack } from './msgpack-write.js';
import type { MsgValue } from './msgpack-types.js';
import type { BodyExtraInput, PayloadItemInput } from './body-types.js';
import { addressArg, objectArg, payloadArg, plainObjectArg, safeUintArg, u64Arg } from './body-args.js';
import { expectBytes } from '../bytes.js';
import { ArgumentError } from '../errors.js';

export interface DeployBodyInput {
  from: Uint8Array | string;
  seq: bigint | number;
  timestamp: number | bigint;
  payload: readonly PayloadItemInput[];
  /** The contract's creation code (what solc calls bytecode). */
  code: Uint8Array;
  /** The constructor's arguments, ABI-encoded (without a selector). */
  args?: Uint8Array;
  /** More entries of `e` (code, vm and deploy are set here). */
  extra?: BodyExtraInput;
}

export function deployBody(input: DeployBodyInput): Uint8Array {
  objectArg(input, 'body');
  const code = expectBytes(input.code, 'code');
  if (code.length === 0) throw new ArgumentError('"code" expected the contract\'s creation code, got 0 bytes', { field: 'code' });
  const fields = new Map<string, MsgValue>([
    ['k', KIND.deploy],
    ['f', addressArg(input.from, 'f')],
    ['s', u64Arg(input.seq, 's')],
    ['t', safeUintArg(input.timestamp, 't')],
    ['p', payloadArg(input.payload, 'p')],
  ]);
  if (input.args !== undefined && input.args.length > 0) fields.set('c', ['0x0', [expectBytes(input.args, 'args')]]);
  const extra: Record<string, MsgValue> = input.extra === undefined ? {} : { ...plainObjectArg(input.extra, 'e') };
  fields.set('e', { ...extra, code, vm: 'evm', deploy: 'inplace' });
  return encodeMsgpack(fields, { label: 'body' });
}
