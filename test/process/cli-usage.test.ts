// How the CLI meets a newcomer's typing, the real binary against a real node: --version,
// "did you mean", the --node forms people type, usage errors that exit 2 with a `tpkit CMD:`
// prefix in our words (never parseArgs' text), and a missing file named as such.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText } from '../../src/codec/address.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8'));
let node: TestNode;

function tpkit(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [MAIN, ...args], { env: { ...process.env, TPKIT_NODE: '' } }, (_e, out, err) => resolve({ code: child.exitCode, out, err }));
  });
}

test.before(async () => {
  node = await startTestNode();
});

test.after(async () => {
  await node.close();
});

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

test('--node takes host:port (http on loopback), localhost, [::1], a trailing /api; errors name the flag', async () => {
  const port = new URL(node.url).port;
  const dev = addressToText(node.chain.accounts[0].address);
  for (const form of [`127.0.0.1:${port}`, `localhost:${port}`, `${node.url}/api`, `${node.url}/api/`, `${node.url}/`]) {
    const r = await tpkit('balance', dev, '--node', form);
    assert.is(r.code, 0, `${form}: ${r.err}`);
    assert.match(r.out, /balance  1000000000000000 SK/);
  }
  // IPv6 loopback in brackets: http too
  const v6 = await startTestNode({ host: '::1' });
  try {
    const r = await tpkit('balance', dev, '--node', `[::1]:${new URL(v6.url).port}/api`);
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /balance  1000000000000000 SK/);
  } finally {
    await v6.close();
  }
  // another host without a scheme is https, never plain http
  const remote = await tpkit('balance', dev, '--node', 'nosuchhost.invalid:1');
  assert.is(remote.code, 3);
  assert.match(remote.err, /to https:\/\/nosuchhost\.invalid:1:/);
  const bad = await tpkit('balance', dev, '--node', 'ftp://example.com');
  assert.is(bad.code, 2);
  assert.match(bad.err, /^tpkit balance: --node must be an http:\/\/ or https:\/\/ URL/);
  assert.not.match(bad.err, /baseUrl/);
});

test('--node https:// against the plain-HTTP node says to use http://, not "is the node running?"', async () => {
  const dev = addressToText(node.chain.accounts[0].address);
  const port = new URL(node.url).port;
  const r = await tpkit('balance', dev, '--node', `https://127.0.0.1:${port}`);
  assert.is(r.code, 3);
  assert.match(r.err, new RegExp(`the server answers plain HTTP, not TLS; use http://127\\.0\\.0\\.1:${port}`));
  assert.match(r.err, /give its URL with http:\/\//);
  assert.not.match(r.err, /wrong version number|is `tpkit node` running/);
});

test('settings of a path the node does not have says so besides the empty answer', async () => {
  const r = await tpkit('settings', 'current.regster.diff', '--node', node.url);
  assert.is(r.code, 0);
  assert.is(r.out.trim(), '{}');
  assert.match(r.err, /^note: the node has no settings at current\.regster\.diff/);
  const found = await tpkit('settings', 'current.register.diff', '--node', node.url);
  assert.is(found.err, '');
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
