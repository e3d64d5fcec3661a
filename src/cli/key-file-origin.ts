// A key file remembers the chain and node its wallet was registered on; using it against
// another chain is almost always a mistake (a wallet exists on one chain only), so the
// commands that use the wallet say so before they act.

import type { TpkitClient } from '../client/index.js';
import type { KeyFileInfo } from './key-file.js';

const sameNode = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** Where the key file says its wallet lives, for messages: "chain 1 at http://…". */
export function originText(info: KeyFileInfo): string {
  return [info.chain !== undefined ? `chain ${info.chain}` : undefined, info.node ? `at ${info.node}` : undefined].filter(Boolean).join(' ');
}

/** Warns on stderr when the node is on another chain (or is another node) than the key file's wallet. */
export async function warnIfElsewhere(info: KeyFileInfo, client: TpkitClient, signal?: AbortSignal): Promise<void> {
  if (!info.address || (info.chain === undefined && info.node === undefined)) return;
  const here = client.baseUrl.replace(/\/+$/, '');
  let chain: number;
  try {
    chain = (await client.nodeStatus({ signal })).chain;
  } catch {
    return; // the command's own request reports an unreachable node
  }
  if (info.chain !== undefined && chain !== info.chain) {
    process.stderr.write(`warning: ${info.path} names wallet ${info.address} on ${originText(info)}; ${here} runs chain ${chain}, where that wallet does not live\n`);
  } else if (info.node && !sameNode(info.node, here)) {
    process.stderr.write(`note: ${info.path} was registered at ${info.node}; using ${here} (chain ${chain})\n`);
  }
}
