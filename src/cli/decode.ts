// `tpkit decode <base64|hex|file|->`: explain a transaction container.

import { explainTx, formatExplanation } from './explain-tx.js';
import { readBytesArgument } from './input.js';
import { parseCommandArgs } from './usage.js';
import { TpkitError } from '../errors.js';

const HELP = `Usage: tpkit decode <base64 | hex | file | -> [--json]

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
  if (positionals.length !== 1) {
    console.error(`tpkit decode: expected one transaction (base64, hex, a file or -)\n\n${HELP}`);
    return 2;
  }
  const bytes = readBytesArgument(positionals[0], 'transaction');
  let explanation;
  try {
    explanation = explainTx(bytes);
  } catch (err) {
    // Bytes that do not decode are this command's answer (exit 1), not a usage error.
    if (!(err instanceof TpkitError)) throw err;
    console.error(`tpkit decode: ${err.message} [${err.code}]`);
    return 1;
  }
  console.log(values.json ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation));
  return explanation.signatures.length > 0 && explanation.signatures.every((s) => s.valid) ? 0 : 1;
}
