// `tpkit node`: a local ThePower node for wallet development, as `anvil` is for Ethereum.

import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bytesToHex } from '../bytes.js';
import { addressToHex, addressToText } from '../codec/address.js';
import { secretKeyToWif } from '../keys/wif.js';
import { DEFAULT_HTTPS_PORT, nodeHelp, parseNodeArgs, type NodeConfig } from '../node/config/config.js';
import { isLoopbackListen } from '../node/http/host-policy.js';
import { startNode, type LocalNode } from '../node/node.js';
import { checkDataDir, repairDataDir } from './node-store.js';
import { applyClientProfile, powerWalletLines } from './node-profile.js';

function banner(node: LocalNode, config: NodeConfig, profileLines?: string): string {
  const chain = node.chain;
  const fees = Object.entries(config.fees).map(([cur, r]) => `${cur} base ${r.base}, baseextra ${r.baseextra}, kb ${r.kb}`);
  const lines = [
    '',
    'tpkit local node',
    '',
    `  URL         ${node.url}  (API under /api, e.g. ${node.url}/api/node/status)`,
    `  Playground  ${node.url}/  (wallet page: register, send, benchmark in this browser)`,
    ...(config.staticDir === undefined ? [] : [`  Your pages  ${node.url}/app/  (the files of ${resolve(config.staticDir)}, --static)`]),
    `  Chain       ${config.chain}, node name ${config.nodeName}, height ${chain.height}`,
    `  Difficulty  ${config.difficulty} bits of register proof of work${config.difficulty === 0 ? ' (off)' : ''}`,
    `  Block time  ${config.mineOnDemand ? 'on demand: POST /api/dev/mine or tpkit faucet makes a block' : config.instant ? 'instant: a block as soon as transactions arrive' : `${config.blockTime} ms`}`,
    `  Data dir    ${config.memory ? 'none: --memory, nothing is saved' : resolve(config.dataDir)}`,
    `  Fees        ${fees.length ? fees.join('; ') : 'none'} -> ${addressToText(chain.feeAddress)}`,
    `  Dev API     ${devApiLine(node, config)}; live stream ${node.url.replace(/^http/, 'ws')}/api/ws`,
    `  Hosts       localhost, *.localhost, IP addresses${config.allowHosts.length ? `, ${config.allowHosts.join(', ')}` : ''} (--allow-host adds names)`,
    `  Web pages   ${['of this machine', ...config.allowOrigins.map((o) => (o === '*' ? 'of any site (*)' : `of ${o}`))].join(', ')} may use it from a browser (--allow-origin adds origins)`,
  ];
  if (config.allowOrigins.includes('*')) lines.push('  WARNING     --allow-origin *: any web page you open can use this node, its faucet and its development keys');
  if (config.allowHosts.includes('*')) lines.push('  WARNING     --allow-host *: any Host is answered, so a web page can reach the node through DNS rebinding');
  if (!isLoopbackListen(config.host))
    lines.push(`  WARNING     listening on ${config.host}: the node is reachable from other machines${node.chain.config.devApi ? ', dev API included (--dev-api)' : ''}`);
  if (node.tls) {
    lines.push(`  TLS         ${node.tls.devCertPath ? `self-signed development certificate ${resolve(node.tls.devCertPath)}` : 'certificate from --tls-cert'}`);
  }
  if (chain.accounts.length) {
    const balances =
      Object.entries(config.balance)
        .map(([cur, v]) => `${v} ${cur}`)
        .join(', ') || 'nothing';
    lines.push('', `  Development accounts, each funded at genesis with ${balances}.`);
    lines.push('  DEVELOPMENT KEYS: they are public, anyone can spend from them. Never use them on a real chain.');
    for (const a of chain.accounts) {
      lines.push(`  (${a.index}) ${addressToText(a.address)}  ${addressToHex(a.address)}`);
      lines.push(`      secret key ${bytesToHex(a.secretKey)}`);
      lines.push(`      WIF        ${secretKeyToWif(a.secretKey)}`);
    }
    lines.push('  The official wallet imports a WIF (import by private key); tpkit export writes its export file.');
  }
  // Before the last line: tools that wait for "listening on" have the profile's lines too.
  if (profileLines) lines.push('', profileLines);
  lines.push('', `listening on ${node.url}`, '');
  return lines.join('\n');
}

function devApiLine(node: LocalNode, config: NodeConfig): string {
  if (node.chain.config.devApi) return `${node.url}/api/dev/{faucet,mine,accounts} and test controls (tpkit dev --help)`;
  return config.devApi ? `off: ${config.host} is not a loopback address (--dev-api turns it on)` : 'off (--no-dev-api)';
}

export async function run(argv: string[]): Promise<number> {
  const profiled = applyClientProfile(argv);
  const parsed = parseNodeArgs(profiled.argv);
  if (parsed.help) {
    console.log(nodeHelp());
    return 0;
  }
  let config = parsed.config;
  if (parsed.check) return checkDataDir(config.dataDir, parsed.check.export);
  if (parsed.repair) return repairDataDir(config.dataDir, config);
  if ((config.tls.cert !== undefined || config.tls.selfSigned) && !parsed.portGiven) config = { ...config, port: DEFAULT_HTTPS_PORT };
  const ledger = join(config.dataDir, 'ledger');
  if (parsed.reset && existsSync(ledger)) {
    rmSync(ledger, { recursive: true, force: true });
    process.stderr.write(`--reset: deleted the chain in ${resolve(ledger)}; starting from genesis\n`);
  }
  const node = await startNode(config);
  if (!node.chain.fresh && parsed.genesisFlags.length > 0) {
    process.stderr.write(
      `warning: ${parsed.genesisFlags.join(', ')} only shape a new chain; ${resolve(config.dataDir)} already holds chain ${config.chain} at height ${node.chain.height}, so they change nothing (add --reset to start a fresh chain)\n`,
    );
  }
  const profileLines = profiled.profile === 'powerwallet' ? powerWalletLines(node.url, config.chain, config.nodeName, config.difficulty) : undefined;
  process.stdout.write(banner(node, config, profileLines) + '\n');

  await new Promise<void>((done) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        process.stderr.write(`${signal} again: exiting without waiting\n`);
        process.exit(130);
      }
      stopping = true;
      process.stderr.write(`${signal}: stopping (pending transactions are kept for the next start)\n`);
      node.close().then(done, (err) => {
        process.stderr.write(`error while stopping: ${(err as Error).message}\n`);
        done();
      });
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}
