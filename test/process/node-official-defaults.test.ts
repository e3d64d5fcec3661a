// `tpkit node` with its defaults, as the official clients meet it: the banner gives each
// development key as WIF (what the official wallet imports) and names tpkit export; the
// development accounts hold more than the official SDK reserves for gas; and a registration
// from the SDK, which carries no proof of work, is refused with a message that says so and
// how to start a node for it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { defaultConfig } from '../../src/node/config/config.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';
import { fromWif, sdk, toWif } from '../helpers/tssdk-helpers.js';

/** The gas the official SDK adds to a contract call (TransactionsApi.autoAddGas), in units. */
const SDK_GAS_RESERVE = 2_000_000_000_000_000_000n;
let node: NodeProcess;

test.before(async () => {
  node = await spawnNode(['--memory', '--port', '0', '--log-level', 'warn']);
});

test.after(async () => {
  await node?.stop();
});

test('the banner prints each development key as hex and as WIF, the same key, and names tpkit export', () => {
  const banner = node.stdout();
  const accounts = [...banner.matchAll(/\((\d+)\) (AA\d{18}) .*\n\s+secret key ([0-9a-f]{64})\n\s+WIF\s+(\S+)/g)];
  assert.is(accounts.length, defaultConfig().accounts);
  for (const [, , , hex, wif] of accounts) assert.is(bytesToHex(fromWif(wif)), hex, "the SDK's WIF decoder reads the key printed in hex");
  assert.match(banner, 'tpkit export');
});

test('each development account holds more than the SDK gas reserve plus a transfer and its fee', async () => {
  const [, address] = /\(0\) (AA\d{18})/.exec(node.stdout())!;
  // Read as text: the balance is above 2^53.
  const text = await (await fetch(`${node.url}/api/address/${address}`)).text();
  const sk = BigInt(/"SK":(\d+)/.exec(text)![1]);
  assert.ok(sk > SDK_GAS_RESERVE * 2n, `${sk} SK units`);
  assert.is(defaultConfig().balance.SK, sk);
});

test('an SDK registration at the default difficulty: 400 POW_TOO_LOW saying no proof of work was sent and how to start a node for it', async () => {
  const tx = await sdk.TransactionsApi.composeRegisterTX(toWif(generateSecretKey()));
  const res = await fetch(`${node.url}/api/tx/new`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx }) });
  const body = (await res.json()) as { error: string; msg: string; details: string };
  assert.is(res.status, 400);
  assert.is(body.error, 'POW_TOO_LOW');
  assert.match(body.msg, `carries no proof of work (no nonce in its body) and this chain asks for ${defaultConfig().difficulty} bits`);
  assert.match(body.msg, 'tpkit node --difficulty 0');
});

test.run();
