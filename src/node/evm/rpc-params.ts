// The JSON-RPC parameters read: hex quantities and data, addresses, block tags and call
// objects, each refused with -32602 and the field named when malformed.

import { hexToBytes } from '../../bytes.js';
import type { TpkitError } from '../../errors.js';
import { parseEvmAddress } from './address.js';
import type { EthChain } from './eth-chain.js';
import { RpcError } from './rpc-error.js';

/** Gas a view or an estimate may use when the call names none. */
export const CALL_GAS = 50_000_000n;

export function invalidParams(message: string): RpcError {
  return new RpcError(-32602, message);
}

export function quantity(value: unknown, field: string): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value);
  if (value === '0x') return 0n;
  throw invalidParams(`"${field}" expected a hex quantity, got ${JSON.stringify(value)?.slice(0, 80)}`);
}

export function data(value: unknown, field: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array(0);
  if (typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)) return hexToBytes(value);
  throw invalidParams(`"${field}" expected 0x and an even number of hex digits`);
}

export function address(value: unknown, field: string): string {
  try {
    return parseEvmAddress(value, field);
  } catch (err) {
    throw invalidParams((err as TpkitError).details ?? (err as Error).message);
  }
}

/** A block tag or number → a height at or below the head. */
export function heightOf(chain: EthChain, tag: unknown, field: string): number {
  if (tag === undefined || tag === null || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return chain.height();
  if (tag === 'earliest') return 0;
  if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag) return heightOf(chain, (tag as { blockNumber: unknown }).blockNumber, field);
  const n = quantity(tag, field);
  if (n > BigInt(chain.height())) throw invalidParams(`"${field}": block ${n} is above the head ${chain.height()}`);
  return Number(n);
}

/** Only the head's state is kept: a call or read at an older block is refused, not answered wrongly. */
export function atHead(chain: EthChain, tag: unknown, field: string): void {
  const h = heightOf(chain, tag, field);
  if (h !== chain.height()) throw new RpcError(-32000, `state at block ${h} is not kept: this node answers for the head (${chain.height()}) only`);
}

interface CallArgs {
  from?: unknown;
  to?: unknown;
  data?: unknown;
  input?: unknown;
  value?: unknown;
  gas?: unknown;
}

/** eth_call's and eth_estimateGas's object; without `to` it is a deploy of `data` as init code. */
export function callMessage(args: unknown) {
  if (!args || typeof args !== 'object') throw invalidParams('expected a call object');
  const a = args as CallArgs;
  return {
    caller: a.from === undefined || a.from === null ? '0'.repeat(40) : address(a.from, 'from'),
    to: a.to === undefined || a.to === null ? undefined : address(a.to, 'to'),
    data: data(a.input ?? a.data, 'data'),
    value: a.value === undefined || a.value === null ? 0n : quantity(a.value, 'value'),
    gasLimit: a.gas === undefined || a.gas === null ? CALL_GAS : quantity(a.gas, 'gas'),
  };
}
