// `tpkit keygen --import-mnemonic` for a wallet whose key sits at either order of block and
// group: with a node it finds the order that holds the wallet's key and says which; without
// one it derives the login order and says how to find the other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { generateMnemonic, mnemonicToSecretKey } from '../../src/keys/mnemonic.js';
import { register, startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';
import { runTpkit, type CliRun, type CliRunOptions } from '../helpers/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-mnemonic-order-'));
const file = (name: string) => join(dir, name);
let node: TestNode;
/** The chain's allocation block: block 1, group 10, so the two orders differ. */
const PLACE = { block: 1, group: 10 };

function tpkit(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return runTpkit(args, { ...options, env: { TPKIT_PASSPHRASE: 'a passphrase for tests', TPKIT_NODE: node.url, ...options.env } });
}

/** Registers a wallet for `key` on the test node and returns its address. */
async function registered(key: Uint8Array): Promise<string> {
  const res = await node.submit(register(key, Date.now(), 0));
  assert.is(res.status, 200, JSON.stringify(res.body));
  const status = await waitStatus(node, res.body.txid);
  assert.ok(status.ok, JSON.stringify(status));
  return status.address as string;
}

test.before(async () => {
  node = await startTestNode({ difficulty: 0, accounts: 0, chain: PLACE.block, allocGroup: PLACE.group });
});

test.after(async () => {
  await node.close();
});

test('a wallet registered with the block-group key (SDK 2.2): found on the node, and the order named', async () => {
  const phrase = generateMnemonic();
  const key = mnemonicToSecretKey(phrase, PLACE, 'block-group');
  const address = await registered(key);
  const json = await tpkit(['keygen', '--import-mnemonic', '--address', address, '--out', file('b1.key'), '--json'], { stdin: phrase });
  assert.is(json.code, 0, json.err);
  const shown = JSON.parse(json.out) as { publicKey: string; address: string; path: string; order: string };
  assert.equal([shown.publicKey, shown.address, shown.path, shown.order], [bytesToHex(publicKeyOf(key), true), address, "m/44/31337'/0'/1'/10'", 'block-group']);
  assert.is((JSON.parse(readFileSync(file('b1.key'), 'utf8')) as { publicKey: string }).publicKey, bytesToHex(publicKeyOf(key)));

  const text = await tpkit(['keygen', '--import-mnemonic', '--address', address, '--out', file('b2.key')], { stdin: phrase });
  assert.is(text.code, 0, text.err);
  assert.match(text.out, `derived at  m/44/31337'/0'/1'/10' (the block and group of ${address}, block-group order, where SDK 2.2 registers wallets: the key ${node.url} records for it)`);
});

test('a wallet registered with the group-block key (the login order): found in that order', async () => {
  const phrase = generateMnemonic();
  const key = mnemonicToSecretKey(phrase, PLACE, 'group-block');
  const address = await registered(key);
  const run = await tpkit(['keygen', '--import-mnemonic', '--address', address, '--out', file('g1.key'), '--json'], { stdin: phrase });
  assert.is(run.code, 0, run.err);
  const shown = JSON.parse(run.out) as { publicKey: string; path: string; order: string };
  assert.equal([shown.publicKey, shown.path, shown.order], [bytesToHex(publicKeyOf(key), true), "m/44/31337'/0'/10'/1'", 'group-block']);
});

test('a phrase that gives neither key of the wallet: WALLET_KEY_MISMATCH naming both paths, no file, no phrase echoed', async () => {
  const address = await registered(mnemonicToSecretKey(generateMnemonic(), PLACE, 'block-group'));
  const other = generateMnemonic();
  const run = await tpkit(['keygen', '--import-mnemonic', '--address', address, '--out', file('n1.key')], { stdin: other });
  assert.is(run.code, 1);
  assert.match(run.err, `The seed phrase gives no key of wallet ${address}: tried m/44/31337'/0'/10'/1' and m/44/31337'/0'/1'/10'`);
  assert.match(run.err, /\[WALLET_KEY_MISMATCH\]/);
  assert.not.match(run.err, other.split(' ').slice(0, 3).join(' '));
});

test('without a node: the login order, a note on the other, and --order block-group gives the SDK 2.2 key', async () => {
  const phrase = generateMnemonic();
  const address = addressToText(node.chain.feeAddress);
  const plain = await tpkit(['keygen', '--import-mnemonic', '--address', address, '--out', file('o1.key'), '--json'], { stdin: phrase, env: { TPKIT_NODE: '' } });
  assert.is(plain.code, 0, plain.err);
  assert.is(JSON.parse(plain.out).order, 'group-block');
  assert.is(JSON.parse(plain.out).publicKey, bytesToHex(publicKeyOf(mnemonicToSecretKey(phrase, PLACE, 'group-block')), true));
  assert.match(plain.err, "note: derived in the group-block order; a wallet the official SDK 2.2 registered holds the key of the block-group order (m/44/31337'/0'/1'/10')");

  const ordered = await tpkit(['keygen', '--import-mnemonic', '--block', '1', '--group', '10', '--order', 'block-group', '--out', file('o2.key'), '--json'], {
    stdin: phrase,
    env: { TPKIT_NODE: '' },
  });
  assert.is(ordered.code, 0, ordered.err);
  assert.equal([JSON.parse(ordered.out).order, JSON.parse(ordered.out).path], ['block-group', "m/44/31337'/0'/1'/10'"]);
  assert.is(JSON.parse(ordered.out).publicKey, bytesToHex(publicKeyOf(mnemonicToSecretKey(phrase, PLACE, 'block-group')), true));
  assert.not.match(ordered.err, /note: derived/);
});

test('--order: an unknown order, or --order without a seed phrase, is a usage error', async () => {
  const bad = await tpkit(['keygen', '--import-mnemonic', '--block', '1', '--group', '10', '--order', 'group/block', '--out', file('u1.key')], { stdin: generateMnemonic() });
  assert.is(bad.code, 2);
  assert.match(bad.err, /--order expected group-block or block-group, got 'group\/block'/);
  const lone = await tpkit(['keygen', '--order', 'block-group']);
  assert.is(lone.code, 2);
  assert.match(lone.err, /--block\/--group\/--order are for --mnemonic and --import-mnemonic/);
  const imported = await tpkit(['keygen', '--import', '--order', 'block-group'], { stdin: '11'.repeat(32) });
  assert.is(imported.code, 2);
  assert.match(imported.err, /--order is for --mnemonic and --import-mnemonic/);
});

test.run();
