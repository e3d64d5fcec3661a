// A ready Ethereum transaction whose write-ahead fails: its caller gets STORE_UNAVAILABLE, and the
// same account's transactions acknowledged behind it never stay pending forever: each ends with
// a stated reason, and the account can go on from the failed nonce.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { hexToBytes } from '../../src/bytes.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import { ethFunder } from '../helpers/eth-funding.js';
import { startTestNode, waitStatus } from '../helpers/node-helpers.js';

const account = privateKeyToAccount(`0x${'57'.repeat(32)}`);
const payee = `0x${'58'.repeat(20)}` as const;

/** A memory store whose next batch waits for `release` and then fails. */
class FailNextStore extends MemoryStore {
  private armed: { entered: () => void; release: Promise<void> } | undefined;
  arm(): { entered: Promise<void>; fail: () => void } {
    let entered!: () => void;
    let fail!: () => void;
    const enteredP = new Promise<void>((r) => (entered = r));
    this.armed = { entered, release: new Promise<void>((r) => (fail = r)) };
    return { entered: enteredP, fail };
  }
  override async batch(ops: StoreOp[]): Promise<void> {
    const armed = this.armed;
    if (armed) {
      this.armed = undefined;
      armed.entered();
      await armed.release;
      throw new Error('disk full');
    }
    return super.batch(ops);
  }
}

test('a failed write of nonce n: STORE_UNAVAILABLE to its caller; n+1 and n+3 acknowledged after it end with a stated reason', async () => {
  const store = new FailNextStore();
  const node = await startTestNode({ accounts: 2 }, { store });
  try {
    const chainId = Number(node.chain.ethChainId);
    const [a, b] = node.chain.accounts;
    await (await ethFunder(node.url, a, b)).fund(account.address, 10n ** 9n);
    const signed = async (nonce: number) => hexToBytes(await account.signTransaction({ type: 'legacy', to: payee, nonce, gas: 21_000n, gasPrice: 1n, chainId, value: 1n }));
    const raws = await Promise.all([0, 1, 3].map(signed));
    const plant = store.arm();
    const first = node.chain.submitEth(raws[0]).then(
      () => undefined,
      (err: { code: string }) => err,
    );
    await plant.entered;
    // Sent while nonce 0's write is in flight: nonce 1 is ready behind it, nonce 3 waits for 2.
    const follow = [node.chain.submitEth(raws[1]), node.chain.submitEth(raws[2])];
    // Both are queued (ready and waiting) before the write of nonce 0 fails.
    while (node.chain.mempool.size < 3) await new Promise((r) => setImmediate(r));
    plant.fail();
    assert.is((await first)?.code, 'STORE_UNAVAILABLE');
    const [one, three] = await Promise.all(follow);
    await node.chain.mineBlock();
    await node.chain.exclusive(async () => undefined); // every write queued so far is on disk
    for (const { txid } of [one, three]) {
      const json = await node.chain.statusJson(txid);
      assert.ok(json !== null, `${txid === one.txid ? 'nonce 1' : 'nonce 3'} still pending`);
      const end = JSON.parse(json!);
      assert.ok(end.error === true || end.ok === false, json!);
      assert.match(json!, /nonce/, 'a stated reason');
    }
    assert.is(node.chain.mempool.size, 0, 'nothing of the account stays queued');
    // The account goes on from nonce 0.
    const again = await node.chain.submitEth(raws[0]);
    assert.is((await waitStatus(node, again.txid)).ok, true);
  } finally {
    await node.close();
  }
});

test.run();
