// What the wallet commands (register, balance, send, status, settings) share: the node
// URL, the passphrase, amounts, JSON output, Ctrl-C, and one mapping from errors to exit
// codes and to advice on what to do next.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createClient, type TpkitClient } from '../client/index.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { nodeUrlFrom } from './node-url.js';
import type { PassphraseSource } from './key-file.js';
import type { Progress } from './progress.js';

export const DEFAULT_NODE = 'http://127.0.0.1:43280';

/** Exit codes of the wallet commands (docs/guide/cli.md, "Exit codes"). */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

export const NODE_OPTIONS = {
  node: { type: 'string' },
  'allow-insecure': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const NODE_HELP = `  --node URL          node to talk to (default: $TPKIT_NODE, else ${DEFAULT_NODE})
  --allow-insecure    allow sending transactions over plain http:// to another host
  --json              print JSON (amounts as decimal strings)
  -h, --help          show this help`;

export function clientFrom(values: { node?: string; 'allow-insecure'?: boolean }): TpkitClient {
  const baseUrl =
    values.node !== undefined ? nodeUrlFrom(values.node, '--node') : process.env.TPKIT_NODE ? nodeUrlFrom(process.env.TPKIT_NODE, '$TPKIT_NODE') : DEFAULT_NODE;
  return createClient({ baseUrl, allowInsecure: values['allow-insecure'] === true });
}

/** A positive integer amount in the currency's smallest unit; `label` names where it came from (`--amount`, `AMOUNT`). */
export function parseAmount(text: string | undefined, label: string, { allowZero = false } = {}): bigint {
  if (text === undefined) throw new ArgumentError(`${label} is required`);
  if (!/^\d+$/.test(text.trim())) {
    throw new ArgumentError(`${label} expected a whole number of the smallest unit, got '${text}'`, { details: 'no decimals, signs or separators' });
  }
  const value = BigInt(text.trim());
  if (value === 0n && !allowZero) throw new ArgumentError(`${label} must be greater than 0`);
  if (value >= 1n << 64n) throw new ArgumentError(`${label} expected at most 2^64 - 1, got ${text.trim()}`);
  return value;
}

/** `tpkit status` and `tpkit tx` on a txid the node never accepted: said plainly, exit 1. */
export function reportUnknownTx(txid: string, json: boolean): number {
  if (json) printJson({ txid, state: 'unknown' });
  else console.log(`${txid}  unknown transaction (the node never accepted it, or the id is mistyped)`);
  return EXIT.failed;
}

/** JSON with bigints as decimal strings, so no script loses digits. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2));
}

/** Reads a line from the terminal without echoing it (passphrases, imported keys). */
export function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    let asked = false;
    output._writeToOutput = (s: string) => {
      // Echo the question once, never the typed characters.
      if (!asked) process.stderr.write(s);
      asked = true;
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    rl.on('SIGINT', () => {
      rl.close();
      reject(new TpkitError('ABORTED', 'Operation aborted', { details: 'passphrase prompt interrupted' }));
    });
  });
}

/** The passphrase: --passphrase-file, else $TPKIT_PASSPHRASE, else a prompt on a terminal. */
export function passphraseFrom(values: { 'passphrase-file'?: string }, confirm = false): PassphraseSource {
  const source: PassphraseSource = async () => {
    if (values['passphrase-file']) {
      try {
        const text = readFileSync(values['passphrase-file'], 'utf8').replace(/\r?\n$/, '');
        return confirm ? newPassphrase(text, '--passphrase-file') : text;
      } catch (cause) {
        if (cause instanceof ArgumentError) throw cause;
        throw new ArgumentError(`--passphrase-file could not read '${values['passphrase-file']}'`, { cause });
      }
    }
    if (process.env.TPKIT_PASSPHRASE !== undefined) return confirm ? newPassphrase(process.env.TPKIT_PASSPHRASE, 'TPKIT_PASSPHRASE') : process.env.TPKIT_PASSPHRASE;
    if (!process.stdin.isTTY) {
      throw new ArgumentError('A passphrase is needed and there is no terminal to ask on', {
        details: 'pass --passphrase-file FILE or set TPKIT_PASSPHRASE',
      });
    }
    // Typed at a prompt: a mistyped one may be typed again (openKeyFile asks through retry).
    source.retry = (left) => process.stderr.write(`Wrong passphrase; ${left} ${left === 1 ? 'try' : 'tries'} left.\n`);
    const first = await promptHidden('Passphrase: ');
    if (confirm) {
      newPassphrase(first, 'the typed passphrase');
      if ((await promptHidden('Repeat passphrase: ')) !== first) throw new ArgumentError('The two passphrases differ');
    }
    return first;
  };
  return source;
}

/** Characters a new key file's passphrase needs, wherever it comes from. */
export const MIN_PASSPHRASE = 8;

/** A new key file is not sealed under an empty or short passphrase: that only looks encrypted. */
function newPassphrase(passphrase: string, source: string): string {
  if (passphrase === '') throw new ArgumentError(`The passphrase is empty (${source})`, { details: 'choose one, or write plain hex with --plain' });
  if ([...passphrase].length < MIN_PASSPHRASE) {
    throw new ArgumentError(`The passphrase must be at least ${MIN_PASSPHRASE} characters (${source})`, { details: 'a new key file is only as strong as its passphrase' });
  }
  return passphrase;
}

export const PASSPHRASE_OPTION = { 'passphrase-file': { type: 'string' } } as const;
export const PASSPHRASE_HELP = `  --passphrase-file F
                      read the key file passphrase from F (else $TPKIT_PASSPHRASE, else a prompt)`;

let interrupt: AbortController | undefined;

/**
 * The process's Ctrl-C as an AbortSignal, so mining and waiting stop cleanly (exit 130).
 * It is armed when a wallet command starts, so a Ctrl-C during the passphrase's scrypt
 * still counts; a second Ctrl-C exits at once.
 */
export function interruptSignal(): AbortSignal {
  if (!interrupt) {
    const controller = new AbortController();
    interrupt = controller;
    process.once('SIGINT', () => {
      controller.abort(new TpkitError('ABORTED', 'Interrupted', { details: 'Ctrl-C' }));
      process.once('SIGINT', () => process.exit(EXIT.interrupted));
    });
  }
  return interrupt.signal;
}

/** Keeps a spinner turning while nothing else reports progress (waiting for a block); returns its stop. */
export function keepSpinning(bar: Progress, text?: string): () => void {
  if (text !== undefined) bar.status(text);
  const timer = setInterval(() => bar.tick(0), 100);
  timer.unref();
  return () => clearInterval(timer);
}

const ADVICE: Partial<Record<string, (err: TpkitError) => string>> = {
  NETWORK_ERROR: (err) =>
    /answers plain HTTP, not TLS/.test(err.details ?? '')
      ? 'the node runs, without TLS: give its URL with http:// (`tpkit node` serves HTTPS only with --tls-cert or --tls-self-signed).'
      : 'is `tpkit node` running? Pass --node URL or set TPKIT_NODE.',
  TIMEOUT: () => 'the node is slow or not making blocks; check later with `tpkit status TXID`.',
  INSECURE_TRANSPORT: () => 'use an https:// node URL, or --allow-insecure on a network you trust.',
  KEYFILE_PASSPHRASE: () => 'check the passphrase (--passphrase-file or TPKIT_PASSPHRASE).',
  KEYFILE_INVALID: () => 'pass the file written by `tpkit keygen --out`.',
  WALLET_PASSPHRASE: () => 'type the passphrase chosen when the wallet exported the file ($TPKIT_WALLET_PASSPHRASE, else the prompt).',
  WALLET_FILE_CORRUPT: () => 'export the wallet again from the official wallet.',
  WALLET_FILE_UNKNOWN: () => 'pass the file the official wallet writes with Export (a tpkit key file needs no import).',
  WALLET_KEY_MISMATCH: () => 'check the address; nothing was written.',
  MNEMONIC_WORD: () => 'compare the phrase with the one written down.',
  MNEMONIC_CHECKSUM: () => 'compare the phrase with the one written down: a word is wrong or two are swapped.',
  TX_FAILED: (err) => {
    const reason = (err as TpkitError & { reason?: string }).reason;
    if (reason === 'insufficient_fund') return 'the balance does not cover amount and fee; see `tpkit balance`.';
    if (reason === 'bad_seq') return 'the seq was used already; send again without --seq.';
    if (reason === 'insufficient_fee') return 'raise --fee, or use --fee auto.';
    return 'the transaction is in a block with this error result.';
  },
  API_ERROR: (err) => {
    const nodeError = (err as TpkitError & { nodeError?: string }).nodeError;
    if (nodeError === 'WALLET_NOT_FOUND') return 'no wallet has that address on this node.';
    if (nodeError === 'BLOCK_NOT_FOUND') return 'no block has that hash or height on this node; `tpkit block latest` shows the newest.';
    if (nodeError === 'SENDER_KEY_MISMATCH') return "the key file's key is not the sending wallet's key.";
    if (nodeError === 'SENDER_UNKNOWN') return 'the sending wallet does not exist on this node; check --from and --node (a wallet lives on one chain).';
    if (nodeError === 'TIMESTAMP_OUT_OF_WINDOW') return "this machine's clock is an hour or more away from the node's; set it right.";
    if (nodeError === 'WRONG_CHAIN') return 'the address belongs to another chain than this node.';
    if (nodeError === 'MEMPOOL_FULL') return 'the node is busy; try again in a few seconds.';
    if (nodeError === 'DEV_API_DISABLED') return 'the node runs with --no-dev-api; restart it without that flag.';
    if (nodeError === 'ROUTE_NOT_FOUND') return 'this node has no such endpoint (the faucet and accounts exist only on `tpkit node`).';
    return 'the node refused the request.';
  },
  ADDRESS_INVALID: () => 'check the address; `tpkit address ADDR` explains one.',
  ADDRESS_CHECKSUM: () => 'a digit is mistyped; copy the address again.',
  TXID_INVALID: () => 'pass the txid printed by `tpkit send` or `tpkit register`.',
  PRECHECK_FAILED: () => 'nothing was signed or sent.',
  FEE_UNKNOWN: () => 'pay the fee in a currency the node has a rate for (--fee-currency; `tpkit settings current.fee` lists them), or give --fee N.',
};

/** Exit code for an error: usage for what the user typed, 3 for the network, 1 otherwise. */

export function exitCodeFor(err: TpkitError): number {
  switch (err.code) {
    case 'INVALID_ARGUMENT':
    case 'CONFIG_INVALID':
    case 'ADDRESS_INVALID':
    case 'ADDRESS_CHECKSUM':
    case 'TXID_INVALID':
      return EXIT.usage;
    case 'NETWORK_ERROR':
    case 'TIMEOUT':
      return EXIT.unreachable;
    case 'ABORTED':
      return EXIT.interrupted;
    default:
      return EXIT.failed;
  }
}

/** The error as scripts read it with --json: code, message, advice and the error's own facts. */
function errorJson(err: TpkitError, advice: string | undefined, exitCode: number): Record<string, unknown> {
  const facts = err as TpkitError & Partial<Record<'txid' | 'reason' | 'status' | 'apiCode' | 'nodeError', unknown>>;
  const out: Record<string, unknown> = { code: err.code, message: err.message };
  for (const key of ['txid', 'reason', 'status', 'apiCode', 'nodeError'] as const) if (facts[key] !== undefined) out[key] = facts[key];
  if (advice) out.advice = advice;
  out.exitCode = exitCode;
  return { error: out };
}

/**
 * Runs a wallet command: TpkitErrors become a message, advice and an exit code on stderr,
 * and with --json in `argv` also an `{"error": {...}}` object on stdout.
 */
export async function runWalletCommand(name: string, body: () => Promise<number>, argv: readonly string[] = []): Promise<number> {
  const interrupted = interruptSignal();
  const json = argv.includes('--json');
  try {
    return await body();
  } catch (caught) {
    let err = caught;
    if (interrupted.aborted) err = new TpkitError('ABORTED', 'Interrupted', { details: 'Ctrl-C' });
    else if (String((err as { code?: unknown })?.code).startsWith('ERR_PARSE_ARGS')) {
      err = new ArgumentError((err as Error).message, { details: `see \`tpkit ${name} --help\`` });
    }
    if (!(err instanceof TpkitError)) throw err;
    const advice = ADVICE[err.code]?.(err);
    const code = exitCodeFor(err);
    if (err.code === 'ABORTED') console.error(`tpkit ${name}: interrupted`);
    else console.error(`tpkit ${name}: ${err.message} [${err.code}]${advice ? `\n  ${advice}` : ''}`);
    if (json) printJson(errorJson(err, advice, code));
    return code;
  }
}
