// `tpkit keygen`: a new secp256k1 key, printed or written to a file only the owner can read.

import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { bytesToHex } from '../bytes.js';
import { generateSecretKey, publicKeyOf } from '../crypto/keys.js';
import { publicKeyToPem } from '../crypto/pem.js';

const HELP = `Usage: tpkit keygen [--out FILE] [--json]

Generates a secp256k1 key. Without --out it prints the secret key, the compressed
public key (hex) and the public key as PEM. With --out it writes the secret key as hex
to FILE with permissions 0600 (the file must not exist) and prints only the public key.

Options:
  --out FILE  write the secret key to FILE instead of printing it
  --json      print JSON
  -h, --help  show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.out && existsSync(values.out)) {
    console.error(`tpkit keygen: ${values.out} already exists; choose another path (an existing key is never overwritten)`);
    return 1;
  }
  const secretKey = generateSecretKey();
  const publicKey = publicKeyOf(secretKey);
  const shown: Record<string, string> = {};
  if (values.out) {
    // 'wx' refuses to overwrite: losing an existing key is worse than a failed command.
    writeFileSync(values.out, `${bytesToHex(secretKey)}\n`, { mode: 0o600, flag: 'wx' });
    shown.keyFile = values.out;
  } else {
    shown.secretKey = bytesToHex(secretKey, true);
  }
  shown.publicKey = bytesToHex(publicKey, true);
  shown.pem = publicKeyToPem(publicKey);
  if (values.json) {
    console.log(JSON.stringify(shown, null, 2));
  } else {
    if (shown.keyFile) console.log(`key file    ${shown.keyFile} (secret key, mode 0600)`);
    if (shown.secretKey) console.log(`secret key  ${shown.secretKey}`);
    console.log(`public key  ${shown.publicKey}`);
    console.log(shown.pem);
  }
  return 0;
}
