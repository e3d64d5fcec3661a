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

test("data of 55 and 56 bytes, the two forms of an RLP string's length, before a legacy v", async () => {
  for (const size of [54, 55, 56, 255, 256]) {
    const data = `0x${'cd'.repeat(size)}` as const;
    assert.is(signedChainId(await raw({ type: 'legacy', to, nonce: 0, gas: 21_000n, gasPrice: 0n, chainId: 7, data })), 7n, `${size} bytes`);
  }
});

// Hand-made RLP, no signature: the reader looks at the chain id field alone.
const typed = (...bytes: number[]) => signedChainId(new Uint8Array([0x02, ...bytes]));
const legacy = (v: number[]) => signedChainId(new Uint8Array([0xc6 + v.length, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, ...v]));

test("a typed transaction's chain id: a single byte, the empty string (0), a short and a long string", () => {
  assert.is(typed(0xc1, 0x05), 5n);
  assert.is(typed(0xc1, 0x7f), 127n, 'the largest single byte');
  assert.is(typed(0xc1, 0x80), 0n, 'the empty string is 0');
  assert.is(typed(0xc2, 0x81, 0x80), 128n);
  assert.is(typed(0xc3, 0x82, 0x01, 0x00), 256n);
  assert.is(signedChainId(new Uint8Array([0x01, 0xc2, 0x81, 0xff])), 255n, 'EIP-2930');
  const long = [0xb8, 56, ...new Array(55).fill(0), 9];
  assert.is(typed(0xf8, long.length, ...long), 9n, 'a 56-byte string: one length byte');
  const short = [0xb7, ...new Array(54).fill(0), 3];
  assert.is(typed(0xf8, short.length, ...short), 3n, 'a 55-byte string: the short form');
  const list55 = [0xb6, ...new Array(53).fill(0), 4];
  assert.is(typed(0xf7, ...list55), 4n, 'a list of 55 bytes: the short form');
  const list56 = [0xb7, ...new Array(54).fill(0), 6];
  assert.is(typed(0xf8, 56, ...list56), 6n, 'a list of 56 bytes: one length byte');
  assert.is(typed(0xf9, 0x00, 0x02, 0x81, 0x80), 128n, 'a list with two length bytes');
});

test('a legacy v: 35 + 2 id (EIP-155), below 35 none', () => {
  assert.is(legacy([35]), 0n);
  assert.is(legacy([36]), 0n);
  assert.is(legacy([37]), 1n);
  assert.is(legacy([38]), 1n);
  assert.is(legacy([39]), 2n);
  assert.is(legacy([34]), null);
  assert.is(legacy([27]), null);
  assert.is(legacy([28]), null);
  assert.is(legacy([0x84, 0x77, 0x35, 0x94, 0x25]), 1_000_000_001n, 'v = 35 + 2 (10^9 + 1)');
});

test('unreadable: a chain id that is a list, a field past the end of its list or of the bytes, a type byte that is no known type', () => {
  assert.is(typed(0xc1, 0xc0), undefined, 'a list where the id should be');
  assert.is(typed(0xca, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0), undefined, 'an empty list, then zeros');
  assert.is(typed(0xc0), undefined, 'an empty list: no id');
  assert.is(typed(0xc0, 0x05), undefined, 'the id after its list');
  assert.is(typed(0xc1, 0x82, 0x01, 0x01), undefined, 'an id longer than its list');
  assert.is(typed(0xc2, 0xb9, 0x01), undefined, 'length bytes cut short');
  assert.is(typed(0xf9, 0x01), undefined, 'a list whose length bytes are cut short');
  assert.is(signedChainId(new Uint8Array([0x03, 0xc1, 0x05])), undefined, 'type 3 is not read');
  assert.is(legacy([0xc0]), undefined, 'v a list');
  assert.is(signedChainId(new Uint8Array([0xc2, 0x80, 0x80])), undefined, 'a legacy list of two fields: no v');
  assert.is(signedChainId(new Uint8Array([0xc7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x82, 0x01, 0x01, 0x25])), undefined, 'a field before v past the list');
  assert.is(signedChainId(new Uint8Array([0xc7, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x25])), undefined, 'v past the list');
});

test.run();
