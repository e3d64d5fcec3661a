// Argument checks shared by the body builders: each failure names the field it is about.

import { ArgumentError, describeValue } from '../errors.js';
import { parseAddress } from './address.js';
import { purposeName, purposeNumber, type PurposeName } from './constants.js';
import type { MsgValue } from './msgpack-types.js';
import type { BodyCallInput, BodyExtraInput, PayloadItemInput } from './body-types.js';
import { utf8Encode } from './utf8.js';

const UINT64_MAX = (1n << 64n) - 1n;

function shown(value: unknown): string {
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : describeValue(value);
}

/** A non-negative integer up to 2^64-1 (number or bigint), returned as given. */
export function u64Arg(value: unknown, label: string): number | bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n && value <= UINT64_MAX) return value;
  throw new ArgumentError(`"${label}" expected an integer 0 to 2^64-1, got ${shown(value)}`, { field: label });
}

/** A non-negative integer up to 2^53-1, such as a millisecond timestamp. */
export function safeUintArg(value: unknown, label: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  throw new ArgumentError(`"${label}" expected an integer 0 to 2^53-1, got ${shown(value)}`, { field: label });
}

export function addressArg(value: unknown, label: string): Uint8Array {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
    throw new ArgumentError(`"${label}" expected address text or 8 bytes, got ${describeValue(value)}`, { field: label });
  }
  return parseAddress(value, label);
}

export function objectArg(value: unknown, label: string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ArgumentError(`"${label}" expected an object, got ${describeValue(value)}`, { field: label });
  }
}

export function plainObjectArg(value: unknown, label: string): BodyExtraInput {
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    throw new ArgumentError(`"${label}" expected a plain object, got ${describeValue(value)}`, { field: label });
  }
  return value as BodyExtraInput;
}

/** A payload item -> the exactly-3-element wire array [purpose, currency as bin, amount]. */
export function payloadItemArg(item: PayloadItemInput, label: string): MsgValue[] {
  objectArg(item, label);
  const purpose = purposeNumber(item.purpose as number | PurposeName, `${label}.purpose`);
  // A decoded item carries its purpose three ways; they must agree.
  for (const [key, value, expected] of [
    ['purposeNumber', item.purposeNumber, purpose],
    ['purposeName', item.purposeName, purposeName(purpose)],
  ] as const) {
    if (value !== undefined && value !== expected) {
      throw new ArgumentError(`"${label}.${key}" is ${JSON.stringify(value)} but purpose ${purpose} is "${purposeName(purpose) ?? 'unnamed'}"`, { field: `${label}.${key}` });
    }
  }
  if (typeof item.currency !== 'string' || item.currency.length === 0) {
    throw new ArgumentError(`"${label}.currency" expected a non-empty string, got ${describeValue(item.currency)}`, { field: `${label}.currency` });
  }
  const currency = utf8Encode(item.currency, `${label}.currency`);
  const amount = u64Arg(item.amount, `${label}.amount`);
  return [purpose, currency, amount];
}

export function payloadArg(payload: unknown, label: string): MsgValue[] {
  if (!Array.isArray(payload)) throw new ArgumentError(`"${label}" expected an array, got ${describeValue(payload)}`, { field: label });
  return payload.map((item, i) => payloadItemArg(item as PayloadItemInput, `${label}[${i}]`));
}

export function callArg(call: BodyCallInput, label: string): MsgValue[] {
  objectArg(call, label);
  if (typeof call.method !== 'string') {
    throw new ArgumentError(`"${label}.method" expected a string, got ${describeValue(call.method)}`, { field: `${label}.method` });
  }
  if (!Array.isArray(call.args)) {
    throw new ArgumentError(`"${label}.args" expected an array, got ${describeValue(call.args)}`, { field: `${label}.args` });
  }
  return [call.method, call.args as MsgValue[]];
}

export function publicKeysArg(keys: unknown, label: string): Uint8Array[] {
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new ArgumentError(`"${label}" expected a non-empty array of 33-byte public keys, got ${describeValue(keys)}`, { field: label });
  }
  return keys.map((key, i) => {
    if (!(key instanceof Uint8Array) || key.length !== 33) {
      throw new ArgumentError(`"${label}[${i}]" expected 33 bytes, got ${describeValue(key)}`, { field: `${label}[${i}]` });
    }
    return key;
  });
}
