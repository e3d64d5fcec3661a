// What the wallet commands (register, balance, send, status, settings) share: the node
// URL, the passphrase, amounts, JSON output, Ctrl-C, and one mapping from errors to exit
// codes and to advice on what to do next.

import { readFileSync } from 'node:fs';
import { createClient, type TpkitClient } from '../client/index.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { nodeUrlFrom } from './node-url.js';
import { holdTerminal, promptHidden, releaseTerminal } from './hidden-prompt.js';

export { promptHidden };
import type { PassphraseSource } from './key-file.js';
import type { Progress } from './progress.js';

export const DEFAULT_NODE = 'http://127.0.0.1:43280';

/** Exit codes of the wallet commands (docs/guide/cli.md, "Exit codes"). */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

export const NODE_OPTIONS = {
  node: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const NODE_HELP = `  --node URL          node to talk to (default: $TPKIT_NODE, else ${DEFAULT_NODE})
  --json              print JSON (amounts as decimal strings)
  -h, --help          show this help`;

/** The commands that submit transactions (register, send): they alone meet the plain-HTTP rule. */
export const TX_NODE_OPTIONS = { ...NODE_OPTIONS, 'allow-insecure': { type: 'boolean' } } as const;

export const TX_NODE_HELP = `${NODE_HELP.split('\n')[0]}
  --allow-insecure    allow sending transactions over plain http:// to another host
${NODE_HELP.split('\n').slice(1).join('\n')}`;

export function clientFrom(values: { node?: string; 'allow-insecure'?: boolean }): TpkitClient {
  const baseUrl = values.node !== undefined ? nodeUrlFrom(values.node, '--node') : process.env.TPKIT_NODE ? nodeUrlFrom(process.env.TPKIT_NODE, '$TPKIT_NODE') : DEFAULT_NODE;
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

/**
 * When the passphrase will be typed at a prompt that comes only after the node is asked,
 * echo goes off now: what is typed meanwhile is not shown, and answers the prompt.
 */
export function holdForPrompt(values: { 'passphrase-file'?: string }, encrypted: boolean): void {
  if (encrypted && !values['passphrase-file'] && process.env.TPKIT_PASSPHRASE === undefined) holdTerminal();
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

/** A TLS certificate this process does not trust (self-signed, unknown issuer), from the fetch error under a NetworkError. */
function untrustedCertificate(err: TpkitError): boolean {
  const tls = (err.cause as { cause?: { code?: unknown } } | undefined)?.cause;
  return /SELF_SIGNED|UNABLE_TO_(VERIFY_LEAF|GET_ISSUER)|CERT_UNTRUSTED/.test(String(tls?.code ?? ''));
}

const ADVICE: Partial<Record<string, (err: TpkitError) => string | undefined>> = {
  NETWORK_ERROR: (err) => {
    const details = err.details ?? '';
    if (/answers plain HTTP, not TLS/.test(details)) return 'the node runs, without TLS: give its URL with http:// (`tpkit node` serves HTTPS only with --tls-cert or --tls-self-signed).';
    if (untrustedCertificate(err)) {
      return 'the node runs, with a certificate this machine does not trust. For `tpkit node --tls-self-signed`, trust its development certificate: NODE_EXTRA_CA_CERTS=DATA_DIR/tls/dev-cert.pem (the path the node prints at start; DATA_DIR is its --data-dir, default .tpkit/node).';
    }
    return 'is `tpkit node` running? Pass --node URL or set TPKIT_NODE.';
  },
  TIMEOUT: (err) => {
    const txid = (err as TpkitError & { txid?: string }).txid;
    return txid ? `the node is slow or not making blocks; check later with \`tpkit status ${txid}\`.` : 'the node did not answer in time: it may be overloaded or stopped; try again, or check --node.';
  },
  BAD_RESPONSE: (err) =>
    /is not a ThePower node/.test(err.message)
      ? 'check --node (or TPKIT_NODE): that URL is another server; `tpkit node` prints its URL when it starts.'
      : 'the node answered outside the API; check --node.',
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
    if (nodeError === 'DEV_API_DISABLED') return 'restart the node with its development API on: without --no-dev-api, and with --dev-api when it listens beyond this machine.';
    if (nodeError === 'ROUTE_NOT_FOUND') return 'this node has no such endpoint (the faucet, accounts and test controls exist only on `tpkit node`).';
    if (nodeError === 'SNAPSHOT_NOT_FOUND') return '`tpkit dev snapshot --list` shows the snapshots the node holds (a revert drops those taken after its target).';
    if (nodeError === 'HOST_NOT_ALLOWED') return 'reach the node as 127.0.0.1 or localhost, or start it with --allow-host NAME.';
    if (nodeError === 'NODE_INTERNAL') return "the node failed while handling it; the node's log says why.";
    const request = (err as TpkitError & { request?: string }).request ?? '';
    if (nodeError === 'BAD_REQUEST_PARAM' && request.includes('/api/dev/')) return '`tpkit dev --help` shows what each action takes.';
    // Otherwise the node's own reason, in the message, is the whole story.
    return undefined;
  },
  ADDRESS_INVALID: () => 'check the address; `tpkit address ADDR` explains one.',
  ADDRESS_CHECKSUM: () => 'a digit is mistyped; copy the address again.',
  TXID_INVALID: () => 'pass the txid printed by `tpkit send` or `tpkit register`.',
  PRECHECK_FAILED: () => 'nothing was signed or sent.',
  DIFFICULTY_TOO_HIGH: () => 'nothing was mined; pass --max-difficulty N to mine that much anyway, or use a node that asks for less.',
  FEE_TOO_HIGH: () => 'nothing was signed; check the node (`tpkit settings current.fee`) or give --fee N yourself.',
  RESPONSE_TOO_LARGE: () => 'the node sent far more than any answer needs; check --node.',
  REDIRECT_REFUSED: () => "nothing was sent on; give the node's final URL with --node.",
  FEE_UNKNOWN: () => 'pay the fee in a currency the node has a rate for (--fee-currency; `tpkit settings current.fee` lists them), or give --fee N.',
};

/** The line of advice printed under an error, when there is one to give. */
export function adviceFor(err: TpkitError): string | undefined {
  return ADVICE[err.code]?.(err);
}

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
    const advice = adviceFor(err);
    const code = exitCodeFor(err);
    if (err.code === 'ABORTED') console.error(`tpkit ${name}: interrupted`);
    else console.error(`tpkit ${name}: ${err.message} [${err.code}]${advice ? `\n  ${advice}` : ''}`);
    if (json) printJson(errorJson(err, advice, code));
    return code;
  } finally {
    releaseTerminal();
  }
}
