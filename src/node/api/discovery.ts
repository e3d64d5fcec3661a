// Node discovery as the reference answers it: `chain_nodes` maps each node's name to the URLs
// it serves the API on (`ip` and `host` lists, with scheme and port). A single local node
// lists itself, so a wallet that asks where a chain's nodes are is sent back here.

import type { JsonValue } from '../base/json.js';

/** Where this node is reachable; filled in once the server listens. */
export interface NodeAddress {
  url: string;
}

export function chainNodes(nodeName: string, address: NodeAddress, requestHost: string | undefined): { [key: string]: JsonValue } {
  const listening = address.url;
  const scheme = listening.startsWith('https:') ? 'https' : 'http';
  // The name the client reached us by (e.g. localhost:43280) is also a way in.
  const byHost = requestHost ? `${scheme}://${requestHost}` : listening;
  return { [nodeName]: { host: [byHost], ip: [listening] } };
}
