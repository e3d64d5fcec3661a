// The shapes the development API puts on the wire, written once for the node that sends them
// (src/node) and the client that reads them (src/client), which do not import each other.

/** The chain went back or its clock moved (dev API): a watcher's view of it is stale. */
export interface ChainReset {
  event: 'revert' | 'rollback' | 'clock';
  height: number;
  /** Head block hash, uppercase hex. */
  hash: string;
  /** The node's clock now, ms since the epoch. */
  now: number;
  clockOffsetMs: number;
  /** For a revert: the snapshot id. */
  snapshot?: string;
}

export type FaultAction = 'error' | 'delay' | 'drop' | 'hold';

/** An injected fault as the node takes it (docs/guide/dev-controls.md, "Fault rules"). */
export interface FaultRule {
  /** e.g. 'tx/new', 'address/*\/seq'; matches that path and the paths below it (after /api). */
  path: string;
  method?: 'GET' | 'POST';
  action: FaultAction;
  /** 'error': HTTP status (default 503) and the error code in the body (default NODE_INTERNAL). */
  status?: number;
  code?: string;
  message?: string;
  /** 'delay': milliseconds before the request is handled. */
  delayMs?: number;
  /** How many requests it fires on; unlimited when absent. */
  count?: number;
  /** Chance of firing on a matching request (default 1). */
  probability?: number;
  /** Seed of the rule's generator (default 1): the same seed fires on the same requests. */
  seed?: number;
}

/** A rule the node holds, with its id and how often it fired. */
export interface InstalledFault extends FaultRule {
  id: number;
  /** Requests it fired on so far. */
  fired: number;
}

/**
 * A development account, one shape wherever it comes from (`client.dev.accounts()`, a
 * `startNode()` node's `accounts`): keys as bytes and as hex. Its key is public knowledge:
 * never for a real chain.
 */
export interface DevAccount {
  index: number;
  /** Text address, e.g. AA100000001677721780. */
  address: string;
  /** 0x-prefixed hex address. */
  hex: string;
  /** Compressed public key, 33 bytes. */
  publicKey: Uint8Array;
  /** The same, uppercase hex. */
  publicKeyHex: string;
  secretKey: Uint8Array;
  /** The same, lowercase hex (as the node banner prints it). */
  secretKeyHex: string;
}
