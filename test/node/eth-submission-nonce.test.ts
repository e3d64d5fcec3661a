// eth_sendRawTransaction's nonce rules on an in-process node, as Ethereum nodes answer: the
// account's next nonce is taken; a nonce already used by another transaction is "nonce too low";
// the very same signed bytes sent again, pending or included, are the first transaction again
// (its txid, nothing queued), not a second one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { hexToBytes } from '../../src/bytes.js';
import { startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';

const account = privateKeyToAccount(`0x${'33'.repeat(32)}`);
const payee = `0x${'44'.repeat(20)}` as const;

let node: TestNode;
let chainId: number;
test.before(async () => {
  node = await startTestNode({ accounts: 0 });
  chainId = Number(node.chain.ethChainId);
});
test.after(() => node.close());

const signed = async (nonce: number, data: `0x${string}` = '0x') =>
  hexToBytes(await account.signTransaction({ type: 'legacy', to: payee, nonce, gas: 100_000n, gasPrice: 0n, chainId, data }));

const refusal = async (raw: Uint8Array) => {
  try {
    await node.chain.submitEth(raw);
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('accepted');
};

test('nonce 0 of a new account is taken and included; the same bytes again answer with its txid and queue nothing', async () => {
  const raw = await signed(0);
  // Sent twice at once (an answer lost on the way): one transaction, the second answer names it.
  const [first, twin] = await Promise.all([node.chain.submitEth(raw), node.chain.submitEth(raw)]);
  assert.is(first.duplicate, false);
  assert.equal(twin, { ...first, duplicate: true });
  assert.is((await waitStatus(node, first.txid)).ok, true);
  const height = node.chain.height;
  const again = await node.chain.submitEth(raw);
  assert.equal(again, { ...first, duplicate: true }, 'the first transaction, not a new one');
  assert.is(node.chain.height, height, 'no block for a transaction already included');
});

test('another transaction with a used nonce is "nonce too low", naming the next nonce; that next nonce is taken', async () => {
  const used = await refusal(await signed(0, '0x01'));
  assert.is(used.code, 'BODY_BAD_FIELD');
  assert.is(used.message, "Nonce too low: nonce 0; the account's next nonce is 1");
  const next = await node.chain.submitEth(await signed(1));
  assert.is(next.duplicate, false);
  assert.is((await waitStatus(node, next.txid)).ok, true);
  const stale = await refusal(await signed(1, '0x02'));
  assert.is(stale.message, "Nonce too low: nonce 1; the account's next nonce is 2");
});

test.run();
