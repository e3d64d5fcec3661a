// The chain id read from a raw Ethereum transaction before it is decoded, against transactions
// viem signs: legacy with and without EIP-155, EIP-2930 and EIP-1559, short and long data.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { hexToBytes } from '../../src/bytes.js';
import { signedChainId } from '../../src/node/evm/eth-chain-id.js';

const account = privateKeyToAccount(`0x${'33'.repeat(32)}`);
const to = `0x${'44'.repeat(20)}` as const;
const raw = async (tx: Parameters<typeof account.signTransaction>[0]) => hexToBytes(await account.signTransaction(tx));

test('each kind of transaction gives the chain id it was signed for', async () => {
  for (const chainId of [1, 5, 1_000_000_001, 2 ** 40]) {
    for (const data of ['0x', `0x${'ab'.repeat(300)}`] as const) {
      assert.is(signedChainId(await raw({ type: 'legacy', to, nonce: 3, gas: 21_000n, gasPrice: 1n, chainId, data })), BigInt(chainId), `legacy ${chainId}`);
      assert.is(signedChainId(await raw({ type: 'eip2930', to, nonce: 3, gas: 21_000n, gasPrice: 1n, chainId, data, accessList: [] })), BigInt(chainId), `2930 ${chainId}`);
      assert.is(signedChainId(await raw({ type: 'eip1559', to, nonce: 3, gas: 21_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, chainId, data })), BigInt(chainId), `1559 ${chainId}`);
    }
  }
});

test('a legacy transaction without EIP-155 names no chain; unreadable bytes give undefined', async () => {
  const unprotected = await raw({ type: 'legacy', to, nonce: 0, gas: 21_000n, gasPrice: 1n });
  assert.is(signedChainId(unprotected), null);
  assert.is(signedChainId(new Uint8Array()), undefined);
  assert.is(signedChainId(new Uint8Array([0x02])), undefined);
  assert.is(signedChainId(new Uint8Array([0x02, 0x05])), undefined, 'not a list');
  assert.is(signedChainId(unprotected.subarray(0, 20)), undefined, 'cut short');
  assert.is(signedChainId(new Uint8Array([0xf8, 0xff, 0x01])), undefined, 'a list longer than the bytes');
});

test.run();
