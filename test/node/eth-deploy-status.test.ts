// The status of an Ethereum transaction that creates a contract: the new contract's address as
// its result and its address, and the block that included it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getContractAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { hexToBytes } from '../../src/bytes.js';
import { ethFunder } from '../helpers/eth-funding.js';
import { startTestNode, waitStatus } from '../helpers/node-helpers.js';

test('a deploy settles as {res, address: the new contract, block: its block}', async () => {
  const node = await startTestNode({ accounts: 2 });
  try {
    const account = privateKeyToAccount(`0x${'35'.repeat(32)}`);
    const [a, b] = node.chain.accounts;
    await (await ethFunder(node.url, a, b)).fund(account.address, 10n ** 9n);
    // Init code 0x00 (STOP): a contract with no code.
    const raw = hexToBytes(await account.signTransaction({ type: 'legacy', nonce: 0, gas: 100_000n, gasPrice: 1n, chainId: Number(node.chain.ethChainId), data: '0x00' }));
    const { txid } = await node.chain.submitEth(raw);
    const status = (await waitStatus(node, txid)) as Record<string, unknown>;
    const created = getContractAddress({ from: account.address, nonce: 0n }).toLowerCase();
    const block = await node.chain.blockAt(node.chain.height);
    assert.equal(status, { ok: true, res: created, address: created, block: block!.hash });
  } finally {
    await node.close();
  }
});

test.run();
