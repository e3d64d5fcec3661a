// Gas bought with the payload's `gas` purpose, priced by the chain settings as the reference
// node prices it (generate_block_process:to_gas): `current.gas.<CUR>` is either
// {"tokens": T, "gas": G} (T units of CUR buy G gas) or a number G (one unit buys G gas). The
// whole offered amount is taken before the run; what the run did not use goes back, rounded
// down to whole units, and the rest goes to the fee address with the fees.

export interface GasRate {
  tokens: bigint;
  gas: bigint;
}

/** current.gas as the settings tree holds it: SK, one unit buys 1000 gas (the reference's easy-chain genesis). */
export const DEFAULT_GAS_RATES: Readonly<Record<string, { tokens: number; gas: number }>> = { SK: { tokens: 1, gas: 1000 } };

export function gasRates(settings: Readonly<Record<string, unknown>>): Map<string, GasRate> {
  const rates = new Map<string, GasRate>();
  for (const [cur, value] of Object.entries(settings)) {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) rates.set(cur, { tokens: 1n, gas: BigInt(value) });
    else if (value && typeof value === 'object') {
      const { tokens, gas } = value as { tokens?: unknown; gas?: unknown };
      if (Number.isSafeInteger(tokens) && Number.isSafeInteger(gas) && (tokens as number) > 0 && (gas as number) > 0) {
        rates.set(cur, { tokens: BigInt(tokens as number), gas: BigInt(gas as number) });
      }
    }
  }
  return rates;
}

/** Gas that `amount` units buy. */
export function gasFor(amount: bigint, rate: GasRate): bigint {
  return (amount * rate.gas) / rate.tokens;
}

/** Units returned to the payer when `used` of the gas `amount` bought was spent. */
export function unitsLeft(amount: bigint, used: bigint, rate: GasRate): bigint {
  const left = gasFor(amount, rate) - used;
  return left > 0n ? (left * rate.tokens) / rate.gas : 0n;
}

/** eth_gasPrice: units of the native currency per gas, rounded down as the reference does (0 when gas is cheaper than a unit). */
export function gasPrice(rate: GasRate | undefined): bigint {
  return rate ? rate.tokens / rate.gas : 0n;
}
