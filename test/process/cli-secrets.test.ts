// Secrets on the command line: a secret key pasted where a key file belongs is never repeated
// in any output (plain or --json) and the message points to `keygen --import`; a new key file
// needs a passphrase of at least 8 characters from a prompt, TPKIT_PASSPHRASE and
// --passphrase-file alike (an official-wallet export file, 12, from the prompt and
// TPKIT_WALLET_PASSPHRASE alike).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { runTpkit, type CliRun } from '../helpers/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-secrets-'));

function tpkit(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  // An unreachable node: nothing here may get as far as a request.
  return runTpkit(args, { env: { TPKIT_NODE: 'http://127.0.0.1:9', TPKIT_PASSPHRASE: 'a passphrase for tests', ...env } });
}

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a secret key given to --key is refused without being repeated, in text and in --json', async () => {
  const secret = generateSecretKey();
  const hex = bytesToHex(secret);
  const forms = [hex, `0x${hex}`, hex.toUpperCase(), Buffer.from(secret).toString('base64')];
  const commands = (key: string) => [
    ['balance', '--key', key],
    ['balance', '--key', key, '--json'],
    ['register', '--key', key, '--json'],
    ['send', '--key', key, '--to', 'AA100000001677721780', '--amount', '1', '--currency', 'SK'],
  ];
  for (const form of forms) {
    for (const args of commands(form)) {
      const label = `${args[0]} ${args.slice(2).join(' ')} (${form.slice(0, 6)}…)`;
      const r = await tpkit(args);
      assert.is(r.code, 2, `${label}: ${r.err}`);
      const output = r.out + r.err;
      for (const shown of [hex, hex.toUpperCase(), hex.slice(0, 16), hex.slice(-16), Buffer.from(secret).toString('base64').slice(0, 16)]) {
        assert.not.ok(output.includes(shown), `${label}: the key is not in the output:\n${output}`);
      }
      assert.match(output, /looks like a secret key/, label);
      assert.match(output, /tpkit keygen --import --out FILE/, label);
      if (args.includes('--json')) assert.is(JSON.parse(r.out).error.code, 'INVALID_ARGUMENT', label);
    }
  }
  // a file name is still a file name
  const missing = await tpkit(['balance', '--key', join(dir, 'nowhere.key')]);
  assert.is(missing.code, 2);
  assert.match(missing.err, /no such key file/);
});

test('a new key file needs 8 characters of passphrase from TPKIT_PASSPHRASE and --passphrase-file too', async () => {
  const out = join(dir, 'new.key');
  const short = await tpkit(['keygen', '--out', out], { TPKIT_PASSPHRASE: 'seven77' });
  assert.is(short.code, 2, short.err);
  assert.match(short.err, /at least 8 characters \(TPKIT_PASSPHRASE\)/);
  assert.not.match(short.err, /seven77/, 'the passphrase is not echoed');
  const file = join(dir, 'pass');
  writeFileSync(file, 'short\n');
  const fromFile = await tpkit(['keygen', '--out', out, '--passphrase-file', file]);
  assert.is(fromFile.code, 2, fromFile.err);
  assert.match(fromFile.err, /at least 8 characters \(--passphrase-file\)/);
  const imported = await tpkit(['keygen', '--import', '--out', out], { TPKIT_PASSPHRASE: 'short' });
  assert.is(imported.code, 2);
  assert.not.ok(existsSync(out), 'no key file was written');
  // eight characters (counted as characters, not bytes) are enough
  const ok = await tpkit(['keygen', '--out', out], { TPKIT_PASSPHRASE: 'éééééééé' });
  assert.is(ok.code, 0, ok.err);
  assert.ok(existsSync(out));
  // an export file for the official wallets keeps its 12-character minimum from the environment too
  const exportFile = join(dir, 'w.export');
  const exported = await tpkit(['export', '--key', out, '--out', exportFile, '--address', 'AA100000001677721780'], { TPKIT_PASSPHRASE: 'éééééééé', TPKIT_WALLET_PASSPHRASE: 'eleven char' });
  assert.is(exported.code, 2, exported.err);
  assert.match(exported.err, /at least 12 characters \(TPKIT_WALLET_PASSPHRASE\)/);
  assert.not.ok(existsSync(exportFile));
  // opening an existing file takes its passphrase as it is
  const opened = await tpkit(['balance', '--key', out], { TPKIT_PASSPHRASE: 'x' });
  assert.match(opened.err, /no wallet/, 'read without asking the passphrase');
});

test.run();
