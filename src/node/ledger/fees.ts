// The fee rates the ledger charges, by currency, from the node's configured fees.

import type { FeeRate } from '../../codec/fee.js';
import type { NodeConfig } from '../config/config.js';

export function feeRates(config: Pick<NodeConfig, 'fees'>): Map<string, FeeRate> {
  return new Map(Object.entries(config.fees).map(([cur, r]) => [cur, { base: r.base, baseextra: r.baseextra, kb: r.kb }]));
}
