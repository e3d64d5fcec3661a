// The wallet commands guarding a newcomer, the real binary against real nodes: a key file
// names one wallet (register refuses a second unless --force) and remembers its chain and
// node; send checks the sender, currency, balance and recipient before signing, prints
// addresses as text, and --no-wait prints the real txid; register reports the search's rate.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { addressToHex, addressToText, makeAddress } from '../../src/codec/address.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { runTpkit, type CliRun } from '../helpers/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-checks-'));
const walletFile = join(dir, 'wallet.key');
const devFile = join(dir, 'dev.key');
let node: TestNode;
let other: TestNode;
let address = '';
let dev = '';

function tpkit(args: string[], stdin = ''): Promise<CliRun> {
  return runTpkit(args, { stdin, env: { TPKIT_PASSPHRASE: 'a passphrase for tests', TPKIT_NODE: node.url } });
}

test.before(async () => {
  node = await startTestNode({ difficulty: 8, accounts: 1 });
  other = await startTestNode({ difficulty: 8, chain: 7, accounts: 1 });
  dev = addressToText(node.chain.accounts[0].address);
});

test.after(async () => {
  await node.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

test('register records the wallet, its chain and node; a second register is refused unless --force, which gets the same wallet', async () => {
  assert.is((await tpkit(['keygen', '--out', walletFile])).code, 0);
  const first = await tpkit(['register', '--key', walletFile]);
  assert.is(first.code, 0, first.err);
  address = /address  (AA\d{18})/.exec(first.out)![1];
  assert.match(first.out, /mined    difficulty 8: .* hashes in .* of hashing \([\d. kMG]+H\/s\), .* with worker start-up/);
  const saved = JSON.parse(readFileSync(walletFile, 'utf8'));
  assert.equal([saved.address, saved.chain, saved.node], [address, 1, node.url]);

  const again = await tpkit(['register', '--key', walletFile]);
  assert.is(again.code, 2);
  assert.match(
    again.err,
    new RegExp(`^tpkit register: ${walletFile.replace(/[.]/g, '\\.')} already names wallet ${address} \\(chain 1 at ${node.url.replace(/[.]/g, '\\.')}\\): use it with .*--force`),
  );
  const forced = await tpkit(['register', '--key', walletFile, '--force']);
  assert.is(forced.code, 0, forced.err);
  assert.match(forced.out, new RegExp(`address  ${address}`), 'the node answers with the wallet the key has');
  assert.match(forced.err, /the node answered with the wallet this key already has/);
  // the rate is the search's own: hashes over the time spent hashing, which leaves out worker start-up
  const json = await tpkit(['register', '--key', walletFile, '--force', '--json']);
  assert.is(json.code, 0, json.err);
  const mined = JSON.parse(json.out);
  assert.ok(mined.searchMs > 0 && mined.searchMs <= mined.elapsedMs, `0 < ${mined.searchMs} <= ${mined.elapsedMs}`);
  const rate = (mined.hashes / mined.searchMs) * 1000;
  assert.ok(Math.abs(mined.hashRate - rate) <= rate * 0.01 + 1, `hashRate ${mined.hashRate} is hashes / searchMs (${rate})`);
  const key = saved.publicKey.toLowerCase();
  const holders = [...node.chain.wallets.values()].filter((w) => w.pubkey && bytesToHex(w.pubkey) === key);
  assert.is(holders.length, 1, 'one wallet for the key, however often it registers');
});

test('register --force on another chain: the key file names the new wallet, its chain and node, and no longer the old one', async () => {
  const moved = join(dir, 'moved.key');
  assert.is((await tpkit(['keygen', '--out', moved])).code, 0);
  const first = await tpkit(['register', '--key', moved]);
  assert.is(first.code, 0, first.err);
  const before = JSON.parse(readFileSync(moved, 'utf8'));
  const forced = await tpkit(['register', '--key', moved, '--force', '--node', other.url]);
  assert.is(forced.code, 0, forced.err);
  const newAddress = /address  (AA\d{18})/.exec(forced.out)![1];
  const after = JSON.parse(readFileSync(moved, 'utf8'));
  assert.equal([after.address, after.chain, after.node], [newAddress, 7, other.url]);
  assert.is.not(after.address, before.address);
  assert.not.ok(readFileSync(moved, 'utf8').includes(before.address), 'the old address is gone from the file');
  // the secret is untouched: the same passphrase opens it to the same key
  assert.is(after.publicKey, before.publicKey);
  const shown = await tpkit(['balance', '--key', moved]);
  assert.match(shown.out + shown.err, new RegExp(newAddress));
});

test('send checks before signing: recipient, currency, balance, sender key; advice in words, addresses as text', async () => {
  assert.is((await tpkit(['keygen', '--import', '--out', devFile], `${bytesToHex(node.chain.accounts[0].secretKey)}\n`)).code, 0);
  const nowhere = addressToText(makeAddress({ group: 10, block: 1, wallet: 55_555 }));
  const heightBefore = node.chain.height;
  for (const [args, pattern] of [
    [['--to', nowhere, '--amount', '5', '--currency', 'SK'], new RegExp(`^tpkit send: ${nowhere} has no wallet on this node: check the address; .*--create`)],
    [['--to', address, '--amount', '5', '--currency', 'XYZ'], new RegExp(`^tpkit send: wallet ${dev} holds no XYZ: it holds 1000000000000000 SK`)],
    [['--to', address, '--amount', '5', '--currency', 'constructor'], new RegExp(`^tpkit send: wallet ${dev} holds no constructor: it holds 1000000000000000 SK`)],
    [['--to', address, '--amount', '1000000000000001', '--currency', 'SK'], new RegExp(`^tpkit send: 1000000000000001 SK is more than wallet ${dev} holds`)],
    [['--from', address, '--to', dev, '--amount', '1', '--currency', 'SK'], new RegExp(`^tpkit send: the key in .*dev\\.key is not the key of wallet ${address}: .*check --from and --key`)],
    // a hex --to is reported in text form
    [['--to', addressToHex(makeAddress({ group: 10, block: 1, wallet: 55_555 })), '--amount', '5', '--currency', 'SK'], new RegExp(`^tpkit send: ${nowhere} has no wallet`)],
  ] as [string[], RegExp][]) {
    const r = await tpkit(['send', '--key', devFile, ...(args.includes('--from') ? [] : ['--from', dev]), ...args]);
    assert.is(r.code, 1, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, pattern, args.join(' '));
    assert.match(r.err, /\[PRECHECK_FAILED\]\n  nothing was signed or sent\./);
  }
  // the fee comes on top: the whole balance cannot be sent, and the advice says how much can
  const whole = await tpkit(['send', '--key', devFile, '--from', dev, '--to', address, '--amount', '1000000000000000', '--currency', 'SK']);
  assert.is(whole.code, 1, whole.err);
  assert.match(whole.err, new RegExp(`^tpkit send: 1000000000000000 SK and the fee of (\\d+) SK come to \\d+ SK, more than wallet ${dev} holds \\(1000000000000000 SK\\): send at most \\d+ SK`));
  const fee = BigInt(/the fee of (\d+) SK/.exec(whole.err)![1]);
  assert.match(whole.err, new RegExp(`send at most ${1000000000000000n - fee} SK`));
  // a mistyped address names the flag it came from
  for (const flag of ['--to', '--from']) {
    const typo = await tpkit(['send', '--key', devFile, '--from', dev, '--to', address, '--amount', '1', '--currency', 'SK', flag, address.slice(0, -1) + ((Number(address.slice(-1)) + 1) % 10)]);
    assert.is(typo.code, 2);
    assert.match(typo.err, new RegExp(`^tpkit send: ${flag}: Address checksum does not match`));
  }
  assert.is(node.chain.height, heightBefore, 'nothing reached the node');
  assert.is(node.chain.mempool.size, 0);

  // --create sends to a new address; --no-wait prints the real txid
  const created = await tpkit(['send', '--key', devFile, '--from', dev, '--to', nowhere, '--amount', '5', '--currency', 'SK', '--create', '--no-wait']);
  assert.is(created.code, 0, created.err);
  const txid = /txid     (\S+)/.exec(created.out)![1];
  assert.match(created.out, new RegExp(`status   submitted; see \`tpkit status ${txid}\``));
  const status = await node.get(`/api/tx/status/${txid}`);
  assert.is(status.status, 200, 'the printed txid is one the node knows');
  await node.chain.settle();
  assert.is((await node.get(`/api/address/${nowhere}`)).body.info.amount.SK, 5);
});

test('sending to the sending wallet itself warns that only the fee is spent', async () => {
  const before = (await node.get(`/api/address/${dev}`)).body.info.amount.SK;
  const r = await tpkit(['send', '--key', devFile, '--from', dev, '--to', dev, '--amount', '5', '--currency', 'SK', '--json']);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, new RegExp(`^warning: --to ${dev} is the sending wallet itself: the amount comes back to it, and the fee is spent$`, 'm'));
  const fee = BigInt(JSON.parse(r.out).fee);
  assert.ok(fee > 0n);
  assert.is(BigInt((await node.get(`/api/address/${dev}`)).body.info.amount.SK), BigInt(before) - fee);
  // another recipient: no such warning
  const other = await tpkit(['send', '--key', devFile, '--from', dev, '--to', address, '--amount', '1', '--currency', 'SK', '--json']);
  assert.is(other.code, 0, other.err);
  assert.not.match(other.err, /sending wallet itself/);
});

test('a fee in another currency than the amount must be held too, before signing', async () => {
  const fees = await startTestNode({ accounts: 1, balance: { SK: 1000n, FEE: 2n }, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n }, FEE: { base: 5n, baseextra: 64n, kb: 1000n } } });
  try {
    const from = addressToText(fees.chain.accounts[0].address);
    const args = ['send', '--key', devFile, '--from', from, '--to', from, '--amount', '1', '--currency', 'SK', '--fee-currency', 'FEE', '--node', fees.url];
    const r = await tpkit(args);
    assert.is(r.code, 1, r.err);
    assert.match(
      r.err,
      new RegExp(`^tpkit send: the fee of \\d+ FEE is more than wallet ${from} holds \\(2 FEE\\): fund the wallet with FEE, or pay the fee in another currency \\(--fee-currency\\)`, 'm'),
    );
    const unknown = await tpkit([...args.slice(0, -4), '--fee-currency', 'XYZ', '--node', fees.url]);
    assert.is(unknown.code, 1, unknown.err);
    assert.match(unknown.err, /\[FEE_UNKNOWN\]\n  pay the fee in a currency the node has a rate for \(--fee-currency; `tpkit settings current\.fee` lists them\), or give --fee N\./);
    assert.is(fees.chain.mempool.size, 0, 'nothing was sent');
  } finally {
    await fees.close();
  }
});

test('a key file used against another chain warns (send, balance); without --from the error never mentions --from', async () => {
  // fund the registered wallet so it can send
  await node.post('/api/dev/faucet', JSON.stringify({ address, amount: 1000 }));
  const elsewhere = await tpkit(['send', '--key', walletFile, '--to', dev, '--amount', '1', '--currency', 'SK', '--node', other.url]);
  assert.is(elsewhere.code, 1);
  assert.match(elsewhere.err, new RegExp(`^warning: .*wallet\\.key names wallet ${address} on chain 1 at ${node.url.replace(/[.]/g, '\\.')}; ${other.url.replace(/[.]/g, '\\.')} runs chain 7`));
  assert.match(elsewhere.err, new RegExp(`the sending wallet ${address} does not exist on this node: .*wallet\\.key names it`));
  assert.not.match(elsewhere.err, /--from/);
  const balanceElsewhere = await tpkit(['balance', '--key', walletFile, '--node', other.url]);
  assert.is(balanceElsewhere.code, 1);
  assert.match(balanceElsewhere.err, new RegExp(`^warning: .*wallet\\.key names wallet ${address} on chain 1 .* runs chain 7, where that wallet does not live`));
  assert.match(balanceElsewhere.err, /no wallet has that address on this node/);
  const fresh = join(dir, 'fresh.key');
  assert.is((await tpkit(['keygen', '--out', fresh])).code, 0);
  const unregistered = await tpkit(['balance', '--key', fresh]);
  assert.is(unregistered.code, 2);
  assert.match(
    unregistered.err,
    /^tpkit balance: .*fresh\.key records no wallet address: if this key already has a wallet, give the ADDRESS or record it once with tpkit keygen --key .*; only a key that never had a wallet needs tpkit register --key /,
  );
  const home = await tpkit(['send', '--key', walletFile, '--to', dev, '--amount', '1', '--currency', 'SK']);
  assert.is(home.code, 0, home.err);
  assert.not.match(home.err, /warning/);
});

test.run();
