// `tpkit/node`: a local node inside a test run, as Anvil is started from a test suite. One
// call gives a running node on a free port, its URL and the development accounts, with the
// faucet and block mining at hand.

import { addressToHex, addressToText, parseAddress } from '../codec/address.js';
import { bytesToHex } from '../bytes.js';
import { defaultConfig, checkConfig, type NodeConfig } from './config.js';
import { ValidationError } from '../errors.js';
import { allowHostEntry } from './host-policy.js';
import { allowOriginEntry } from './origin-policy.js';
import type { LogLevel } from './log.js';
import { startNode as startLocalNode } from './node.js';

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
  /** Any other node setting, as the keys of a `tpkit node --config` file. */
  config?: Partial<NodeConfig>;
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
  /** Makes `blocks` blocks now (default 1) with whatever is pending. */
  mine(blocks?: number): Promise<{ hash: string; height: number }[]>;
  close(): Promise<void>;
}

function checkOption(name: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined || (Number.isSafeInteger(value) && value >= min && value <= max)) return;
  throw new ValidationError('CONFIG_INVALID', `${name}: expected an integer from ${min} to ${max}, got ${String(value)}`, { field: name });
}

export async function startNode(options: StartNodeOptions = {}): Promise<RunningNode> {
  const blockTime = options.blockTime ?? 'instant';
  checkOption('difficulty', options.difficulty, 0, 512);
  checkOption('port', options.port, 0, 65535);
  checkOption('accounts', options.accounts, 0, 1000);
  checkOption('chain', options.chain, 0, 2 ** 21 - 1);
  if (typeof blockTime === 'number') checkOption('blockTime', blockTime, 1, 3_600_000);
  else if (blockTime !== 'instant' && blockTime !== 'on-demand') {
    throw new ValidationError('CONFIG_INVALID', `blockTime: expected milliseconds, 'instant' or 'on-demand', got ${JSON.stringify(blockTime)}`, { field: 'blockTime' });
  }
  const config: NodeConfig = {
    ...defaultConfig(),
    port: options.port ?? 0,
    memory: options.memory ?? true,
    logLevel: options.logLevel ?? 'silent',
    ...options.config,
  };
  if (options.host !== undefined) config.host = options.host;
  if (options.dataDir !== undefined) config.dataDir = options.dataDir;
  if (options.difficulty !== undefined) config.difficulty = options.difficulty;
  if (options.chain !== undefined) config.chain = options.chain;
  if (options.accounts !== undefined) config.accounts = options.accounts;
  if (options.balance !== undefined) config.faucet = options.balance;
  if (options.allowHosts !== undefined) config.allowHosts = options.allowHosts.map((h, i) => allowHostEntry(h, `allowHosts[${i}]`));
  if (options.allowOrigins !== undefined) config.allowOrigins = options.allowOrigins.map((o, i) => allowOriginEntry(o, `allowOrigins[${i}]`));
  config.instant = blockTime === 'instant';
  config.mineOnDemand = blockTime === 'on-demand';
  if (typeof blockTime === 'number') config.blockTimeMs = blockTime;
  checkConfig(config);

  const node = await startLocalNode(config);
  const { chain } = node;
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
    async mine(blocks = 1) {
      const out: { hash: string; height: number }[] = [];
      for (let i = 0; i < blocks; i++) {
        const record = await chain.mineBlock();
        out.push({ hash: record.hash, height: record.header.height });
      }
      return out;
    },
    close: () => node.close(),
  };
}
