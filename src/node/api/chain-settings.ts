// The chain settings tree GET /api/settings answers, laid out as the reference node's
// (`current.register.diff`, `current.fee.<CUR>`, `current.fee.params.feeaddr`,
// `current.allocblock`, `current.chain.blocktime` in seconds).

import { bytesToHex } from '../../bytes.js';
import type { NodeConfig } from '../config/config.js';
import type { JsonValue } from '../base/json.js';

export interface ChainSettingsInput {
  config: NodeConfig;
  feeAddress: Uint8Array;
  allocLast: number;
}

export function settingsTree({ config, feeAddress, allocLast }: ChainSettingsInput): { [key: string]: JsonValue } {
  const fee: { [key: string]: JsonValue } = { params: { feeaddr: bytesToHex(feeAddress, true), notip: 1 } };
  for (const [cur, r] of Object.entries(config.fees)) fee[cur] = { base: r.base, baseextra: r.baseextra, kb: r.kb };
  return {
    current: {
      chain: {
        blocktime: config.instant ? 0 : config.blockTime / 1000,
        minsig: 1,
        allowempty: 0,
      },
      register: { diff: config.difficulty },
      allocblock: { group: config.allocGroup, block: config.chain, last: allocLast },
      fee,
      // SK spending limits are off, as on a chain with `nosk` set: a dev chain has no SK quota.
      nosk: 1,
    },
    chains: [config.chain],
    nodechain: { [config.nodeName]: config.chain },
  };
}

/** The subtree at `path` (segments), or undefined when there is none. */
export function settingsAt(tree: JsonValue, path: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = tree;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as { [k: string]: JsonValue | undefined })[key];
  }
  return node;
}
