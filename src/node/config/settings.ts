// Every setting of the local node, once: its key (the same in a `--config` file and in
// startNode's `config`), its `tpkit node` flag, its type, default, bounds and help. The flag
// parser, the config file reader, startNode, `tpkit node --help` and the generated flag
// reference all read this table. No side effects: importing it only defines data.

import { availableParallelism } from 'node:os';
import { MAX_MINE_DIFFICULTY } from '../../pow/bits.js';
import { LOG_LEVELS } from '../base/log.js';

export type SettingType =
  | 'integer'
  | 'boolean'
  | 'text'
  | 'log-level'
  /** --allow-host entries (repeatable flag; an array of strings in a config file). */
  | 'hosts'
  /** --allow-origin entries. */
  | 'origins'
  /** Fee rates by currency: `--fee CUR:base:baseextra:kb` (repeatable, `none` for no fee), or `{CUR: {base, baseextra, kb}}`. */
  | 'fees'
  /** Amounts by currency: `--balance CUR:amount` (repeatable), or `{CUR: amount}`. */
  | 'balances'
  /** Genesis wallets: `[{address, publicKey?, amount, seq?, t?}]` (config file only). */
  | 'wallets'
  /** The reference node's `{group, block, last}` shape for allocGroup, chain and allocLast (config file only). */
  | 'alloc-block';

export interface Setting {
  /** Path in NodeConfig and key in a config file; `a.b` is key `b` of the object under `a`. */
  key: string;
  /** The `tpkit node` flag; absent for settings only a config file gives. */
  flag?: string;
  /** The flag's value placeholder; absent for a switch (a flag without a value). */
  value?: string;
  type: SettingType;
  /** What a switch flag sets (default true). */
  switchSets?: boolean;
  /** Inclusive bounds of an integer. */
  min?: number;
  max?: number;
  /** The default; a function when it depends on the machine. */
  default: unknown;
  /** The default as --help words it, when the value alone does not say it. */
  defaultText?: string;
  help: string;
  /** Only shapes the genesis block: on an existing chain it changes nothing. */
  genesisOnly?: boolean;
}

/** Flags that are no setting: they steer the command itself. */
export interface CommandFlag {
  flag: string;
  value?: string;
  help: string;
}

export const DEFAULT_HTTP_PORT = 43280; // the reference node's rpcport
export const DEFAULT_HTTPS_PORT = 43380; // and its rpcsport

/** Live-stream bounds: worst case, connections x buffered bytes of unsent data (512 MiB). */
export const DEFAULT_WS_LIMITS = { connections: 128, connectionsPerAddress: 64, bufferedBytes: 4 * 1024 * 1024 };

/**
 * One signature thread per core beyond the first (at most 4): the main thread parses HTTP and
 * makes blocks, the others verify. A single-core machine verifies on the main thread.
 */
export function defaultVerifyThreads(cores = availableParallelism()): number {
  return Math.max(0, Math.min(4, cores - 1));
}

/** The largest chain number: the block field of an address holds 21 bits. */
const MAX_CHAIN = 2 ** 21 - 1;
/** Limits are counts and byte sizes that fit a signed 32-bit integer and more. */
const MAX_LIMIT = 2 ** 31;

const limit = (key: string, def: number, help: string, flag?: string, value = 'n'): Setting => ({
  key: `limits.${key}`,
  ...(flag ? { flag, value } : {}),
  type: 'integer',
  min: 1,
  max: MAX_LIMIT,
  default: def,
  help,
});

export const SETTINGS: readonly Setting[] = [
  { key: 'host', flag: '--host', value: 'addr', type: 'text', default: '127.0.0.1', help: 'interface to listen on' },
  {
    key: 'port',
    flag: '--port',
    value: 'n',
    type: 'integer',
    min: 0,
    max: 65535,
    default: DEFAULT_HTTP_PORT,
    defaultText: `${DEFAULT_HTTP_PORT}, ${DEFAULT_HTTPS_PORT} with TLS`,
    help: 'port to listen on, 0 = any free port',
  },
  { key: 'dataDir', flag: '--data-dir', value: 'dir', type: 'text', default: '.tpkit/node', help: 'where the ledger is stored' },
  { key: 'memory', flag: '--memory', type: 'boolean', default: false, help: 'keep everything in memory; nothing is written to disk' },
  { key: 'chain', flag: '--chain', value: 'n', type: 'integer', min: 0, max: MAX_CHAIN, default: 1, help: 'chain number; also the block field of every address it allocates' },
  { key: 'nodeName', flag: '--node-name', value: 'name', type: 'text', default: 'tpkit', help: 'node name, the suffix of every txid' },
  { key: 'difficulty', flag: '--difficulty', value: 'bits', type: 'integer', min: 0, max: MAX_MINE_DIFFICULTY, default: 16, help: 'registration proof of work in leading zero bits, 0 = off' },
  { key: 'blockTime', flag: '--block-time', value: 'ms', type: 'integer', min: 1, max: 3_600_000, default: 1000, help: 'make a block every MS milliseconds while transactions wait' },
  { key: 'instant', flag: '--instant', type: 'boolean', default: false, help: 'make a block as soon as transactions arrive' },
  { key: 'mineOnDemand', flag: '--mine-on-demand', type: 'boolean', default: false, help: 'make blocks only when asked: POST /api/dev/mine, tpkit faucet' },
  { key: 'devApi', flag: '--no-dev-api', type: 'boolean', switchSets: false, default: true, defaultText: 'on', help: 'switch off the development endpoints /api/dev/* (faucet, mine, accounts)' },
  {
    key: 'devApiBeyondLoopback',
    flag: '--dev-api',
    type: 'boolean',
    default: false,
    defaultText: 'off',
    help: 'keep /api/dev/* on when --host is not a loopback address (anyone who reaches the port can use them)',
  },
  {
    key: 'allowHosts',
    flag: '--allow-host',
    value: 'name',
    type: 'hosts',
    default: [],
    defaultText: 'localhost, *.localhost, IP addresses',
    help: 'also answer requests for this Host name, repeatable; .example allows it and every name under it',
  },
  {
    key: 'allowOrigins',
    flag: '--allow-origin',
    value: 'origin',
    type: 'origins',
    default: [],
    defaultText: "this machine's pages",
    help: 'let web pages of this origin use the node, repeatable; * for any',
  },
  {
    key: 'staticDir',
    flag: '--static',
    value: 'dir',
    type: 'text',
    default: undefined,
    defaultText: 'none',
    help: "serve the files of this folder under /app/ on the node's origin, your own pages beside the playground",
  },
  {
    key: 'staticDotfiles',
    flag: '--static-dotfiles',
    type: 'boolean',
    default: false,
    help: 'also serve files and folders whose names start with a dot (.env, .git) from --static; the data dir is never served',
  },
  { key: 'allocGroup', flag: '--alloc-group', value: 'n', type: 'integer', min: 0, max: 0xffff, default: 10, help: 'address group of registered wallets', genesisOnly: true },
  {
    key: 'allocLast',
    flag: '--alloc-last',
    value: 'n',
    type: 'integer',
    min: 0,
    max: 0xfffffe,
    default: undefined,
    defaultText: 'after the genesis wallets',
    help: 'wallet number the allocation starts after',
    genesisOnly: true,
  },
  { key: 'allocBlock', type: 'alloc-block', default: undefined, help: "allocGroup, chain and allocLast in the reference node's shape {group, block, last}", genesisOnly: true },
  {
    key: 'fees',
    flag: '--fee',
    value: 'CUR:base:baseextra:kb',
    type: 'fees',
    default: { SK: { base: 1n, baseextra: 64n, kb: 1000n } },
    defaultText: 'SK:1:64:1000',
    help: 'fee rate for a currency, repeatable; "--fee none" charges no fee',
  },
  {
    key: 'feeAddress',
    flag: '--fee-address',
    value: 'addr',
    type: 'text',
    default: undefined,
    defaultText: 'a genesis wallet after the dev accounts',
    help: 'wallet that collects fees',
    genesisOnly: true,
  },
  { key: 'accounts', flag: '--accounts', value: 'n', type: 'integer', min: 0, max: 1000, default: 3, help: 'deterministic prefunded development wallets', genesisOnly: true },
  {
    key: 'balance',
    flag: '--balance',
    value: 'CUR:amount',
    type: 'balances',
    default: { SK: 5_000_000_000_000_000_000n },
    defaultText: 'SK:5000000000000000000',
    help: 'starting balance of each development wallet, repeatable (the default is above the 2e18 gas reserve of the official SDK; the three default accounts together fit a uint64)',
    genesisOnly: true,
  },
  { key: 'wallets', type: 'wallets', default: [], help: 'more genesis wallets: [{address, publicKey?, amount: {CUR: amount}, seq?, t?}]', genesisOnly: true },
  { key: 'tls.cert', flag: '--tls-cert', value: 'file', type: 'text', default: undefined, help: 'serve HTTPS with this PEM certificate (needs --tls-key)' },
  { key: 'tls.key', flag: '--tls-key', value: 'file', type: 'text', default: undefined, help: 'PEM private key for --tls-cert' },
  { key: 'tls.selfSigned', flag: '--tls-self-signed', type: 'boolean', default: false, help: 'serve HTTPS with a generated development certificate (kept in the data dir)' },
  {
    key: 'verifyThreads',
    flag: '--verify-threads',
    value: 'n',
    type: 'integer',
    min: 0,
    max: 64,
    default: defaultVerifyThreads,
    defaultText: 'cores - 1, at most 4',
    help: 'worker threads that check signatures, 0 = on the main thread',
  },
  limit('maxRequestBytes', 256 * 1024, 'largest HTTP request body accepted, in bytes'),
  limit('maxTxBytes', 64 * 1024, 'largest decoded transaction container, in bytes'),
  limit('maxSignatures', 16, 'most signatures on one transaction'),
  limit('maxPending', 200_000, 'pending transactions held before new ones get 503', '--max-pending'),
  limit('maxPendingBytes', 256 * 1024 * 1024, 'bytes of pending transactions held before new ones get 503 (256 MiB)', '--max-pending-bytes'),
  limit('maxPendingPerSender', 10_000, 'pending transactions of one wallet before its next gets 503', '--max-pending-per-sender'),
  limit('maxBlockTxs', 20_000, 'most transactions in one block'),
  limit('maxBlockBytes', 4 * 1024 * 1024, 'bytes of transactions one block may hold: bounds the largest answer the node builds (4 MiB)'),
  limit(
    'viewGasCap',
    50_000_000,
    "most gas one contract view may use (eth_call, eth_estimateGas, POST execute/call); a larger request is lowered to it, as geth's --rpc.gascap",
    '--view-gas-cap',
    'gas',
  ),
  limit('viewTimeoutMs', 5_000, "milliseconds one contract view may run before it is stopped with EVM_TIMEOUT, as geth's --rpc.evmtimeout", '--view-timeout', 'ms'),
  limit('viewQueue', 64, 'contract views waiting for the EVM beyond the running one before more get EVM_BUSY (503)'),
  limit(
    'blockGasLimit',
    30_000_000,
    'gas the contract transactions of one block may use together, and the most one may ask for; as in geth, a transaction goes in while the gas it asks for fits what the ones before it left, and the rest wait for the next block (GASLIMIT answers it)',
    '--block-gas-limit',
    'gas',
  ),
  limit('slotCacheEntries', 100_000, 'contract storage slots kept in memory (the least recently used go first); the others stay in the store and are read when a contract or a request asks for them'),
  limit('blockTxTimeoutMs', 10_000, 'milliseconds one contract transaction of a block may run; past it the transaction fails ("timeout") and uses all its gas, and the block goes on'),
  limit('stallTimeoutMs', 30_000, 'milliseconds a reader may take nothing of a streamed answer (a block, its events, a JSON-RPC answer over 1 MiB) before it is disconnected'),
  limit('wsConnections', DEFAULT_WS_LIMITS.connections, 'live-stream connections held in all', '--ws-max-connections'),
  limit('wsConnectionsPerAddress', DEFAULT_WS_LIMITS.connectionsPerAddress, 'live-stream connections from one remote address', '--ws-max-per-address'),
  limit('wsBufferedBytes', DEFAULT_WS_LIMITS.bufferedBytes, 'unsent bytes a live-stream client may hold before it is closed as too slow (4 MiB)', '--ws-max-buffered', 'bytes'),
  { key: 'logLevel', flag: '--log-level', value: 'level', type: 'log-level', default: 'info', help: `one of ${LOG_LEVELS.join(', ')}` },
  {
    key: 'minGasPrice',
    flag: '--min-gas-price',
    value: 'units',
    type: 'integer',
    min: 1,
    max: MAX_LIMIT,
    default: 1,
    help: 'least gas price of an Ethereum transaction, in SK units per gas, and what eth_gasPrice answers: gas is never free',
  },
  limit('maxQueuedPerSender', 64, 'Ethereum transactions of one account waiting for an earlier nonce (a gap) before its next is refused'),
  limit('maxQueued', 1024, 'Ethereum transactions waiting for an earlier nonce, of all accounts'),
  limit('maxLogResults', 10_000, 'events one eth_getLogs query may return before it is refused (-32005)'),
  limit('maxLogBlockRange', 100_000, 'blocks one eth_getLogs query may span'),
];

/** `tpkit node` flags that are not settings, in --help order around the settings. */
export const COMMAND_FLAGS = {
  config: { flag: '--config', value: 'file', help: 'JSON config file (keys as in the settings table: host, port, blockTime, fees, balance, wallets, limits, ...); flags override it' },
  reset: { flag: '--reset', help: 'delete the chain in the data dir and start a fresh one from genesis' },
  check: { flag: '--check', help: 'check the chain in the data dir (every block, link and transaction record), report, and exit: 0 sound, 1 damaged' },
  export: { flag: '--export', value: 'file', help: 'with --check: write every intact block and its transactions to file, one JSON object a line' },
  repair: {
    flag: '--repair',
    help: 'rebuild a damaged chain in the data dir from its blocks that pass the check, the damaged store moved aside (ledger.damaged-TIME, never deleted); report what was kept and lost, and exit',
  },
  for: { flag: '--for', value: 'client', help: 'start the node as an official client needs it and print the lines to paste into it: powerwallet (port 43280, difficulty 0 unless given)' },
  help: { flag: '--help', help: 'print this list' },
} as const satisfies Record<string, CommandFlag>;

/** The setting a config key names (`limits.maxPending` for a nested one), if any. */
export function settingByKey(key: string): Setting | undefined {
  return SETTINGS.find((s) => s.key === key);
}

/** The setting a flag sets, if any. */
export function settingByFlag(flag: string): Setting | undefined {
  return SETTINGS.find((s) => s.flag === flag);
}

/** The keys a config file may hold at its top level (nested objects: `limits`, `tls`). */
export function topLevelKeys(): string[] {
  return [...new Set(SETTINGS.map((s) => s.key.split('.')[0]))];
}

/** The keys a nested config object may hold, e.g. `limits` -> maxPending, ... */
export function nestedKeys(parent: string): string[] {
  return SETTINGS.filter((s) => s.key.startsWith(parent + '.')).map((s) => s.key.slice(parent.length + 1));
}

/** The default as --help and the flag reference word it. */
export function defaultWords(s: Setting): string {
  if (s.defaultText !== undefined) return s.defaultText;
  if (s.type === 'boolean') return s.default ? 'on' : 'off';
  return String(s.default);
}
