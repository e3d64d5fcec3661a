// `tpkit <command>` dispatched: each command lives in its own module, loaded only when called,
// so `tpkit address` never pays for the node's store or the miner's worker pool. main.ts runs
// it as the binary; tests call dispatch() in process.

import { readFileSync } from 'node:fs';
import { TpkitError } from '../errors.js';
import { closest } from '../closest-name.js';

export type CommandRun = (argv: string[]) => Promise<number>;

interface Command {
  summary: string;
  load: () => Promise<{ run: CommandRun }>;
}

const COMMANDS: Record<string, Command> = {
  decode: { summary: 'Explain a transaction (base64, hex, a file or -)', load: () => import('./decode.js') },
  address: { summary: 'Convert and validate an address (text or 0x hex)', load: () => import('./address.js') },
  keygen: { summary: 'Generate or import a key (hex, seed phrase, official export) into an encrypted key file', load: () => import('./keygen.js') },
  export: { summary: "Write a key file's wallet as the official wallets' export file", load: () => import('./export.js') },
  register: { summary: 'Register a wallet for a key file: mine, submit, wait, record the address', load: () => import('./register.js') },
  balance: { summary: "Show a wallet's balances, seq and last block", load: () => import('./balance.js') },
  send: { summary: 'Send a transfer from a key file wallet, with the node fee, and wait for the block', load: () => import('./send.js') },
  status: { summary: 'Show whether a transaction is pending, included or failed', load: () => import('./status.js') },
  tx: { summary: 'Explain a transaction from its block: kind, from, to, amounts, fee, seq, time, result', load: () => import('./tx.js') },
  block: { summary: "Show a block's header and its transactions (hash, height, latest or genesis)", load: () => import('./block.js') },
  settings: { summary: "Print the node's settings (or one part of them)", load: () => import('./settings.js') },
  mine: { summary: 'Mine a register body (or signed register tx) at a difficulty', load: () => import('./mine.js') },
  bench: { summary: 'Measure register mining speed against openssl, node:crypto and @noble/hashes', load: () => import('./bench.js') },
  node: { summary: 'Run a local node: the full HTTP API on a persistent ledger that makes blocks', load: () => import('./node.js') },
  faucet: { summary: 'Credit development money to an address on a local tpkit node', load: () => import('./faucet.js') },
  accounts: { summary: "List a local tpkit node's development accounts and balances", load: () => import('./accounts.js') },
  dev: { summary: 'Test controls of a local tpkit node: snapshot, revert, rollback, time, state, faults', load: () => import('./dev.js') },
};

/** The package version, from the package.json two folders above dist/src/cli. */
function version(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: tpkit <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'tpkit <command> --help' for a command's options, 'tpkit --version' for the version.`;
}

/** Runs `tpkit ...argv`; resolves with the exit code. Output goes to stdout and stderr. */
export async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(`tpkit ${version()}`);
    return 0;
  }
  // Own names only: `tpkit constructor` is an unknown command, not Object.prototype's.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const option = name.startsWith('-');
    const later = option ? rest.find((arg) => Object.hasOwn(COMMANDS, arg)) : undefined;
    if (later) {
      console.error(`tpkit: options go after the command: tpkit ${later} ${argv.filter((arg) => arg !== later).join(' ')}`);
      return 2;
    }
    const guess = closest(name, option ? ['--version', '--help'] : Object.keys(COMMANDS));
    console.error(`tpkit: unknown ${option ? 'option' : 'command'} '${name}'${guess ? `: did you mean '${guess}'?` : ''} (tpkit --help lists the commands)`);
    return 2;
  }
  const { run } = await command.load();
  try {
    return await run(rest);
  } catch (err) {
    return report(name, err);
  }
}

/** What no command caught: `tpkit CMD: message [CODE]`, and the exit code its kind calls for. */
async function report(name: string, err: unknown): Promise<number> {
  if (!(err instanceof TpkitError)) {
    console.error(`tpkit ${name}: ${err instanceof Error ? err.stack : String(err)}`);
    return 1;
  }
  const { exitCodeFor } = await import('./wallet-common.js');
  console.error(`tpkit ${name}: ${err.message} [${err.code}]`);
  return exitCodeFor(err);
}
