// The reference fee formula (tx:rate2): the first 32 bytes of a body are free, `baseextra`
// more are covered by `base`, every further byte costs `kb` per 1024 bytes, truncated.
// Nodes charge it and wallets compute it, so it lives with the codec.

export interface FeeRate {
  base: bigint;
  baseextra: bigint;
  kb: bigint;
}

export function feeCost(bodyLength: number, rate: FeeRate): bigint {
  const extra = BigInt(bodyLength) - 32n - rate.baseextra;
  return rate.base + (extra > 0n ? (extra * rate.kb) / 1024n : 0n);
}
