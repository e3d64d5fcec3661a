// One code-size rule for both deploy doors. A kind-18 deploy: code and arguments over 49,152
// bytes (EIP-3860) are refused at submission; runtime code over 24,576 bytes (EIP-170) fails
// the deploy ("code_too_large"), as an Ethereum create of the same code does. (Before, a
// kind-18 deploy stored any size.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { hexToBytes } from '../../src/bytes.js';
import { createClient } from '../../src/client/client.js';
import { deployContract } from '../../src/client/contract.js';
import { ethFunder } from '../helpers/eth-funding.js';
import { startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
test.before(async () => {
  node = await startTestNode({ accounts: 5 });
});
test.after(() => node.close());

/** Init code that returns `size` zero bytes as the runtime code: PUSH2 size, PUSH1 0, RETURN. */
const returning = (size: number) => `0x61${size.toString(16).padStart(4, '0')}6000f3` as const;

test('kind 18: init code over 49,152 bytes is refused at submission; exactly 49,152 is taken', async () => {
  const client = createClient({ baseUrl: node.url });
  const [a, b] = node.chain.accounts;
  // STOP, then filler: the init code returns nothing, so the runtime code is empty.
  const code = (n: number) => `0x00${'00'.repeat(n - 1)}`;
  let refused: { code?: string; message?: string } | undefined;
  try {
    await deployContract({ client, secretKey: a.secretKey, from: a.address, code: code(49_153), wait: false });
  } catch (err) {
    refused = err as { code?: string; message?: string };
  }
  assert.match(String(refused?.message), /the code and its arguments are 49153 bytes, the limit is 49152/);
  const taken = await deployContract({ client, secretKey: b.secretKey, from: b.address, code: code(49_152), wait: false });
  assert.is((await waitStatus(node, taken.txid)).ok, true);
});

test('kind 18 and an Ethereum create: runtime code of 24,576 bytes deploys, 24,577 fails at both doors', async () => {
  const client = createClient({ baseUrl: node.url });
  const [a, , c, d, e] = node.chain.accounts;
  const fits = await deployContract({ client, secretKey: c.secretKey, from: c.address, code: returning(24_576), wait: false });
  assert.is((await waitStatus(node, fits.txid)).ok, true);
  const over = await deployContract({ client, secretKey: d.secretKey, from: d.address, code: returning(24_577), wait: false });
  const status = await waitStatus(node, over.txid);
  assert.equal([status.error, status.res], [true, 'code_too_large']);
  // The same init code as an Ethereum create fails too (the EVM's own EIP-170 check).
  const account = privateKeyToAccount(`0x${'71'.repeat(32)}`);
  await (await ethFunder(node.url, e, a)).fund(account.address, 10n ** 9n);
  const raw = await account.signTransaction({ type: 'legacy', nonce: 0, gas: 200_000n, gasPrice: 1n, chainId: Number(node.chain.ethChainId), data: returning(24_577) });
  const sent = await node.chain.submitEth(hexToBytes(raw));
  const eth = await waitStatus(node, sent.txid);
  assert.is(eth.error, true, JSON.stringify(eth));
});

test.run();
