// A receipt's effectiveGasPrice is what its transaction paid per gas, as the node charged it: a
// legacy transaction's gasPrice; an EIP-1559 one's min(maxFeePerGas, base fee 0 + priority fee).
// The balance the sender lost is checked against it, so the receipt and the charge cannot part.
// Inside the EVM, BASEFEE and GASPRICE agree with what blocks and receipts say.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { ethFunder } from '../helpers/eth-funding.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const payee = `0x${'61'.repeat(20)}` as const;
let node: TestNode;

const rpc = async (method: string, params: unknown[]) => {
  const res = await fetch(`${node.url}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: any; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
};
const balanceOf = async (who: string) => BigInt(await rpc('eth_getBalance', [who, 'latest']));

test.before(async () => {
  node = await startTestNode({ accounts: 2, minGasPrice: 2 });
});
test.after(() => node.close());

test('effectiveGasPrice is the price each transaction paid, not eth_gasPrice', async () => {
  const account = privateKeyToAccount(`0x${'62'.repeat(32)}`);
  const [a, b] = node.chain.accounts;
  await (await ethFunder(node.url, a, b)).fund(account.address, 10n ** 9n);
  const chainId = Number(node.chain.ethChainId);
  assert.is(await rpc('eth_gasPrice', []), '0x2');
  const cases = [
    { paid: 7n, raw: await account.signTransaction({ type: 'legacy', to: payee, nonce: 0, gas: 21_000n, gasPrice: 7n, value: 1n, chainId }) },
    // Base fee 0: the priority fee, under the fee cap.
    { paid: 5n, raw: await account.signTransaction({ type: 'eip1559', to: payee, nonce: 1, gas: 21_000n, maxFeePerGas: 9n, maxPriorityFeePerGas: 5n, value: 1n, chainId }) },
    // The fee cap when it is the lower one.
    { paid: 3n, raw: await account.signTransaction({ type: 'eip1559', to: payee, nonce: 2, gas: 21_000n, maxFeePerGas: 3n, maxPriorityFeePerGas: 3n, value: 1n, chainId }) },
  ];
  for (const { paid, raw } of cases) {
    const before = await balanceOf(account.address);
    const hash = await rpc('eth_sendRawTransaction', [raw]);
    await node.chain.settle();
    const receipt = await rpc('eth_getTransactionReceipt', [hash]);
    assert.is(receipt.status, '0x1');
    assert.is(receipt.effectiveGasPrice, `0x${paid.toString(16)}`);
    assert.is(before - (await balanceOf(account.address)), BigInt(receipt.gasUsed) * paid + 1n, 'the charge matches the receipt');
  }
});

test('inside the EVM: BASEFEE is the base fee blocks report, GASPRICE the price the transaction pays (0 in a view)', async () => {
  const block = await rpc('eth_getBlockByNumber', ['latest', false]);
  assert.is(block.baseFeePerGas, '0x2');
  // BASEFEE and GASPRICE, returned as two words.
  const view = await rpc('eth_call', [{ data: '0x48600052' + '3a602052' + '60406000f3' }, 'latest']);
  assert.is(view, '0x' + 2n.toString(16).padStart(64, '0') + '0'.repeat(64));
  // A create whose init code stores GASPRICE in slot 0 and BASEFEE in slot 1.
  const account = privateKeyToAccount(`0x${'63'.repeat(32)}`);
  const [a, b] = node.chain.accounts;
  await (await ethFunder(node.url, a, b)).fund(account.address, 10n ** 9n);
  const raw = await account.signTransaction({ type: 'legacy', nonce: 0, gas: 100_000n, gasPrice: 7n, data: '0x3a6000554860015500', chainId: Number(node.chain.ethChainId) });
  const hash = await rpc('eth_sendRawTransaction', [raw]);
  await node.chain.settle();
  const receipt = await rpc('eth_getTransactionReceipt', [hash]);
  assert.is(receipt.status, '0x1');
  const slot = async (n: number) => BigInt(await rpc('eth_getStorageAt', [receipt.contractAddress, `0x${n}`, 'latest']));
  assert.is(await slot(0), 7n, 'GASPRICE: the transaction pays 7');
  assert.is(await slot(1), 2n, 'BASEFEE: the blocks report 2');
});

test.run();
