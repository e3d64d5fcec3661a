#!/usr/bin/env node
// `tpkit <command>`: each command lives in its own module, loaded only when called,
// so `tpkit address` never pays for the node's store or the miner's worker pool.

import { TpkitError } from '../errors.js';

export type CommandRun = (argv: string[]) => Promise<number>;

interface Command {
  summary: string;
  load: () => Promise<{ run: CommandRun }>;
}

const COMMANDS: Record<string, Command> = {
  decode: { summary: 'Explain a transaction (base64, hex, a file or -)', load: () => import('./decode.js') },
  address: { summary: 'Convert and validate an address (text or 0x hex)', load: () => import('./address.js') },
  keygen: { summary: 'Generate (or import) a key into a passphrase-encrypted key file', load: () => import('./keygen.js') },
  register: { summary: 'Register a wallet for a key file: mine, submit, wait, record the address', load: () => import('./register.js') },
  balance: { summary: "Show a wallet's balances, seq and last block", load: () => import('./balance.js') },
  send: { summary: 'Send a transfer from a key file wallet, with the node fee, and wait for the block', load: () => import('./send.js') },
  status: { summary: 'Show whether a transaction is pending, included or failed', load: () => import('./status.js') },
  settings: { summary: "Print the node's settings (or one part of them)", load: () => import('./settings.js') },
  mine: { summary: 'Mine a register body (or signed register tx) at a difficulty', load: () => import('./mine.js') },
  bench: { summary: 'Measure register mining speed against openssl, node:crypto and @noble/hashes', load: () => import('./bench.js') },
  node: { summary: 'Run a local node: the full HTTP API on a persistent ledger that makes blocks', load: () => import('./node.js') },
  faucet: { summary: 'Credit development money to an address on a local tpkit node', load: () => import('./faucet.js') },
  accounts: { summary: "List a local tpkit node's development accounts and balances", load: () => import('./accounts.js') },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: tpkit <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'tpkit <command> --help' for a command's options.`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`tpkit: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const { run } = await command.load();
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof TpkitError) {
      console.error(`tpkit: ${err.message} [${err.code}]`);
    } else {
      console.error(`tpkit: ${err instanceof Error ? err.stack : String(err)}`);
    }
    process.exitCode = 1;
  },
);
