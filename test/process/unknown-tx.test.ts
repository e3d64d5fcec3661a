// A txid the node never accepted: the node answers 404 TX_NOT_FOUND, the client throws
// UnknownTxError at once (no polling until the timeout), `tpkit status` says so and exits 1;
// a pending one still reads as pending.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { createClient, UnknownTxError } from '../../src/client/index.js';
import { pay, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

const NEVER = '26CmF99wJRUJHd1-c4n1';
let node: TestNode;

test.before(async () => {
  node = await startTestNode({ instant: false, blockTime: 3_600_000 });
});

test.after(async () => {
  await node.close();
});

test('client: getTxStatus and waitForTx throw UnknownTxError for an id never accepted, null for a pending one', async () => {
  const client = createClient({ baseUrl: node.url });
  for (const call of [() => client.getTxStatus(NEVER), () => client.waitForTx(NEVER, { timeoutMs: 60_000 })]) {
    try {
      await call();
      assert.unreachable('an unknown txid was answered');
    } catch (err) {
      assert.instance(err, UnknownTxError);
      assert.is((err as UnknownTxError).code, 'TX_NOT_FOUND');
      assert.is((err as UnknownTxError).txid, NEVER);
    }
  }
  const a = node.chain.accounts[0];
  const { body } = await node.submit(transfer({ key: a.secretKey, from: a.address, to: node.chain.accounts[1].address, seq: 1, t: Date.now(), payload: [pay(1)] }));
  assert.is(await client.getTxStatus(body.txid), null);
});

/** Runs the CLI without blocking this process, which serves the node. */
async function run(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runTpkit(['status', NEVER, '--node', node.url, ...args]);
  return { status: r.code, stdout: r.out, stderr: r.err };
}

test('tpkit status: "unknown transaction", exit 1, also with --wait and --json', async () => {
  for (const r of [await run(), await run('--wait')]) {
    assert.is(r.status, 1, r.stderr);
    assert.match(r.stdout, /unknown transaction/);
  }
  const json = await run('--json');
  assert.is(json.status, 1);
  assert.equal(JSON.parse(json.stdout), { txid: NEVER, state: 'unknown' });
});

test.run();
