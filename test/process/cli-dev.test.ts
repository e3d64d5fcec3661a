// The development commands as a wallet developer runs them, the real binary against a real
// `tpkit node` process: faucet, accounts, --reset, a busy port, genesis-only flags on an
// existing chain (and none without them), --no-dev-api.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { wifToSecretKey } from '../../src/keys/wif.js';
import { runTpkit } from '../helpers/cli-run.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-cli-dev-'));
const FRESH = 'AA100000001677736914';

function startNodeProcess(args: string[]): Promise<NodeProcess> {
  return spawnNode(['--data-dir', join(dir, 'chain'), '--difficulty', '0', '--log-level', 'warn', ...args]);
}

const tpkit = (...args: string[]) => runTpkit(args);

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('faucet and accounts against a running node; the money stays after a restart; --reset starts over', async () => {
  let node = await startNodeProcess(['--port', '0', '--accounts', '2']);
  try {
    const credited = await tpkit('faucet', FRESH, '2500', '--node', node.url);
    assert.is(credited.code, 0, credited.err);
    assert.match(credited.out, /credited 2500 SK to AA100000001677736914 in block \d+/);
    assert.match(credited.out, /balance  2500 SK/);
    const json = JSON.parse((await tpkit('faucet', FRESH, '7', '--currency', 'XYZ', '--node', node.url, '--json')).out);
    assert.equal([json.currency, json.amount, json.balance], ['XYZ', '7', '7']);
    const accounts = await tpkit('accounts', '--node', node.url);
    assert.is(accounts.code, 0, accounts.err);
    assert.match(accounts.out, /\(0\) AA\d{18}  0x[0-9a-f]{16}  5000000000000000000 SK\n    secret key [0-9a-f]{64}\n    WIF        [KL][1-9A-HJ-NP-Za-km-z]{51}\n/);
    assert.match(accounts.out, /\(1\) AA\d{18}/);
    assert.match(accounts.out, /Never use them on a real chain/);
    const listed = JSON.parse((await tpkit('accounts', '--node', node.url, '--json')).out) as { secretKey: string; wif: string }[];
    assert.is(listed.length, 2);
    assert.is(bytesToHex(wifToSecretKey(listed[0].wif)), listed[0].secretKey, 'the WIF is the same key');
    const bad = await tpkit('faucet', FRESH, '1.5', '--node', node.url);
    assert.is(bad.code, 2, bad.err);
    await node.stop();

    // genesis-only flags on the existing chain: a warning, and the chain is unchanged
    node = await startNodeProcess(['--port', '0', '--accounts', '5']);
    assert.match((await tpkit('balance', FRESH, '--node', node.url)).out, /balance  2500 SK/);
    assert.is(JSON.parse((await tpkit('accounts', '--node', node.url, '--json')).out).length, 2);
    await node.stop();
    assert.match(node.stderr(), /warning: --accounts only shape a new chain; .*add --reset/);

    // the same chain started without genesis-only flags: nothing to warn about
    node = await startNodeProcess(['--port', '0']);
    assert.match((await tpkit('balance', FRESH, '--node', node.url)).out, /balance  2500 SK/);
    await node.stop();
    assert.not.match(node.stderr(), /only shape a new chain/);

    node = await startNodeProcess(['--port', '0', '--accounts', '5', '--reset']);
    assert.is((await tpkit('balance', FRESH, '--node', node.url)).code, 1, 'the fresh chain has no such wallet');
    assert.is(JSON.parse((await tpkit('accounts', '--node', node.url, '--json')).out).length, 5);
    await node.stop();
    assert.match(node.stderr(), /--reset: deleted the chain/);
    assert.not.match(node.stderr(), /warning/);
  } finally {
    await node.stop();
  }
});

test('a busy port is one line with advice, before the ledger is opened; --no-dev-api refuses the faucet with advice', async () => {
  const node = await startNodeProcess(['--port', '0', '--no-dev-api']);
  try {
    const port = new URL(node.url).port;
    const busy = await tpkit('node', '--data-dir', join(dir, 'other'), '--port', port);
    assert.is(busy.code, 1);
    assert.is(busy.err.trim().split('\n').length, 1, busy.err);
    assert.match(busy.err, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use.*--port.*\\[PORT_IN_USE\\]`));
    const refused = await tpkit('faucet', FRESH, '5', '--node', node.url);
    assert.is(refused.code, 1);
    assert.match(refused.err, /DEV_API_DISABLED|development API is off/);
    assert.match(refused.err, /--no-dev-api/);
  } finally {
    await node.stop();
  }
});

test.run();
