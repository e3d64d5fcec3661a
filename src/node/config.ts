// Node configuration: defaults, then a JSON config file, then command-line flags, each later
// source overriding the earlier. Every value is checked here, once, with a message that names
// the flag or config key.

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { closest } from '../closest-name.js';
import { ValidationError } from '../errors.js';
import { MAX_MINE_DIFFICULTY } from '../pow/bits.js';
import { allowHostEntry } from './host-policy.js';
import { LOG_LEVELS, type LogLevel } from './log.js';
import { allowOriginEntry } from './origin-policy.js';

export interface FeeRateConfig {
  base: bigint;
  baseextra: bigint;
  kb: bigint;
}

export interface GenesisWalletConfig {
  /** Text (`AA…`) or `0x` hex address. */
  address: string;
  /** Compressed public key, hex; a wallet without one can receive but not send. */
  publicKey?: string;
  amount: Record<string, bigint>;
  seq?: bigint;
  t?: number;
}

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
  /** Live-stream connections in all, and from one remote address. */
  wsConnections: number;
  wsConnectionsPerAddress: number;
  /** Unsent bytes a live-stream connection may hold before it is closed as too slow. */
  wsBufferedBytes: number;
}

export interface NodeConfig {
  host: string;
  port: number;
  dataDir: string;
  memory: boolean;
  chain: number;
  nodeName: string;
  difficulty: number;
  blockTimeMs: number;
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
  allocGroup: number;
  /** Wallet number the allocation block starts after; the first registration gets last + 1. */
  allocLast: number | undefined;
  fees: Record<string, FeeRateConfig>;
  feeAddress: string | undefined;
  accounts: number;
  faucet: Record<string, bigint>;
  wallets: GenesisWalletConfig[];
  tls: { cert?: string; key?: string; selfSigned: boolean };
  logLevel: LogLevel;
  /** Worker threads that check signatures; 0 checks them on the main thread. */
  verifyThreads: number;
  limits: NodeLimits;
}

/** Live-stream bounds: worst case, connections x buffered bytes of unsent data (512 MiB). */
export const DEFAULT_WS_LIMITS = { connections: 128, connectionsPerAddress: 64, bufferedBytes: 4 * 1024 * 1024 };

export const DEFAULT_HTTP_PORT = 43280; // the reference node's rpcport
export const DEFAULT_HTTPS_PORT = 43380; // and its rpcsport

/**
 * One signature thread per core beyond the first (at most 4): the main thread parses HTTP and
 * makes blocks, the others verify. A single-core machine verifies on the main thread.
 */
export function defaultVerifyThreads(): number {
  return Math.max(0, Math.min(4, availableParallelism() - 1));
}

export function defaultConfig(): NodeConfig {
  return {
    host: '127.0.0.1',
    port: DEFAULT_HTTP_PORT,
    dataDir: '.tpkit/node',
    memory: false,
    chain: 1,
    nodeName: 'tpkit',
    difficulty: 16,
    blockTimeMs: 1000,
    instant: false,
    mineOnDemand: false,
    devApi: true,
    devApiBeyondLoopback: false,
    allowHosts: [],
    allowOrigins: [],
    allocGroup: 10,
    allocLast: undefined,
    fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } },
    feeAddress: undefined,
    accounts: 3,
    // 5·10^18 units: more than the 2·10^18 of gas the official SDK reserves on a contract call
    // (TransactionsApi.autoAddGas); the three default accounts' balances together fit a uint64.
    faucet: { SK: 5_000_000_000_000_000_000n },
    wallets: [],
    tls: { selfSigned: false },
    logLevel: 'info',
    verifyThreads: defaultVerifyThreads(),
    limits: {
      maxRequestBytes: 256 * 1024,
      maxTxBytes: 64 * 1024,
      maxSignatures: 16,
      maxPending: 200_000,
      maxPendingBytes: 256 * 1024 * 1024,
      maxPendingPerSender: 10_000,
      maxBlockTxs: 20_000,
      wsConnections: DEFAULT_WS_LIMITS.connections,
      wsConnectionsPerAddress: DEFAULT_WS_LIMITS.connectionsPerAddress,
      wsBufferedBytes: DEFAULT_WS_LIMITS.bufferedBytes,
    },
  };
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError('CONFIG_INVALID', `${field}: ${message}`, { field });
}

function integer(field: string, value: unknown, min: number, max: number): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw invalid(field, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function amount(field: string, value: unknown): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return BigInt(value.trim());
  throw invalid(field, `expected a non-negative integer (a string for values above 2^53), got ${JSON.stringify(value)}`);
}

function text(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(field, `expected a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

const CURRENCY_RE = /^[\x21-\x7e]{1,32}$/;

function currency(field: string, value: string): string {
  if (!CURRENCY_RE.test(value)) throw invalid(field, `expected a currency name of printable ASCII, got ${JSON.stringify(value)}`);
  return value;
}

function feeRate(field: string, value: unknown): FeeRateConfig {
  if (typeof value !== 'object' || value === null) throw invalid(field, 'expected {base, baseextra, kb}');
  const v = value as Record<string, unknown>;
  return { base: amount(`${field}.base`, v.base), baseextra: amount(`${field}.baseextra`, v.baseextra ?? 0), kb: amount(`${field}.kb`, v.kb) };
}

function balances(field: string, value: unknown): Record<string, bigint> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(field, 'expected an object of currency to amount');
  const out: Record<string, bigint> = {};
  for (const [cur, v] of Object.entries(value)) out[currency(`${field}.${cur}`, cur)] = amount(`${field}.${cur}`, v);
  return out;
}

/** Applies a parsed JSON config file (same names as NodeConfig; amounts may be strings). */
export function applyConfigObject(config: NodeConfig, raw: unknown, source: string): NodeConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(source, 'expected a JSON object');
  const known = new Set(Object.keys(defaultConfig()).concat(['allocBlock']));
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!known.has(key)) throw invalid(`${source}: ${key}`, 'unknown config key');
  const out: NodeConfig = { ...config, limits: { ...config.limits }, tls: { ...config.tls } };
  const at = (key: string) => `${source}: ${key}`;
  if (obj.host !== undefined) out.host = text(at('host'), obj.host);
  if (obj.port !== undefined) out.port = integer(at('port'), obj.port, 0, 65535);
  if (obj.dataDir !== undefined) out.dataDir = text(at('dataDir'), obj.dataDir);
  if (obj.memory !== undefined) out.memory = Boolean(obj.memory);
  if (obj.chain !== undefined) out.chain = integer(at('chain'), obj.chain, 0, 2 ** 21 - 1);
  if (obj.nodeName !== undefined) out.nodeName = text(at('nodeName'), obj.nodeName);
  if (obj.difficulty !== undefined) out.difficulty = integer(at('difficulty'), obj.difficulty, 0, MAX_MINE_DIFFICULTY);
  if (obj.blockTimeMs !== undefined) out.blockTimeMs = integer(at('blockTimeMs'), obj.blockTimeMs, 1, 3_600_000);
  if (obj.instant !== undefined) out.instant = Boolean(obj.instant);
  if (obj.mineOnDemand !== undefined) out.mineOnDemand = Boolean(obj.mineOnDemand);
  if (obj.devApi !== undefined) out.devApi = Boolean(obj.devApi);
  if (obj.devApiBeyondLoopback !== undefined) out.devApiBeyondLoopback = Boolean(obj.devApiBeyondLoopback);
  if (obj.allowHosts !== undefined) out.allowHosts = list(at('allowHosts'), obj.allowHosts).map((v, i) => allowHostEntry(v, at(`allowHosts[${i}]`)));
  if (obj.allowOrigins !== undefined) out.allowOrigins = list(at('allowOrigins'), obj.allowOrigins).map((v, i) => allowOriginEntry(v, at(`allowOrigins[${i}]`)));
  if (obj.allocGroup !== undefined) out.allocGroup = integer(at('allocGroup'), obj.allocGroup, 0, 0xffff);
  if (obj.allocLast !== undefined) out.allocLast = integer(at('allocLast'), obj.allocLast, 0, 0xfffffe);
  if (obj.allocBlock !== undefined) {
    const ab = obj.allocBlock as Record<string, unknown>;
    if (typeof ab !== 'object' || ab === null) throw invalid(at('allocBlock'), 'expected {group, block, last}');
    if (ab.group !== undefined) out.allocGroup = integer(at('allocBlock.group'), ab.group, 0, 0xffff);
    if (ab.last !== undefined) out.allocLast = integer(at('allocBlock.last'), ab.last, 0, 0xfffffe);
    if (ab.block !== undefined) out.chain = integer(at('allocBlock.block'), ab.block, 0, 2 ** 21 - 1);
  }
  if (obj.fees !== undefined) {
    if (obj.fees === null) out.fees = {};
    else if (typeof obj.fees !== 'object' || Array.isArray(obj.fees)) throw invalid(at('fees'), 'expected an object of currency to {base, baseextra, kb}');
    else out.fees = Object.fromEntries(Object.entries(obj.fees).map(([cur, v]) => [currency(at(`fees.${cur}`), cur), feeRate(at(`fees.${cur}`), v)]));
  }
  if (obj.feeAddress !== undefined) out.feeAddress = text(at('feeAddress'), obj.feeAddress);
  if (obj.accounts !== undefined) out.accounts = integer(at('accounts'), obj.accounts, 0, 1000);
  if (obj.faucet !== undefined) out.faucet = balances(at('faucet'), obj.faucet);
  if (obj.wallets !== undefined) {
    if (!Array.isArray(obj.wallets)) throw invalid(at('wallets'), 'expected an array');
    out.wallets = obj.wallets.map((w, i) => {
      const f = at(`wallets[${i}]`);
      if (typeof w !== 'object' || w === null) throw invalid(f, 'expected {address, publicKey?, amount}');
      const r = w as Record<string, unknown>;
      return {
        address: text(`${f}.address`, r.address),
        publicKey: r.publicKey === undefined ? undefined : text(`${f}.publicKey`, r.publicKey),
        amount: r.amount === undefined ? {} : balances(`${f}.amount`, r.amount),
        seq: r.seq === undefined ? undefined : amount(`${f}.seq`, r.seq),
        t: r.t === undefined ? undefined : integer(`${f}.t`, r.t, 0, Number.MAX_SAFE_INTEGER),
      };
    });
  }
  if (obj.tls !== undefined) {
    const t = obj.tls as Record<string, unknown>;
    if (typeof t !== 'object' || t === null) throw invalid(at('tls'), 'expected {cert, key} or {selfSigned: true}');
    if (t.cert !== undefined) out.tls.cert = text(at('tls.cert'), t.cert);
    if (t.key !== undefined) out.tls.key = text(at('tls.key'), t.key);
    if (t.selfSigned !== undefined) out.tls.selfSigned = Boolean(t.selfSigned);
  }
  if (obj.logLevel !== undefined) out.logLevel = logLevel(at('logLevel'), obj.logLevel);
  if (obj.verifyThreads !== undefined) out.verifyThreads = integer(at('verifyThreads'), obj.verifyThreads, 0, 64);
  if (obj.limits !== undefined) {
    const l = obj.limits as Record<string, unknown>;
    if (typeof l !== 'object' || l === null) throw invalid(at('limits'), 'expected an object');
    for (const key of Object.keys(l)) {
      if (!(key in out.limits)) throw invalid(at(`limits.${key}`), 'unknown limit');
      out.limits[key as keyof NodeLimits] = integer(at(`limits.${key}`), l[key], 1, 2 ** 31);
    }
  }
  return out;
}

function list(field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid(field, 'expected an array of strings');
  return value as string[];
}

function logLevel(field: string, value: unknown): LogLevel {
  if (!LOG_LEVELS.includes(value as LogLevel)) throw invalid(field, `expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as LogLevel;
}

export interface FlagSpec {
  flag: string;
  value?: string;
  help: string;
}

/** Every flag `tpkit node` takes; `--help` prints this list. */
export const NODE_FLAGS: FlagSpec[] = [
  { flag: '--config', value: 'file', help: 'JSON config file (keys as in NodeConfig: host, port, chain, fees, faucet, wallets, ...); flags override it' },
  { flag: '--host', value: 'addr', help: 'interface to listen on (default 127.0.0.1)' },
  { flag: '--port', value: 'n', help: `port to listen on, 0 = any free port (default ${DEFAULT_HTTP_PORT}, ${DEFAULT_HTTPS_PORT} with TLS)` },
  { flag: '--data-dir', value: 'dir', help: 'where the ledger is stored (default .tpkit/node)' },
  { flag: '--memory', help: 'keep everything in memory; nothing is written to disk' },
  { flag: '--chain', value: 'n', help: 'chain number; also the block field of every address it allocates (default 1)' },
  { flag: '--node-name', value: 'name', help: 'node name, the suffix of every txid (default tpkit)' },
  { flag: '--difficulty', value: 'bits', help: 'registration proof of work in leading zero bits, 0 = off (default 16)' },
  { flag: '--block-time', value: 'ms', help: 'make a block every ms milliseconds while transactions wait (default 1000)' },
  { flag: '--instant', help: 'make a block as soon as transactions arrive' },
  { flag: '--mine-on-demand', help: 'make blocks only when asked: POST /api/dev/mine, tpkit faucet' },
  { flag: '--no-dev-api', help: 'switch off the development endpoints /api/dev/* (faucet, mine, accounts)' },
  { flag: '--dev-api', help: 'keep /api/dev/* on when --host is not a loopback address (anyone who reaches the port can use them)' },
  { flag: '--allow-host', value: 'name', help: 'also answer requests for this Host name, repeatable; .example allows it and every name under it (default: localhost, *.localhost, IP addresses)' },
  { flag: '--allow-origin', value: 'origin', help: "let web pages of this origin use the node, repeatable; * for any (default: this machine's pages)" },
  { flag: '--reset', help: 'delete the chain in the data dir and start a fresh one from genesis' },
  { flag: '--alloc-group', value: 'n', help: 'address group of registered wallets (default 10)' },
  { flag: '--alloc-last', value: 'n', help: 'wallet number the allocation starts after (default: after the genesis wallets)' },
  { flag: '--fee', value: 'CUR:base:baseextra:kb', help: 'fee rate for a currency, repeatable; "--fee none" charges no fee (default SK:1:64:1000)' },
  { flag: '--fee-address', value: 'addr', help: 'wallet that collects fees (default: a genesis wallet after the dev accounts)' },
  { flag: '--accounts', value: 'n', help: 'deterministic prefunded development wallets (default 3)' },
  { flag: '--balance', value: 'CUR:amount', help: 'starting balance of each development wallet, repeatable (default SK:5000000000000000000, above the 2e18 gas reserve of the official SDK)' },
  { flag: '--tls-cert', value: 'file', help: 'serve HTTPS with this PEM certificate (needs --tls-key)' },
  { flag: '--tls-key', value: 'file', help: 'PEM private key for --tls-cert' },
  { flag: '--tls-self-signed', help: 'serve HTTPS with a generated development certificate (kept in the data dir)' },
  { flag: '--verify-threads', value: 'n', help: 'worker threads that check signatures, 0 = on the main thread (default: cores - 1, at most 4)' },
  { flag: '--max-pending', value: 'n', help: 'pending transactions held before new ones get 503 (default 200000)' },
  { flag: '--max-pending-bytes', value: 'n', help: 'bytes of pending transactions held before new ones get 503 (default 268435456, 256 MiB)' },
  { flag: '--max-pending-per-sender', value: 'n', help: 'pending transactions of one wallet before its next gets 503 (default 10000)' },
  { flag: '--ws-max-connections', value: 'n', help: `live-stream connections held in all (default ${DEFAULT_WS_LIMITS.connections})` },
  { flag: '--ws-max-per-address', value: 'n', help: `live-stream connections from one remote address (default ${DEFAULT_WS_LIMITS.connectionsPerAddress})` },
  { flag: '--ws-max-buffered', value: 'bytes', help: `unsent bytes a live-stream client may hold before it is closed as too slow (default ${DEFAULT_WS_LIMITS.bufferedBytes}, 4 MiB)` },
  { flag: '--log-level', value: 'level', help: `one of ${LOG_LEVELS.join(', ')} (default info)` },
  { flag: '--help', help: 'print this list' },
];

/** Settings that only shape the genesis block: on an existing chain they change nothing. */
export const GENESIS_ONLY = ['--accounts', '--balance', '--alloc-group', '--alloc-last', '--fee-address'];

export interface ParsedNodeArgs {
  help: boolean;
  config: NodeConfig;
  /** Start from a fresh genesis, deleting the chain in the data dir. */
  reset: boolean;
  /** Genesis-only flags (or config keys) that were given, to warn about on an existing chain. */
  genesisFlags: string[];
  /** Whether the port was chosen by the user (a TLS node otherwise moves to the HTTPS default). */
  portGiven: boolean;
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
      if (v === undefined) throw invalid(arg, `expects a value <${spec.value}>`);
      values.push([arg, v]);
    }
  }
  if (values.some(([f]) => f === '--help')) return { help: true, config: defaultConfig(), portGiven: false, reset: false, genesisFlags: [] };
  if (values.some(([f]) => f === '--dev-api') && values.some(([f]) => f === '--no-dev-api')) throw invalid('--dev-api', 'cannot be combined with --no-dev-api');
  const genesisFlags = values.map(([f]) => f).filter((f, i, all) => GENESIS_ONLY.includes(f) && all.indexOf(f) === i);

  let config = defaultConfig();
  const file = values.find(([f]) => f === '--config')?.[1];
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
    for (const key of ['accounts', 'faucet', 'wallets', 'allocGroup', 'allocLast', 'allocBlock', 'feeAddress']) {
      if ((raw as Record<string, unknown>)[key] !== undefined) genesisFlags.push(`${file}: ${key}`);
    }
  }

  let fees: Record<string, FeeRateConfig> | undefined;
  let faucet: Record<string, bigint> | undefined;
  // Flags add to what the config file allows.
  const allowHosts = [...config.allowHosts];
  const allowOrigins = [...config.allowOrigins];
  for (const [flag, v] of values) {
    const s = v === true ? '' : v;
    switch (flag) {
      case '--host': config.host = text(flag, s); break;
      case '--port': config.port = integer(flag, s, 0, 65535); portGiven = true; break;
      case '--data-dir': config.dataDir = text(flag, s); break;
      case '--memory': config.memory = true; break;
      case '--chain': config.chain = integer(flag, s, 0, 2 ** 21 - 1); break;
      case '--node-name': config.nodeName = text(flag, s); break;
      case '--difficulty': config.difficulty = integer(flag, s, 0, MAX_MINE_DIFFICULTY); break;
      case '--block-time': config.blockTimeMs = integer(flag, s, 1, 3_600_000); break;
      case '--instant': config.instant = true; break;
      case '--mine-on-demand': config.mineOnDemand = true; break;
      case '--no-dev-api': config.devApi = false; break;
      case '--dev-api': config.devApi = true; config.devApiBeyondLoopback = true; break;
      case '--allow-host': allowHosts.push(allowHostEntry(s, flag)); break;
      case '--allow-origin': allowOrigins.push(allowOriginEntry(s, flag)); break;
      case '--alloc-group': config.allocGroup = integer(flag, s, 0, 0xffff); break;
      case '--alloc-last': config.allocLast = integer(flag, s, 0, 0xfffffe); break;
      case '--fee': {
        fees ??= {};
        if (s === 'none') break;
        const parts = s.split(':');
        if (parts.length !== 4) throw invalid(flag, `expected CUR:base:baseextra:kb, got ${JSON.stringify(s)}`);
        fees[currency(flag, parts[0])] = { base: amount(flag, parts[1]), baseextra: amount(flag, parts[2]), kb: amount(flag, parts[3]) };
        break;
      }
      case '--fee-address': config.feeAddress = text(flag, s); break;
      case '--accounts': config.accounts = integer(flag, s, 0, 1000); break;
      case '--balance': {
        faucet ??= {};
        const [cur, value, ...rest] = s.split(':');
        if (value === undefined || rest.length) throw invalid(flag, `expected CUR:amount, got ${JSON.stringify(s)}`);
        faucet[currency(flag, cur)] = amount(flag, value);
        break;
      }
      case '--tls-cert': config.tls.cert = text(flag, s); break;
      case '--tls-key': config.tls.key = text(flag, s); break;
      case '--tls-self-signed': config.tls.selfSigned = true; break;
      case '--verify-threads': config.verifyThreads = integer(flag, s, 0, 64); break;
      case '--max-pending': config.limits.maxPending = integer(flag, s, 1, 2 ** 31); break;
      case '--max-pending-bytes': config.limits.maxPendingBytes = integer(flag, s, 1, 2 ** 31); break;
      case '--max-pending-per-sender': config.limits.maxPendingPerSender = integer(flag, s, 1, 2 ** 31); break;
      case '--ws-max-connections': config.limits.wsConnections = integer(flag, s, 1, 2 ** 31); break;
      case '--ws-max-per-address': config.limits.wsConnectionsPerAddress = integer(flag, s, 1, 2 ** 31); break;
      case '--ws-max-buffered': config.limits.wsBufferedBytes = integer(flag, s, 1, 2 ** 31); break;
      case '--log-level': config.logLevel = logLevel(flag, s); break;
    }
  }
  if (fees) config.fees = fees;
  if (faucet) config.faucet = faucet;
  config.allowHosts = allowHosts;
  config.allowOrigins = allowOrigins;
  checkConfig(config);
  const reset = values.some(([f]) => f === '--reset');
  if (reset && config.memory) throw invalid('--reset', 'a --memory node starts fresh anyway; give one of them');
  return { help: false, config, portGiven, reset, genesisFlags };
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
}

export function nodeHelp(): string {
  const width = Math.max(...NODE_FLAGS.map((f) => (f.flag + (f.value ? ` <${f.value}>` : '')).length));
  const lines = NODE_FLAGS.map((f) => `  ${(f.flag + (f.value ? ` <${f.value}>` : '')).padEnd(width)}  ${f.help}`);
  return `Usage: tpkit node [options]\n\nRuns a local ThePower node: the full HTTP API on a persistent ledger that makes blocks.\n\nOptions:\n${lines.join('\n')}`;
}
