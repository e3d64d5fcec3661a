// `tpkit/node`: a local node inside a test run, as Anvil is started from a test suite. One
// call gives a running node on a free port, its URL and the development accounts, with the
// faucet and block mining at hand.

import { addressToHex, addressToText, parseAddress } from '../codec/address.js';
import { bytesToHex } from '../bytes.js';
import { applyConfigObject, checkConfig, defaultConfig, type NodeConfig, type NodeConfigInput } from './config/config.js';
import { ValidationError } from '../errors.js';
import type { LogLevel } from './base/log.js';
import { startNode as startLocalNode } from './node.js';
import { parseFaultRule, type FaultRule, type InstalledFault } from './dev/faults.js';

export type { FaultRule, InstalledFault } from './dev/faults.js';

export interface SnapshotSummary {
  id: string;
  name?: string;
  height: number;
}

export interface ChainHead {
  height: number;
  /** Head block hash, uppercase hex. */
  hash: string;
}

export interface StartNodeOptions {
  /** Register proof of work in bits (default 16, as `tpkit node`); 0 turns it off. */
  difficulty?: number;
  /** Milliseconds between blocks, 'instant' (a block as transactions arrive) or 'on-demand' (only mine()/faucet()). Default 'instant'. */
  blockTime?: number | 'instant' | 'on-demand';
  /** Keep nothing on disk (default true); false stores the chain in `dataDir`. */
  memory?: boolean;
  dataDir?: string;
  /** Default 0: any free port. */
  port?: number;
  host?: string;
  chain?: number;
  /** Prefunded development accounts (default 3). */
  accounts?: number;
  /** Starting balance of each development account (default 10^15 SK). */
  balance?: Record<string, bigint>;
  /** Default 'silent'. */
  logLevel?: LogLevel;
  /** Host names answered beyond localhost, *.localhost and IP addresses (as --allow-host). */
  allowHosts?: string[];
  /** Origins whose pages may use the node beyond this machine's (as --allow-origin; '*' for any). */
  allowOrigins?: string[];
  /** Any other node setting, as the keys of a `tpkit node --config` file (checked the same way). */
  config?: NodeConfigInput;
}

export interface DevAccount {
  index: number;
  /** Text address, e.g. AA100000001677721780. */
  address: string;
  hex: string;
  /** Public knowledge: never use it on a real chain. */
  secretKey: Uint8Array;
  secretKeyHex: string;
  publicKey: Uint8Array;
}

export interface RunningNode {
  /** Base URL of the API, e.g. http://127.0.0.1:40123 (endpoints under /api). */
  url: string;
  /** The live update stream, ws://…/api/ws. */
  wsUrl: string;
  accounts: DevAccount[];
  /** Current height. */
  height(): number;
  /** Credits development money in a block made now; resolves with the block's hash and height. */
  faucet(address: string, amount: bigint | number, currency?: string): Promise<{ hash: string; height: number }>;
  /** Makes `blocks` blocks now (default 1) with whatever is pending; `intervalMs` moves the clock before each. */
  mine(blocks?: number, options?: { intervalMs?: number }): Promise<{ hash: string; height: number; time: number }[]>;
  /** Records the whole state (ledger, blocks, statuses, pending, clock); a name given again moves. */
  snapshot(name?: string): Promise<SnapshotSummary>;
  /** Back to a snapshot by id or name; it stays valid, the ones taken after it are dropped. */
  revert(idOrName: string): Promise<ChainHead>;
  snapshots(): SnapshotSummary[];
  deleteSnapshot(idOrName: string): Promise<void>;
  /** Drops the blocks above `height`; their transactions become unknown. */
  rollback(height: number): Promise<ChainHead>;
  /** Moves the node clock by an offset from the system clock, or to a time (ms since the epoch). */
  setTime(to: { offsetMs: number } | { setMs: number }): Promise<{ now: number; offsetMs: number }>;
  /** The node's clock, ms since the epoch. */
  now(): number;
  /** Sets a balance to exactly `amount` (not a credit), no block needed. */
  setBalance(address: string, amount: bigint | number, currency?: string): Promise<void>;
  setSeq(address: string, seq: bigint | number): Promise<void>;
  /** A wallet without mining: for a key at the next free number (or at `address`), or keyless at `address`. */
  createWallet(spec: { publicKey: Uint8Array | string; address?: string } | { address: string }): Promise<string>;
  /** Injected faults on API requests (see FaultRule). */
  faults: {
    add(rule: FaultRule): InstalledFault;
    list(): InstalledFault[];
    /** Removes the rules with these ids, or all; returns how many went. */
    clear(ids?: number[]): number;
  };
  close(): Promise<void>;
}

/** A whole number given as bigint, a safe integer or decimal text; anything else is a typed error. */
function whole(value: bigint | number | string, field: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, { field, details: `expected a whole number (bigint above 2^53), got ${String(value)}` });
}

function checkOption(name: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined || (Number.isSafeInteger(value) && value >= min && value <= max)) return;
  throw new ValidationError('CONFIG_INVALID', `${name}: expected an integer from ${min} to ${max}, got ${String(value)}`, { field: name });
}

/**
 * The node config startNode runs with: its options and `config` checked against the settings
 * table exactly as a `tpkit node --config` file is, so a value the CLI refuses (a difficulty
 * of 65, an unknown key) is refused here too.
 */
function configFromOptions(options: StartNodeOptions): NodeConfig {
  const blockTime = options.blockTime ?? 'instant';
  if (typeof blockTime !== 'number' && blockTime !== 'instant' && blockTime !== 'on-demand') {
    throw new ValidationError('CONFIG_INVALID', `startNode: blockTime: expected milliseconds, 'instant' or 'on-demand', got ${JSON.stringify(blockTime)}`, { field: 'blockTime' });
  }
  const { config: extra, blockTime: _mode, ...named } = options;
  const base: NodeConfig = { ...defaultConfig(), port: 0, memory: true, logLevel: 'silent' };
  let config = applyConfigObject(base, extra ?? {}, 'startNode: config');
  const given = Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
  if (typeof blockTime === 'number') given.blockTime = blockTime;
  config = applyConfigObject(config, given, 'startNode');
  config.instant = blockTime === 'instant';
  config.mineOnDemand = blockTime === 'on-demand';
  checkConfig(config);
  return config;
}

export async function startNode(options: StartNodeOptions = {}): Promise<RunningNode> {
  const config = configFromOptions(options);
  const node = await startLocalNode(config);
  const { chain, control } = node;
  const head = (): ChainHead => ({ height: chain.height, hash: bytesToHex(chain.hash, true) });
  const summary = (s: { id: string; name?: string; height: number }): SnapshotSummary => ({ id: s.id, ...(s.name ? { name: s.name } : {}), height: s.height });
  return {
    url: node.url,
    wsUrl: node.url.replace(/^http/, 'ws') + '/api/ws',
    accounts: chain.accounts.map((a) => ({
      index: a.index,
      address: addressToText(a.address),
      hex: addressToHex(a.address),
      secretKey: a.secretKey,
      secretKeyHex: bytesToHex(a.secretKey),
      publicKey: a.publicKey,
    })),
    height: () => chain.height,
    async faucet(address, amount, currency = 'SK') {
      const record = await chain.mineBlock([{ address: bytesToHex(parseAddress(address)), currency, amount: BigInt(amount) }]);
      return { hash: record.hash, height: record.header.height };
    },
    async mine(blocks = 1, options = {}) {
      checkOption('intervalMs', options.intervalMs, 0, 86_400_000);
      return (await control.mine(blocks, options.intervalMs)).map((b) => ({ hash: b.hash, height: b.height, time: b.time }));
    },
    snapshot: async (name) => summary(await control.snapshot(name)),
    async revert(idOrName) {
      await control.revert(idOrName);
      return head();
    },
    snapshots: () => control.snapshots().map(summary),
    async deleteSnapshot(idOrName) {
      await control.deleteSnapshot(idOrName);
    },
    async rollback(height) {
      await control.rollback(height);
      return head();
    },
    async setTime(to) {
      const r = await control.setTime(to as { offsetMs?: number; setMs?: number });
      return { now: r.now, offsetMs: r.clockOffsetMs };
    },
    now: () => chain.now(),
    async setBalance(address, amount, currency = 'SK') {
      await control.setBalance(parseAddress(address), currency, whole(amount, 'amount'));
    },
    async setSeq(address, seq) {
      await control.setSeq(parseAddress(address), whole(seq, 'seq'));
    },
    async createWallet(spec) {
      const made = await control.createWallet({
        publicKey: 'publicKey' in spec ? spec.publicKey : undefined,
        address: spec.address === undefined ? undefined : parseAddress(spec.address),
      });
      return addressToText(made.address);
    },
    faults: {
      add: (rule) => control.faults.add(parseFaultRule(rule)),
      list: () => control.faults.list(),
      clear: (ids) => control.faults.clear(ids),
    },
    close: () => node.close(),
  };
}
