// Reading what a user hands a command: a literal (base64/hex), a file path, or `-` for stdin.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { bytesFromInput } from '../bytes.js';
import { addressFromText, addressToText } from '../codec/address.js';
import { ArgumentError, TpkitError } from '../errors.js';

function readStdin(): Buffer {
  return readFileSync(0);
}

/** Text files are read as hex or base64; anything else in a file is taken as raw bytes. */
function fromFileContent(content: Buffer, label: string): Uint8Array {
  const text = content.toString('latin1').trim();
  if (/^[0-9A-Za-z+/=_\-\s]*$/.test(text) && text.length > 0) return bytesFromInput(text, label);
  return new Uint8Array(content);
}

export function readBytesArgument(arg: string, label: string): Uint8Array {
  if (arg === '-') return fromFileContent(readStdin(), label);
  if (existsSync(arg)) {
    if (!statSync(arg).isFile()) throw new ArgumentError(`'${arg}' is a directory, not a file`);
    return fromFileContent(readFileSync(arg), label);
  }
  // Hex and base64 have no '.', '\\' or '~': such an argument was meant as a file name.
  if (/[.\\~]/.test(arg)) {
    throw new ArgumentError(`no such file: '${arg}'`, { details: `give the ${label} as a file, hex, base64 or - for standard input` });
  }
  return bytesFromInput(arg, label);
}

/** An address from a flag, in text form; a mistake names the flag (`--to: ...`) and keeps its code. */
export function addressArgument(text: string, flag: string): string {
  try {
    return addressToText(addressFromText(text));
  } catch (err) {
    if (!(err instanceof TpkitError)) throw err;
    throw new TpkitError(err.code, `${flag}: ${err.shortMessage}`, { details: err.details, cause: err });
  }
}
