// eth_sendRawTransaction's nonce rules on an in-process node, as geth answers: the account's
// next nonce is taken; a nonce already used by another transaction is "nonce too low"; the very
// same signed bytes sent again, pending or included, are "already known" and queue nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { hexToBytes } from '../../src/bytes.js';
import { ethFunder } from '../helpers/eth-funding.js';
import { startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';

const account = privateKeyToAccount(`0x${'33'.repeat(32)}`);
const payee = `0x${'44'.repeat(20)}` as const;

let node: TestNode;
let chainId: number;
test.before(async () => {
  node = await startTestNode({ accounts: 2 });
  chainId = Number(node.chain.ethChainId);
  const [a, b] = node.chain.accounts;
  await (await ethFunder(node.url, a, b)).fund(account.address, 10n ** 9n);
});
test.after(() => node.close());

const signed = async (nonce: number, data: `0x${string}` = '0x') => hexToBytes(await account.signTransaction({ type: 'legacy', to: payee, nonce, gas: 100_000n, gasPrice: 1n, chainId, data }));

const refusal = async (raw: Uint8Array) => {
  try {
    await node.chain.submitEth(raw);
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('accepted');
};

test('nonce 0 of a new account is taken and included; the same bytes again are "already known" and queue nothing', async () => {
  const raw = await signed(0);
  // Sent twice at once (an answer lost on the way): one transaction, the other answer says it is known.
  const both = await Promise.allSettled([node.chain.submitEth(raw), node.chain.submitEth(raw)]);
  const first = both.find((r) => r.status === 'fulfilled')?.value;
  const twin = both.find((r) => r.status === 'rejected')?.reason as { code: string; message: string } | undefined;
  assert.ok(first && !first.duplicate, JSON.stringify(both.map((r) => r.status)));
  assert.is(twin?.code, 'ETH_TX_REFUSED');
  assert.match(twin!.message, /^already known: transaction 0x[0-9a-f]{64}/);
  assert.is((await waitStatus(node, first.txid)).ok, true);
  const height = node.chain.height;
  assert.match((await refusal(raw)).message, /^already known/, 'included: still known');
  assert.is(node.chain.height, height, 'no block for a transaction already included');
});

test('another transaction with a used nonce is "nonce too low", naming the next nonce; that next nonce is taken', async () => {
  const used = await refusal(await signed(0, '0x01'));
  assert.is(used.code, 'ETH_TX_REFUSED');
  assert.is(used.message, `nonce too low: address ${account.address.toLowerCase()}, tx: 0 state: 1`);
  const next = await node.chain.submitEth(await signed(1));
  assert.is(next.duplicate, false);
  assert.is((await waitStatus(node, next.txid)).ok, true);
  const stale = await refusal(await signed(1, '0x02'));
  assert.is(stale.message, `nonce too low: address ${account.address.toLowerCase()}, tx: 1 state: 2`);
});

test.run();
