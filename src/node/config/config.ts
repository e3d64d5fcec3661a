// Node configuration: defaults, then a JSON config file, then command-line flags, each later
// source overriding the earlier. Every value is checked here, once, with a message that names
// the flag or config key; what each setting is, its bounds and its default, is settings.ts's.

import { readFileSync } from 'node:fs';
import { closest } from '../../closest-name.js';
import { ValidationError } from '../../errors.js';
import type { LogLevel } from '../base/log.js';
import { allowHostEntry } from '../http/host-policy.js';
import { allowOriginEntry } from '../http/origin-policy.js';
import { amount, configValue, currency, integer, invalid, logLevel, setAt, text, type FeeRateConfig, type GenesisWalletConfig } from './config-values.js';
import { COMMAND_FLAGS, defaultWords, nestedKeys, SETTINGS, settingByKey, topLevelKeys, type Setting } from './settings.js';

export { DEFAULT_HTTP_PORT, DEFAULT_HTTPS_PORT, DEFAULT_WS_LIMITS, defaultVerifyThreads } from './settings.js';

export type { FeeRateConfig, GenesisWalletConfig } from './config-values.js';

export interface NodeLimits {
  /** Largest HTTP request body accepted, in bytes. */
  maxRequestBytes: number;
  /** Largest decoded transaction container, in bytes. */
  maxTxBytes: number;
  maxSignatures: number;
  /** Pending transactions held before POST /api/tx/new answers 503. */
  maxPending: number;
  /** Bytes of pending transaction containers held before POST /api/tx/new answers 503. */
  maxPendingBytes: number;
  /** Pending transactions of one sending wallet held before its next gets 503. */
  maxPendingPerSender: number;
  maxBlockTxs: number;
  /**
   * Bytes of transaction containers one block may hold: what bounds the largest answer the
   * node ever builds (GET /api/block, the live stream's block message).
   */
  maxBlockBytes: number;
  /** Gas one contract view may use at most (a larger request is lowered to it). */
  viewGasCap: number;
  /** Milliseconds one contract view may run before it is stopped. */
  viewTimeoutMs: number;
  /** Contract views waiting beyond the running one before more are refused. */
  viewQueue: number;
  /** Gas of one block's contract transactions together, and of one alone at most. */
  blockGasLimit: number;
  /** Contract storage slots kept in memory; the rest are read from the store when asked for. */
  slotCacheEntries: number;
  /** Milliseconds one contract transaction of a block may run before it fails. */
  blockTxTimeoutMs: number;
  /** Milliseconds a reader may take nothing of a streamed answer before its connection is closed. */
  stallTimeoutMs: number;
  /** Live-stream connections in all, and from one remote address. */
  wsConnections: number;
  wsConnectionsPerAddress: number;
  /** Unsent bytes a live-stream connection may hold before it is closed as too slow. */
  wsBufferedBytes: number;
  /** Ethereum transactions of one account, and of all, waiting behind a nonce gap. */
  maxQueuedPerSender: number;
  maxQueued: number;
  /** eth_getLogs: events one query returns, blocks it spans. */
  maxLogResults: number;
  maxLogBlockRange: number;
}

export interface NodeConfig {
  host: string;
  port: number;
  dataDir: string;
  memory: boolean;
  chain: number;
  nodeName: string;
  difficulty: number;
  /** Milliseconds between blocks while transactions wait (unless instant or mineOnDemand). */
  blockTime: number;
  instant: boolean;
  /** Blocks only when asked for (POST /api/dev/mine or the faucet), never on a timer. */
  mineOnDemand: boolean;
  /** The development endpoints under /api/dev (faucet, mine, accounts). */
  devApi: boolean;
  /** Keep the development endpoints on when the node listens beyond loopback (--dev-api). */
  devApiBeyondLoopback: boolean;
  /** Host names answered beyond localhost, *.localhost and IP literals (--allow-host). */
  allowHosts: string[];
  /** Origins granted CORS beyond this machine's pages (--allow-origin; '*' for any). */
  allowOrigins: string[];
  /** A folder served under /app/ on the node's origin (--static), or none. */
  staticDir: string | undefined;
  /** Serve dotfiles (.env, .git/...) from the static folder too (--static-dotfiles); the data dir never. */
  staticDotfiles: boolean;
  allocGroup: number;
  /** Wallet number the allocation block starts after; the first registration gets last + 1. */
  allocLast: number | undefined;
  fees: Record<string, FeeRateConfig>;
  feeAddress: string | undefined;
  accounts: number;
  /** Starting balance of each development account. */
  balance: Record<string, bigint>;
  wallets: GenesisWalletConfig[];
  tls: { cert?: string; key?: string; selfSigned: boolean };
  logLevel: LogLevel;
  /** Worker threads that check signatures; 0 checks them on the main thread. */
  verifyThreads: number;
  limits: NodeLimits;
  /** Least gas price of an Ethereum transaction, SK units per gas. */
  minGasPrice: number;
}

/** Settings as a config file or startNode's `config` gives them: any subset, limits and tls too. */
export type NodeConfigInput = Omit<Partial<NodeConfig>, 'limits' | 'tls'> & { limits?: Partial<NodeLimits>; tls?: Partial<NodeConfig['tls']> };

/** The defaults, from the settings table. */
export function defaultConfig(): NodeConfig {
  const config: Record<string, unknown> = { limits: {}, tls: {} };
  for (const setting of SETTINGS) {
    // allocBlock only spells other settings; an unset nested key (tls.cert) stays absent.
    if (setting.type === 'alloc-block' || (setting.default === undefined && setting.key.includes('.'))) continue;
    const value = typeof setting.default === 'function' ? (setting.default as () => unknown)() : structuredClone(setting.default);
    setAt(config, setting.key, value);
  }
  return config as unknown as NodeConfig;
}

/** A key that is no setting: refused with the valid keys and the closest one. */
function unknownKey(field: string, key: string, known: readonly string[], what: string): ValidationError {
  const guess = closest(key, known);
  return new ValidationError('CONFIG_INVALID', `${field}: unknown ${what}${guess ? `: did you mean ${guess}?` : ''}`, {
    field,
    details: `valid keys: ${known.join(', ')}`,
  });
}

/**
 * Applies a config object (a parsed `--config` file, or startNode's `config`) over `config`:
 * keys as in the settings table (nested `limits` and `tls` objects), amounts as numbers,
 * bigints or decimal strings. `source` names where it came from in messages.
 */
export function applyConfigObject(config: NodeConfig, raw: unknown, source: string): NodeConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(source, 'expected a JSON object');
  const obj = raw as Record<string, unknown>;
  const top = topLevelKeys();
  for (const key of Object.keys(obj)) if (!top.includes(key)) throw unknownKey(`${source}: ${key}`, key, top, 'config key');
  const out: NodeConfig = { ...config, limits: { ...config.limits }, tls: { ...config.tls } };
  const target = out as unknown as Record<string, unknown>;
  const at = (key: string) => `${source}: ${key}`;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === undefined) continue;
    const nested = nestedKeys(key);
    if (nested.length > 0) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(at(key), `expected an object of ${nested.join(', ')}`);
      for (const [sub, v] of Object.entries(value)) {
        if (!nested.includes(sub)) throw unknownKey(at(`${key}.${sub}`), sub, nested, `${key} key`);
        if (v !== undefined) setAt(target, `${key}.${sub}`, configValue(settingByKey(`${key}.${sub}`)!, at(`${key}.${sub}`), v));
      }
    } else if (key === 'allocBlock') {
      const ab = value as Record<string, unknown>;
      if (typeof ab !== 'object' || ab === null) throw invalid(at('allocBlock'), 'expected {group, block, last}');
      if (ab.group !== undefined) out.allocGroup = configValue(settingByKey('allocGroup')!, at('allocBlock.group'), ab.group) as number;
      if (ab.last !== undefined) out.allocLast = configValue(settingByKey('allocLast')!, at('allocBlock.last'), ab.last) as number;
      if (ab.block !== undefined) out.chain = configValue(settingByKey('chain')!, at('allocBlock.block'), ab.block) as number;
    } else {
      target[key] = configValue(settingByKey(key)!, at(key), value);
    }
  }
  return out;
}

/** A flag's value as every command's --help writes it: an upper-case word (FILE, N). */
const placeholder = (value: string) => value.toUpperCase();

export interface FlagSpec {
  flag: string;
  value?: string;
  help: string;
}

function flagHelp(s: Setting): string {
  // A setting with no default (a TLS file) is off until given: no "(default ...)" to show.
  return s.value === undefined || (s.default === undefined && s.defaultText === undefined) ? s.help : `${s.help} (default ${defaultWords(s)})`;
}

/** Every flag `tpkit node` takes, from the settings table; `--help` prints this list. */
export const NODE_FLAGS: FlagSpec[] = [
  COMMAND_FLAGS.config,
  ...SETTINGS.filter((s) => s.flag !== undefined).map((s) => ({ flag: s.flag!, ...(s.value ? { value: s.value } : {}), help: flagHelp(s) })),
  COMMAND_FLAGS.reset,
  COMMAND_FLAGS.check,
  COMMAND_FLAGS.export,
  COMMAND_FLAGS.repair,
  COMMAND_FLAGS.for,
  COMMAND_FLAGS.help,
];

/** Settings that only shape the genesis block: on an existing chain they change nothing. */
export const GENESIS_ONLY = SETTINGS.filter((s) => s.genesisOnly && s.flag !== undefined).map((s) => s.flag!);

export interface ParsedNodeArgs {
  help: boolean;
  config: NodeConfig;
  /** Start from a fresh genesis, deleting the chain in the data dir. */
  reset: boolean;
  /** Genesis-only flags (or config keys) that were given, to warn about on an existing chain. */
  genesisFlags: string[];
  /** Whether the port was chosen by the user (a TLS node otherwise moves to the HTTPS default). */
  portGiven: boolean;
  /** --check: check the store and exit; with `export`, write the intact blocks there. */
  check?: { export?: string };
  /** --repair: rebuild a damaged store from its intact blocks and exit. */
  repair?: true;
}

/** Parses `tpkit node` flags over defaults and an optional --config file. */
export function parseNodeArgs(argv: readonly string[], readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): ParsedNodeArgs {
  const flags = new Map(NODE_FLAGS.map((f) => [f.flag, f]));
  const values: [string, string | true][] = [];
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let inline: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      inline = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === '-h') arg = '--help';
    const spec = flags.get(arg);
    if (!spec) {
      const guess = arg.startsWith('--') ? closest(arg, [...flags.keys()]) : undefined;
      throw invalid(arg, `unknown flag${guess ? `: did you mean ${guess}?` : ''} (tpkit node --help lists them)`);
    }
    if (spec.value === undefined) {
      if (inline !== undefined) throw invalid(arg, 'takes no value');
      values.push([arg, true]);
    } else {
      const v = inline ?? argv[++i];
      if (v === undefined) throw invalid(arg, `expects a value (${placeholder(spec.value)})`);
      values.push([arg, v]);
    }
  }
  if (values.some(([f]) => f === '--help')) return { help: true, config: defaultConfig(), portGiven: false, reset: false, genesisFlags: [] };
  if (values.some(([f]) => f === '--dev-api') && values.some(([f]) => f === '--no-dev-api')) throw invalid('--dev-api', 'cannot be combined with --no-dev-api');
  const genesisFlags = values.map(([f]) => f).filter((f, i, all) => GENESIS_ONLY.includes(f) && all.indexOf(f) === i);

  let config = defaultConfig();
  const file = values.find(([f]) => f === COMMAND_FLAGS.config.flag)?.[1];
  let portGiven = false;
  if (typeof file === 'string') {
    let raw: unknown;
    try {
      raw = JSON.parse(readFile(file));
    } catch (cause) {
      throw new ValidationError('CONFIG_INVALID', `--config ${file}: cannot read JSON`, { details: (cause as Error).message, field: '--config', cause });
    }
    config = applyConfigObject(config, raw, file);
    portGiven = (raw as Record<string, unknown>).port !== undefined;
    for (const setting of SETTINGS) {
      if (setting.genesisOnly && (raw as Record<string, unknown>)[setting.key] !== undefined) genesisFlags.push(`${file}: ${setting.key}`);
    }
  }

  // Repeatable flags replace what the config file gives (fees, balances) or add to it (hosts, origins).
  const repeated = new Map<string, unknown>();
  const target = config as unknown as Record<string, unknown>;
  for (const [flag, v] of values) {
    const setting = SETTINGS.find((s) => s.flag === flag);
    if (!setting) continue; // --config, --reset
    const s = v === true ? '' : v;
    if (flag === '--port') portGiven = true;
    if (flag === '--dev-api') config.devApi = true;
    switch (setting.type) {
      case 'boolean':
        setAt(target, setting.key, setting.switchSets ?? true);
        break;
      case 'integer':
        setAt(target, setting.key, integer(flag, s, setting.min!, setting.max!));
        break;
      case 'text':
        setAt(target, setting.key, text(flag, s));
        break;
      case 'log-level':
        setAt(target, setting.key, logLevel(flag, s));
        break;
      case 'hosts':
        target[setting.key] = [...(target[setting.key] as string[]), allowHostEntry(s, flag)];
        break;
      case 'origins':
        target[setting.key] = [...(target[setting.key] as string[]), allowOriginEntry(s, flag)];
        break;
      case 'fees': {
        const fees = (repeated.get(setting.key) ?? {}) as Record<string, FeeRateConfig>;
        repeated.set(setting.key, fees);
        if (s === 'none') break;
        const parts = s.split(':');
        if (parts.length !== 4) throw invalid(flag, `expected CUR:base:baseextra:kb, got ${JSON.stringify(s)}`);
        fees[currency(flag, parts[0])] = { base: amount(flag, parts[1]), baseextra: amount(flag, parts[2]), kb: amount(flag, parts[3]) };
        break;
      }
      case 'balances': {
        const amounts = (repeated.get(setting.key) ?? {}) as Record<string, bigint>;
        repeated.set(setting.key, amounts);
        const [cur, value, ...rest] = s.split(':');
        if (value === undefined || rest.length) throw invalid(flag, `expected CUR:amount, got ${JSON.stringify(s)}`);
        amounts[currency(flag, cur)] = amount(flag, value);
        break;
      }
      case 'wallets':
      case 'alloc-block':
        break; // config file only
    }
  }
  for (const [key, value] of repeated) target[key] = value;
  checkConfig(config);
  const reset = values.some(([f]) => f === COMMAND_FLAGS.reset.flag);
  if (reset && config.memory) throw invalid('--reset', 'a --memory node starts fresh anyway; give one of them');
  const exportTo = values.find(([f]) => f === COMMAND_FLAGS.export.flag)?.[1];
  const checking = values.some(([f]) => f === COMMAND_FLAGS.check.flag);
  if (exportTo !== undefined && !checking) throw invalid('--export', 'is a part of --check: give --check --export FILE');
  if (checking && (config.memory || reset)) throw invalid('--check', `checks the data dir; ${config.memory ? '--memory has none' : '--reset would delete it'}`);
  const repairing = values.some(([f]) => f === COMMAND_FLAGS.repair.flag);
  if (repairing && (checking || config.memory || reset)) {
    throw invalid('--repair', `rebuilds the chain in the data dir; ${checking ? '--check only reads it: give one of them' : config.memory ? '--memory has none' : '--reset would delete it'}`);
  }
  const parsed: ParsedNodeArgs = { help: false, config, portGiven, reset, genesisFlags };
  if (checking) parsed.check = typeof exportTo === 'string' ? { export: exportTo } : {};
  if (repairing) parsed.repair = true;
  return parsed;
}

/** Checks that hold across fields. */
export function checkConfig(config: NodeConfig): void {
  if ((config.tls.cert === undefined) !== (config.tls.key === undefined)) {
    throw invalid('--tls-cert/--tls-key', 'give both the certificate and its key');
  }
  if (config.tls.cert !== undefined && config.tls.selfSigned) {
    throw invalid('--tls-self-signed', 'cannot be combined with --tls-cert');
  }
  if (config.instant && config.mineOnDemand) throw invalid('--mine-on-demand', 'cannot be combined with --instant');
  if (config.mineOnDemand && !config.devApi) {
    throw new ValidationError('CONFIG_INVALID', '--mine-on-demand: no block could ever be made, since blocks come only from POST /api/dev/mine and --no-dev-api switches that off', {
      field: 'mineOnDemand',
      details: 'drop --no-dev-api, or let the node make blocks itself (--block-time MS or --instant)',
    });
  }
}

export function nodeHelp(): string {
  const usage = (f: FlagSpec) => f.flag + (f.value ? ` ${placeholder(f.value)}` : '');
  const width = Math.max(...NODE_FLAGS.map((f) => usage(f).length));
  const lines = NODE_FLAGS.map((f) => `  ${usage(f).padEnd(width)}  ${f.help}`);
  return `Usage: tpkit node [options]\n\nRuns a local ThePower node: the full HTTP API on a persistent ledger that makes blocks.\n\nOptions:\n${lines.join('\n')}`;
}
