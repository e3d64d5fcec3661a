// The fee a transfer pays, from the node's `current.fee` settings and the reference formula
// (codec/fee.ts). The fee item is part of the body it pays for, so the amount is found by
// iterating until the body that carries it costs no more than it.

import { genericBody } from '../codec/body-generic.js';
import type { GenericBodyInput, PayloadItemInput } from '../codec/body-types.js';
import { feeCost, type FeeRate } from '../codec/fee.js';
import { TpkitError } from '../errors.js';
import { toBigInt } from './api-json.js';
import type { TpkitClient } from './client.js';
import { ApiError } from './client-errors.js';

/** Fee rates per currency from `current.fee` (its `params` entry is not a currency). */
export function feeRates(feeSettings: unknown): Map<string, FeeRate> {
  const rates = new Map<string, FeeRate>();
  if (typeof feeSettings !== 'object' || feeSettings === null) return rates;
  for (const [currency, value] of Object.entries(feeSettings as Record<string, unknown>)) {
    if (currency === 'params' || typeof value !== 'object' || value === null) continue;
    const r = value as Record<string, unknown>;
    const base = toBigInt(r.base);
    if (base === undefined) continue;
    rates.set(currency, { base, baseextra: toBigInt(r.baseextra) ?? 0n, kb: toBigInt(r.kb) ?? 0n });
  }
  return rates;
}

/**
 * The currency fees are paid in: the one asked for (it must have a rate), else the
 * transferred currency when it has one, else the node's only fee currency; undefined
 * when the node charges no fees.
 */
export function chooseFeeCurrency(rates: Map<string, FeeRate>, transferCurrency: string, asked?: string): string | undefined {
  if (asked !== undefined) {
    if (!rates.has(asked)) {
      const known = [...rates.keys()].join(', ') || 'none';
      throw new TpkitError('FEE_UNKNOWN', 'No fee rate for that currency', { details: `"${asked}" has no rate in current.fee (rates: ${known})` });
    }
    return asked;
  }
  if (rates.has(transferCurrency)) return transferCurrency;
  return rates.size > 0 ? rates.keys().next().value : undefined;
}

/** The smallest srcfee amount that covers the body carrying it. */
export function autoFee(input: Omit<GenericBodyInput, 'payload'> & { payload: readonly PayloadItemInput[] }, feeCurrency: string, rate: FeeRate): bigint {
  return autoFeeFor((payload) => genericBody({ ...input, payload }), input.payload, feeCurrency, rate);
}

/** autoFee for any body: `encode` builds it with the payload given (the fee item last). */
export function autoFeeFor(encode: (payload: PayloadItemInput[]) => Uint8Array, payload: readonly PayloadItemInput[], feeCurrency: string, rate: FeeRate): bigint {
  let amount = rate.base;
  for (;;) {
    const body = encode([...payload, { purpose: 'srcfee', currency: feeCurrency, amount }]);
    const cost = feeCost(body.length, rate);
    if (cost <= amount) return amount;
    amount = cost;
  }
}

/** The largest fee an automatic fee pays unless the caller says otherwise (smallest units). */
export const DEFAULT_MAX_FEE = 10n ** 12n;

function feeTooHigh(amount: bigint, currency: string, maxFee: bigint): TpkitError {
  return new TpkitError('FEE_TOO_HIGH', "The node's fee settings ask for more than maxFee", {
    details: `${amount} ${currency} or more, maxFee ${maxFee}; nothing signed`,
    field: 'current.fee',
  });
}

/**
 * autoFeeFor within `maxFee`: a node whose settings ask for more gets FEE_TOO_HIGH before
 * anything is signed. Checked on the base first: an absurd rate might not fit a body's amount.
 */
export function boundedAutoFee(encode: (payload: PayloadItemInput[]) => Uint8Array, payload: readonly PayloadItemInput[], feeCurrency: string, rate: FeeRate, maxFee: bigint): bigint {
  if (rate.base > maxFee) throw feeTooHigh(rate.base, feeCurrency, maxFee);
  const amount = autoFeeFor(encode, payload, feeCurrency, rate);
  if (amount > maxFee) throw feeTooHigh(amount, feeCurrency, maxFee);
  return amount;
}

/** A settings subtree (e.g. current/fee), or undefined where the node has none (404). */
export async function optionalSettings(client: TpkitClient, path: string, signal: AbortSignal | undefined): Promise<unknown> {
  try {
    return await client.getSettings(path, { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}
