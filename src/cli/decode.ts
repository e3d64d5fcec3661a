// `tpkit decode <base64|hex|file|->`: explain a transaction container.

import { existsSync } from 'node:fs';
import { explainTx, formatExplanation } from './explain-tx.js';
import { readBytesArgument } from './input.js';
import { parseCommandArgs } from './usage.js';
import { decodeTxid } from '../codec/txid.js';
import { ArgumentError, TpkitError } from '../errors.js';

/** True when `arg` reads as a transaction id (e.g. 26CmF99wJRUJHd1-c4n1) rather than a transaction. */
function isTxid(arg: string): boolean {
  if (arg.length > 64 || !arg.includes('-')) return false;
  try {
    decodeTxid(arg);
    return true;
  } catch {
    return false;
  }
}

const HELP = `Usage: tpkit decode (BASE64 | HEX | FILE | -) [--json]

Explains a transaction container: version, kind, every body field in readable form
(text addresses, amounts, times as ISO dates), each signature's public key, timestamp
and validity, and for register bodies the proof-of-work bits. A file may hold the
container as raw bytes, hex or base64; '-' reads standard input.

Options:
  --json      print the explanation as JSON
  -h, --help  show this help

Exit status: 0 when every signature is valid; 1 when one is not or the input does not
decode (the error and its code are printed); 2 on wrong usage.`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('decode', {
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new ArgumentError('expected one transaction (base64, hex, a file or -)', { details: 'see `tpkit decode --help`' });
  const arg = positionals[0];
  if (!existsSync(arg) && isTxid(arg)) {
    throw new ArgumentError(`'${arg}' is a transaction id, not a transaction`, { details: `\`tpkit tx ${arg}\` fetches it from a node and explains it` });
  }
  // A short argument that does not decode was most likely a file name with a typo: say so too.
  const maybeFile = arg !== '-' && arg.length < 64 && !/^(0x)?[0-9a-f]+$/i.test(arg) && !existsSync(arg);
  let explanation;
  try {
    explanation = explainTx(readBytesArgument(arg, 'transaction'));
  } catch (err) {
    // Bytes that do not decode are this command's answer (exit 1); a missing file named as such is usage (exit 2).
    if (!(err instanceof TpkitError) || err.code === 'INVALID_ARGUMENT') throw err;
    console.error(`tpkit decode: ${err.message} [${err.code}]${maybeFile ? `\n  and no file is named '${arg}'` : ''}`);
    return 1;
  }
  console.log(values.json ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation));
  return explanation.signatures.length > 0 && explanation.signatures.every((s) => s.valid) ? 0 : 1;
}
