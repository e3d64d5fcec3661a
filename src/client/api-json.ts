// JSON as nodes write it: balances and seqs are bare integers that may exceed 2^53, so
// JSON.parse would round them. Integers beyond the safe range come back as bigint.

import { isInteger, parse } from 'lossless-json';

function parseNumber(text: string): number | bigint {
  const value = Number(text);
  if (isInteger(text) && !Number.isSafeInteger(value)) return BigInt(text);
  return value;
}

export function parseApiJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** An exact integer from a JSON number or bigint (or a decimal string, as some nodes send). */
export function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  return undefined;
}
