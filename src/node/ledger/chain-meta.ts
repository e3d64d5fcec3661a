// The chain head record (key "meta"): which chain the store holds, with what settings, and its
// head. Written in every block's batch; read on start, where another chain's data is refused.

import { bytesToHex } from '../../bytes.js';
import { ValidationError } from '../../errors.js';
import type { NodeConfig } from '../config/config.js';
import type { ChainMeta } from '../store/keys.js';
import type { Head } from './block-builder.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** What the head record says beside the head itself. */
export interface ChainFacts {
  feeAddress: Uint8Array;
  accounts: number;
}

export function encodeChainMeta(config: NodeConfig, facts: ChainFacts, head: Head): Uint8Array {
  const meta: ChainMeta = {
    version: 1,
    chain: config.chain,
    allocGroup: config.allocGroup,
    nodeName: config.nodeName,
    feeAddress: bytesToHex(facts.feeAddress),
    accounts: facts.accounts,
    height: head.height,
    hash: bytesToHex(head.hash, true),
    time: head.time,
    allocLast: head.allocLast,
  };
  return utf8.encode(JSON.stringify(meta));
}

/** The stored head record, refused when it is another chain's than the config's. */
export function decodeChainMeta(bytes: Uint8Array, config: NodeConfig): ChainMeta {
  const meta = JSON.parse(text.decode(bytes)) as ChainMeta;
  if (meta.chain !== config.chain || meta.allocGroup !== config.allocGroup) {
    throw new ValidationError('CONFIG_INVALID', 'The data directory holds another chain', {
      details: `it has chain ${meta.chain} (group ${meta.allocGroup}); the config asks for chain ${config.chain} (group ${config.allocGroup}): use another --data-dir or the same settings`,
    });
  }
  return meta;
}
