// `tpkit address <text | 0x…>`: convert an address between its forms and validate it.

import { addressFromText, addressParts, addressToHex, addressToText } from '../codec/address.js';
import { parseCommandArgs } from './usage.js';
import { ArgumentError, TpkitError } from '../errors.js';

const HELP = `Usage: tpkit address ADDRESS [--json]

Validates an address and prints its forms: text (AA100000001677722412, or 18 hex
characters for private addresses), 0x hex (8 bytes) and its parts (group, block =
chain, wallet). Letters are case-insensitive and spaces are ignored.

Options:
  --json      print the result as JSON
  -h, --help  show this help

Exit status: 0 for a valid address, 1 for an invalid one (the reason is printed).`;

/** What to do about an address that does not read: the command's own answer, so no pointer back to it. */
function addressAdvice(code: string): string {
  if (code === 'ADDRESS_CHECKSUM') return 'a character is mistyped or two are swapped: copy the address again from where it was shown.';
  return 'copy the address again: a public one is 20 characters such as AA100000001677721780, a private one 18 hex digits, or 0x and 16 hex digits.';
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('address', {
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length === 0) throw new ArgumentError('expected an address (text or 0x hex)', { details: 'see `tpkit address --help`' });
  let bytes: Uint8Array;
  try {
    bytes = addressFromText(positionals.join(' '));
  } catch (err) {
    // An invalid address is this command's answer, not a usage error.
    if (!(err instanceof TpkitError)) throw err;
    console.error(`tpkit address: ${err.message} [${err.code}]\n  ${addressAdvice(err.code)}`);
    return 1;
  }
  const parts = addressParts(bytes);
  const result = { text: addressToText(bytes), hex: addressToHex(bytes), ...parts };
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`text    ${result.text}`);
    console.log(`hex     ${result.hex}`);
    console.log(`kind    ${parts.kind}`);
    if (parts.kind === 'public') console.log(`group   ${parts.group}`);
    console.log(`block   ${parts.block}${parts.kind === 'public' ? ' (chain)' : ''}`);
    console.log(`wallet  ${parts.wallet}`);
  }
  return 0;
}
