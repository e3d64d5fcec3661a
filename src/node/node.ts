// Starts a local node: store, chain, HTTP(S) server; and stops it cleanly.

import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ValidationError } from '../errors.js';
import { Chain, type ChainOptions } from './ledger/chain.js';
import type { NodeConfig } from './config/config.js';
import type { HttpTimeouts } from './http/guards.js';
import { startServer, type RunningServer } from './http/server.js';
import { isLoopbackListen } from './http/host-policy.js';
import { APP_PREFIX, createStaticHandler, defaultStaticRoots, type StaticRoot } from './http/static.js';
import { createLogger, type Logger } from './base/log.js';
import { createDevRoutes } from './dev/dev-routes.js';
import { DevControl } from './dev/dev-control.js';
import { createDevControlRoutes } from './dev/dev-control-routes.js';
import { JournalStore } from './store/journal-store.js';
import { verifierBackend } from './ledger/native-verifier.js';
import { ensurePortFree, listenError } from './http/port-check.js';
import { createRoutes } from './api/routes.js';
import { attachWsHub } from './api/ws-hub.js';
import { MemoryStore, type Store } from './store/store.js';
import { loadTls, type TlsMaterial } from './http/tls.js';
import { checkStore, storeDamaged } from './ledger/chain-check.js';
import { dataDirError } from './store/data-dir-error.js';
import { TpkitError } from '../errors.js';

export interface NodeOptions extends ChainOptions {
  /** Replaces the store the config names (tests pass a shared MemoryStore to simulate restarts). */
  store?: Store;
  /** HTTP time limits (tests shorten them); defaults DEFAULT_HTTP_TIMEOUTS. */
  httpTimeouts?: Partial<HttpTimeouts>;
}

export interface LocalNode {
  chain: Chain;
  /** Snapshots, rollback, the clock, state setting and faults (the dev API's engine). */
  control: DevControl;
  url: string;
  tls?: TlsMaterial;
  ledgerDir?: string;
  close(): Promise<void>;
}

/**
 * Beyond loopback anyone on the network can reach the node: the development API (secret keys,
 * free money) goes off unless asked for with --dev-api. Returns the config to run with.
 */
function exposureChecked(config: NodeConfig, logger: Logger): NodeConfig {
  if (config.allowOrigins.includes('*')) logger.warn('--allow-origin *: every web page this machine opens may use this node, its faucet and its development keys');
  if (config.allowHosts.includes('*')) logger.warn('--allow-host *: the node answers any Host name, so a web page can reach it by DNS rebinding');
  if (isLoopbackListen(config.host)) return config;
  if (config.devApi && !config.devApiBeyondLoopback) {
    logger.warn(`listening on ${config.host}, beyond this machine: the development API (/api/dev: faucet, mining, secret keys) is off; --dev-api turns it on`);
    return { ...config, devApi: false };
  }
  logger.warn(`listening on ${config.host}, beyond this machine: anyone who reaches the port can use the node${config.devApi ? ', its faucet and its development keys (--dev-api)' : ''}`);
  return config;
}

/** The folder --static names, checked before anything starts. */
function staticRoots(config: NodeConfig): StaticRoot[] {
  if (config.staticDir === undefined) return defaultStaticRoots();
  let folder = false;
  try {
    folder = statSync(config.staticDir).isDirectory();
  } catch {
    // not there: said below
  }
  if (!folder) throw new ValidationError('CONFIG_INVALID', `--static: no such folder: ${resolve(config.staticDir)}`, { field: 'staticDir' });
  return [{ prefix: APP_PREFIX, dir: resolve(config.staticDir) }, ...defaultStaticRoots()];
}

function storeUnusable(cause: unknown): TpkitError {
  return new TpkitError('DATA_DIR_UNUSABLE', 'Cannot use the store given to startNode', { details: (cause as Error)?.message ?? String(cause), cause });
}

export async function startNode(config: NodeConfig, options: NodeOptions = {}): Promise<LocalNode> {
  const logger: Logger = options.logger ?? createLogger(config.logLevel);
  config = exposureChecked(config, logger);
  if (config.mineOnDemand && !config.devApi && !isLoopbackListen(config.host)) {
    // Beyond loopback the development API went off above, and with it the only way to a block.
    throw new ValidationError('CONFIG_INVALID', `--mine-on-demand: no block could ever be made, since blocks come only from POST /api/dev/mine and the development API is off on ${config.host}`, {
      field: 'mineOnDemand',
      details: 'add --dev-api to keep it on beyond this machine, or let the node make blocks itself (--block-time MS or --instant)',
    });
  }
  const roots = staticRoots(config);
  let tls: TlsMaterial | undefined;
  try {
    tls = loadTls(config);
  } catch (cause) {
    // The development certificate is written in the data dir: its failures are the dir's.
    if (cause instanceof TpkitError) throw cause;
    throw dataDirError(join(config.dataDir, 'tls'), cause);
  }
  const ledgerDir = config.memory ? undefined : join(config.dataDir, 'ledger');
  await ensurePortFree(config.host, config.port);
  // The LevelDB module (and its native binding) is loaded only for a node that keeps a data dir.
  const base: Store = options.store ?? (ledgerDir ? await (await import('./store/store-level.js')).LevelStore.open(ledgerDir) : new MemoryStore());
  let chain: Chain;
  let store: JournalStore | undefined;
  try {
    if (ledgerDir !== undefined || options.store) {
      // The whole chain is checked before anything is served or written.
      const check = await checkStore(base);
      const kept = base.keptFiles;
      if (check.problems.length > 0) throw storeDamaged(ledgerDir ?? 'the store', kept ? [...check.problems, `the files as they were before this start are kept in ${kept}`] : check.problems);
      base.discardKeptFiles?.();
      if (check.head) logger.info(`checked the chain: ${check.blocks} blocks and ${check.txs} transactions in ${Math.round(check.ms)} ms`);
    }
    store = await JournalStore.open(base);
    chain = await Chain.open(config, store, { ...options, logger, storeName: ledgerDir });
  } catch (err) {
    await base.close().catch(() => undefined);
    if (err instanceof TpkitError) throw err;
    // A read or write the store itself refused: named as the store's, never a bare error.
    throw options.store ? storeUnusable(err) : dataDirError(ledgerDir ?? config.dataDir, err);
  }
  const control = new DevControl(chain, store);
  let server: RunningServer;
  const address = { url: '' };
  const access = { allowHosts: config.allowHosts, allowOrigins: config.allowOrigins };
  try {
    server = await startServer(
      {
        routes: [...createDevRoutes(chain, control), ...createDevControlRoutes(control), ...createRoutes(chain, address, logger)],
        maxRequestBytes: config.limits.maxRequestBytes,
        stallTimeoutMs: config.limits.stallTimeoutMs,
        tls,
        logger,
        staticFiles: createStaticHandler(roots, { stallTimeoutMs: config.limits.stallTimeoutMs, dotfiles: config.staticDotfiles, refused: [resolve(config.dataDir)], logger }),
        timeouts: options.httpTimeouts,
        intercept: (req, next, reply) => control.faults.intercept(req, next, reply),
        access,
      },
      config.host,
      config.port,
    );
  } catch (err) {
    await chain.close();
    throw listenError(config.host, config.port, err);
  }
  address.url = server.url;
  const { limits } = config;
  const hub = attachWsHub(server.server, chain, logger, {
    access,
    limits: { connections: limits.wsConnections, connectionsPerAddress: limits.wsConnectionsPerAddress, bufferedBytes: limits.wsBufferedBytes },
  });
  if (verifierBackend() !== 'libsecp256k1') {
    logger.warn('signatures are verified with @noble/curves: secp256k1 (libsecp256k1) is not installed; npm install secp256k1 makes verification about 20 times faster');
  }
  let closing: Promise<void> | undefined;
  return {
    chain,
    control,
    url: server.url,
    tls,
    ledgerDir,
    close: () =>
      (closing ??= (async () => {
        hub.close();
        control.close();
        const served = server.close();
        // A view or block transaction may never end by itself: stopped now, so its request
        // is answered (NODE_SHUTTING_DOWN) and the server can finish closing.
        await chain.stopEvm();
        await served;
        await chain.close();
      })()),
  };
}
