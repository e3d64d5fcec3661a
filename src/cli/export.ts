// `tpkit export --key FILE --out FILE`: a key file's key and wallet address as the official
// wallets' export file, for moving a wallet into them. That format's encryption is weak
// (one MD5 per passphrase guess, no integrity check), so the command says so and writes
// the file only this user can read.

import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ArgumentError } from '../errors.js';
import { writeWalletExport } from '../keys/wallet-export.js';
import { addressArgument } from './input.js';
import { openKeyFile, readKeyFileInfo } from './key-file.js';
import { EXIT, PASSPHRASE_HELP, PASSPHRASE_OPTION, interruptSignal, passphraseFrom, printJson, promptHidden, runWalletCommand } from './wallet-common.js';
import { noAddressAdvice } from './wallet-owner.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit export --key FILE --out FILE [options]

Writes the key of a tpkit key file, with its wallet address, as the export file of the
official ThePower wallets (version 2), which they import. The export passphrase comes
from $TPKIT_WALLET_PASSPHRASE or a prompt.

The official format's encryption is weak: AES-128 under MD5(passphrase and salt), one
hash per guess, and no integrity check. Choose a long passphrase, keep the file private
(it is written with mode 0600) and delete it once the wallet has imported it.

Options:
  --key FILE          tpkit key file to export
  --out FILE          export file to write (an existing file is never overwritten)
  --address ADDR      wallet address (default: the one the key file records)
  --hint TEXT         passphrase hint stored in the clear in the file
  --json              print JSON
${PASSPHRASE_HELP}
  -h, --help          show this help`;

const short = (from: string) => new ArgumentError(`The export passphrase must be at least 12 characters (${from})`, { details: 'the format costs an attacker one MD5 per guess' });

/**
 * The export's passphrase: $TPKIT_WALLET_PASSPHRASE, else asked twice on a terminal. What
 * can be refused without asking is refused at once, before the key file's scrypt.
 */
function exportPassphrase(): () => Promise<string> {
  const env = process.env.TPKIT_WALLET_PASSPHRASE;
  if (env !== undefined) {
    if (env === '') throw new ArgumentError('TPKIT_WALLET_PASSPHRASE is empty');
    if ([...env].length < 12) throw short('TPKIT_WALLET_PASSPHRASE');
    return async () => env;
  }
  if (!process.stdin.isTTY) throw new ArgumentError('The export needs a passphrase and there is no terminal to ask on', { details: 'set TPKIT_WALLET_PASSPHRASE' });
  return askExportPassphrase;
}

async function askExportPassphrase(): Promise<string> {
  const first = await promptHidden('Passphrase for the export file: ');
  if ([...first].length < 12) throw short('the typed passphrase');
  if ((await promptHidden('Repeat it: ')) !== first) throw new ArgumentError('The two passphrases differ');
  return first;
}

function writeNew(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (cause) {
    const exists = (cause as NodeJS.ErrnoException).code === 'EEXIST';
    throw new ArgumentError(`${path} cannot be written: ${exists ? 'it already exists (never overwritten)' : (cause as Error).message}`, { cause });
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'export',
    async () => {
      const { values } = parseCommandArgs('export', {
        args: argv,
        options: {
          ...PASSPHRASE_OPTION,
          key: { type: 'string' },
          out: { type: 'string' },
          address: { type: 'string' },
          hint: { type: 'string' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (!values.key) throw new ArgumentError('--key is required: the tpkit key file to export');
      if (!values.out) throw new ArgumentError('--out is required: the export file to write');
      if (existsSync(values.out)) throw new ArgumentError(`${values.out} already exists; choose another path (an existing file is never overwritten)`);
      if (!existsSync(dirname(resolve(values.out)))) throw new ArgumentError(`no such folder for --out: '${dirname(values.out)}'`);
      const info = readKeyFileInfo(values.key);
      const given = values.address === undefined ? undefined : addressArgument(values.address, '--address');
      const address = given ?? info.address;
      if (!address)
        throw new ArgumentError(`${values.key} records no wallet address, and the export needs one`, { details: noAddressAdvice(values.key).replace('pass --from ADDRESS', 'pass --address ADDRESS') });
      if (given && info.address && given !== info.address) throw new ArgumentError(`--address ${given} is not the wallet ${values.key} records (${info.address})`);
      const exportSecret = exportPassphrase();
      const { secretKey } = await openKeyFile(values.key, passphraseFrom(values));
      if (interruptSignal().aborted) return EXIT.interrupted;
      const text = writeWalletExport({ secretKey, address, passphrase: await exportSecret(), hint: values.hint ?? '' });
      writeNew(values.out, text);
      process.stderr.write(
        `warning: ${values.out} uses the official wallets' legacy encryption (one MD5 per passphrase guess, no integrity check): ` + 'keep it private, and delete it once imported\n',
      );
      if (values.json) printJson({ exportFile: values.out, address, format: 'thepower-wallet-export/2' });
      else console.log(`export file ${values.out} (official wallet format, version 2, mode 0600)\naddress     ${address}`);
      return 0;
    },
    argv,
  );
}
