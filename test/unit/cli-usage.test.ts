// How the CLI meets a newcomer's typing, run in process through dispatch() with its output
// captured: --version, "did you mean", usage errors that exit 2 with a `tpkit CMD:` prefix in
// our words (never parseArgs' text), and a missing file named as such. No process per case;
// test/process/cli-usage.test.ts runs the binary where a real node and network are involved.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkitInProcess } from '../helpers/cli-run.js';

const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8'));
const tpkit = (...args: string[]) => runTpkitInProcess(args, { TPKIT_NODE: undefined });

test('--version prints the package version', async () => {
  for (const flag of ['--version', '-V', 'version']) {
    const r = await tpkit(flag);
    assert.is(r.code, 0);
    assert.is(r.out.trim(), `tpkit ${PACKAGE.version}`);
  }
});

test('a mistyped command or option gets "did you mean", exit 2', async () => {
  const command = await tpkit('sned');
  assert.is(command.code, 2);
  assert.match(command.err, /^tpkit: unknown command 'sned': did you mean 'send'\?/);
  const option = await tpkit('status', 'x', '--wiat');
  assert.is(option.code, 2);
  assert.match(option.err, /^tpkit status: unknown option '--wiat': did you mean --wait\?/);
  const flag = await tpkit('--verison');
  assert.is(flag.code, 2);
  assert.match(flag.err, /^tpkit: unknown option '--verison': did you mean '--version'\?/);
  const early = await tpkit('--node', '127.0.0.1:1', 'balance', 'AA100000001677721780');
  assert.is(early.code, 2);
  assert.match(early.err, /^tpkit: options go after the command: tpkit balance --node 127\.0\.0\.1:1 AA100000001677721780/);
  for (const inherited of ['constructor', 'toString', '__proto__']) {
    const r = await tpkit(inherited);
    assert.is(r.code, 2, `${inherited}: ${r.err}`);
    assert.match(r.err, new RegExp(`^tpkit: unknown command '${inherited}'`));
  }
  const nothing = await tpkit('qqqqqq');
  assert.not.match(nothing.err, /did you mean/);
});

test('usage errors exit 2, start with `tpkit CMD:`, and never show parseArgs text', async () => {
  const key = '02' + 'ab'.repeat(32);
  for (const [args, pattern] of [
    [['mine', '--pubkey', '02abc', '--difficulty', '4'], /^tpkit mine: --pubkey is not a public key: '02abc'/],
    [['mine', '--kernel', 'foo', '--difficulty', '4', '--pubkey', key], /^tpkit mine: --kernel must be auto or one of .*got 'foo'/],
    [['mine', '--difficulty'], /^tpkit mine: --difficulty needs a value/],
    [['bench', '--threads', '0'], /^tpkit bench: --threads expected .* got '0'/],
    [['send', '--to'], /^tpkit send: --to needs a value/],
    [['send', '--nodee', 'x'], /^tpkit send: unknown option '--nodee': did you mean --node\?/],
    [['balance'], /^tpkit balance: Give an address/],
    [['decode', 'a', 'b'], /^tpkit decode: expected one transaction .*\[INVALID_ARGUMENT\]/],
    [['address'], /^tpkit address: expected an address .*\[INVALID_ARGUMENT\]/],
    [['bench', '--kernel', 'foo'], /^tpkit bench: --kernel must be auto or one of .*got 'foo'/],
    [['bench', '--duration', '-5'], /^tpkit bench: --duration needs a value, and '-5' looks like an option: write --duration=-5 if it is the value/],
    [['status', '--json=1', 'x'], /^tpkit status: --json takes no value/],
    [['send', '--key', 'k', '--to', 'AA100000001677721780', '--currency', 'SK', '--amount', '2.5'], /^tpkit send: --amount expected a whole number of the smallest unit, got '2\.5'/],
    [['faucet', 'AA100000001677721780', 'lots'], /^tpkit faucet: AMOUNT expected a whole number of the smallest unit, got 'lots'/],
    [['keygen', '--out', 'no/such/folder/w.key'], /^tpkit keygen: no such folder for --out: 'no\/such\/folder'/],
    [['settings', 'a', 'b'], /^tpkit settings: Give at most one settings path/],
    [['send', '--key', 'nowhere.key', '--to', 'AA100000001677721780', '--amount', '1', '--currency', 'SK'], /^tpkit send: no such key file: 'nowhere\.key'.*tpkit keygen --out FILE/],
    [['mine', '--difficulty', '4', '--key', 'nowhere.key'], /^tpkit mine: no such key file: 'nowhere\.key'/],
    [['node', '--bogus'], /^tpkit node: --bogus: unknown flag \(/],
    [['node', '--datadir', 'x'], /^tpkit node: --datadir: unknown flag: did you mean --data-dir\?/],
    [['bench', '--threds', '2'], /^tpkit bench: unknown option '--threds': did you mean --threads\?/],
  ] as [string[], RegExp][]) {
    const r = await tpkit(...args);
    assert.is(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, pattern, args.join(' '));
    assert.not.match(r.err, /ERR_PARSE_ARGS|To specify a positional argument|TypeError|\n\s+at /, args.join(' '));
  }
});

test('decode of a file that is not there says so (exit 2); bytes that do not decode are exit 1', async () => {
  const missing = await tpkit('decode', 'wallet-tx.bin');
  assert.is(missing.code, 2);
  assert.match(missing.err, /^tpkit decode: no such file: 'wallet-tx\.bin'/);
  const garbage = await tpkit('decode', '92a16b10');
  assert.is(garbage.code, 1);
  assert.match(garbage.err, /\[TX_NOT_MAP\]/);
  assert.not.match(garbage.err, /no file/, 'hex was meant as hex');
  // a file name without an extension does not decode either: both are said
  const name = await tpkit('decode', 'wallettx');
  assert.is(name.code, 1);
  assert.match(name.err, /^tpkit decode: .*\[MSGPACK_INVALID\]\n  and no file is named 'wallettx'/);
});

test.run();
