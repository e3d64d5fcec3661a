// `tpkit keygen`: a new secp256k1 key (or an imported one) written to a passphrase-encrypted
// key file only the owner can read. The secret key is printed only when asked for.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bytesToHex } from '../bytes.js';
import { keysHash } from '../codec/keys-hash.js';
import { generateSecretKey, publicKeyOf, toSecretKeyBytes } from '../crypto/keys.js';
import { publicKeyToPem } from '../crypto/pem.js';
import { ArgumentError } from '../errors.js';
import { encryptKey, writeKeyFile } from './key-file.js';
import { KEY_SOURCE_HELP, KEY_SOURCE_OPTIONS, chosenSource, sourcedKey } from './keygen-sources.js';
import { recordAddress } from './record-address.js';
import { showKeySource } from './keygen-show.js';
import { addressArgument } from './input.js';
import { noAddressAdvice, walletRecordFor } from './wallet-owner.js';
import { EXIT, PASSPHRASE_HELP, PASSPHRASE_OPTION, interruptSignal, passphraseFrom, printJson, promptHidden, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit keygen [--out FILE] [options]

Generates a secp256k1 key, or takes one: --import (hex), --mnemonic or --import-mnemonic
(a seed phrase), --import-wallet (an official wallet export file). With --out it writes
the key to FILE encrypted under a passphrase (scrypt + AES-256-GCM, mode 0600; an existing
file is never overwritten) and prints the public key. The secret key is printed only with
--show-secret.

Options:
  --out FILE          write the key file
  --import            read the secret key (64 hex digits) from stdin instead of generating one
  --plain             write FILE as plain hex instead of encrypted (for scripts; not recommended)
  --show-secret       also print the secret key
${KEY_SOURCE_HELP}
  --json              print JSON
${PASSPHRASE_HELP}
  -h, --help          show this help`;

/** The secret key for --import: stdin when piped, else a prompt that does not echo. */
async function importedKey(): Promise<Uint8Array> {
  const text = process.stdin.isTTY ? await promptHidden('Secret key (64 hex digits): ') : readFileSync(0, 'utf8');
  try {
    return toSecretKeyBytes(text.trim().replace(/^0x/i, ''), 'stdin');
  } catch (cause) {
    throw new ArgumentError('--import expected a secret key as 64 hex digits on stdin', { details: (cause as Error).message, cause });
  }
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'keygen',
    async () => {
      const { values } = parseCommandArgs('keygen', {
        args: argv,
        options: {
          ...PASSPHRASE_OPTION,
          ...KEY_SOURCE_OPTIONS,
          out: { type: 'string' },
          import: { type: 'boolean' },
          plain: { type: 'boolean' },
          'show-secret': { type: 'boolean' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (values.key !== undefined) return recordAddress(values);
      if (values.out && existsSync(values.out)) {
        throw new ArgumentError(`${values.out} already exists; choose another path (an existing key is never overwritten)`);
      }
      // Checked before the passphrase prompt, so nobody types one twice for a path that cannot be written.
      if (values.out && !existsSync(dirname(resolve(values.out)))) {
        throw new ArgumentError(`no such folder for --out: '${dirname(values.out)}'`, { details: 'create it first, or choose another path' });
      }
      if (values.plain && !values.out) throw new ArgumentError('--plain needs --out FILE');
      const source = chosenSource(values);
      if (source !== 'generate' && source !== 'import' && !values.out) throw new ArgumentError(`--${source} needs --out FILE: the key file to write`);
      const sourced = await sourcedKey(values);
      const importAddress = values.import && values.address !== undefined ? addressArgument(values.address, '--address') : undefined;
      if (values.plain && (sourced?.address ?? importAddress)) throw new ArgumentError('--plain cannot record an address; leave out --plain');
      const secretKey = sourced?.secretKey ?? (values.import ? await importedKey() : generateSecretKey());
      const publicKey = publicKeyOf(secretKey);
      // Checked before the passphrase prompt: a key that does not own the address is refused first.
      const wallet = await walletRecordFor(values, sourced?.address ?? importAddress, publicKey, interruptSignal());
      const shown: Record<string, string> = {};
      if (values.out) {
        if (values.plain) {
          console.error('warning: writing the secret key unencrypted; anyone who can read the file owns the wallet');
          writeKeyFile(values.out, `${bytesToHex(secretKey)}\n`);
        } else {
          const sealed = await encryptKey(secretKey, await passphraseFrom(values, true)());
          if (interruptSignal().aborted) return EXIT.interrupted;
          writeKeyFile(values.out, { ...sealed, ...wallet });
        }
        shown.keyFile = values.out;
      }
      if (wallet) shown.address = wallet.address;
      if (values['show-secret']) shown.secretKey = bytesToHex(secretKey, true);
      shown.publicKey = bytesToHex(publicKey, true);
      shown.keysHash = bytesToHex(keysHash([publicKey]), true);
      shown.pem = publicKeyToPem(publicKey);
      if (values.json) {
        printJson({ ...shown, ...showKeySource(sourced, true) });
        return 0;
      }
      if (shown.keyFile) console.log(`key file    ${shown.keyFile} (${values.plain ? 'plain hex' : 'encrypted'}, mode 0600)`);
      showKeySource(sourced, false);
      if (shown.address) console.log(`address     ${shown.address}${wallet?.chain !== undefined ? ` (checked on ${wallet.node}, chain ${wallet.chain})` : ''}`);
      if (shown.secretKey) console.log(`secret key  ${shown.secretKey}`);
      console.log(`public key  ${shown.publicKey}`);
      console.log(`keys hash   ${shown.keysHash}`);
      console.log(shown.pem);
      if (!values.out && !values['show-secret']) console.error('note: the secret key was not kept; use --out FILE (or --show-secret) to keep it');
      if (values.out && !values.plain && !wallet && (values.import || values['import-mnemonic'])) console.error(`note: no wallet address recorded: ${noAddressAdvice(values.out)}`);
      return 0;
    },
    argv,
  );
}
