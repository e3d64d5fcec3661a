// Ethereum transactions as eth_sendRawTransaction takes them (eth-tx.ts), signed by viem: each
// type decoded to the body the node keeps (sender recovered, the price a sender pays at a base
// fee of 0, the hash), a transaction of another chain refused in the node's words, and what
// tells an Ethereum transaction from a ThePower container by its first byte.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { ValidationError } from '../../src/errors.js';
import { decodeEthTx, isEthTx } from '../../src/node/evm/eth-tx.js';
import { EvmRunner } from '../../src/node/evm/runner.js';

const CHAIN = 1_000_000_001n;
const account = privateKeyToAccount(`0x${'42'.repeat(32)}`);
const from = account.address.slice(2).toLowerCase();
const to = `0x${'44'.repeat(20)}` as const;
let runner: EvmRunner;
const sign = async (tx: Parameters<typeof account.signTransaction>[0]) => hexToBytes(await account.signTransaction(tx));
const decode = (raw: Uint8Array) => decodeEthTx(raw, runner.library, runner.common, CHAIN);

test.before(async () => {
  runner = await EvmRunner.create(CHAIN);
});

test('a legacy EIP-155 transaction: every field of the body, the sender recovered, the hash its keccak', async () => {
  const raw = await sign({ type: 'legacy', to, nonce: 7, gas: 50_000n, gasPrice: 3n, value: 1_000n, data: '0xa9059cbb', chainId: Number(CHAIN) });
  const body = decode(raw);
  assert.equal(
    { ...body, v: undefined, r: undefined, s: undefined },
    {
      kind: 'ether',
      from,
      to: '44'.repeat(20),
      nonce: 7n,
      gasLimit: 50_000n,
      gasPrice: 3n,
      value: 1_000n,
      data: hexToBytes('a9059cbb'),
      hash: bytesToHex(keccak_256(raw)),
      type: 0,
      v: undefined,
      r: undefined,
      s: undefined,
      chainId: CHAIN,
    },
  );
  assert.ok(body.v === 35n + 2n * CHAIN || body.v === 36n + 2n * CHAIN, `v ${body.v}`);
  assert.ok(body.r > 0n && body.s > 0n);
});

test('a create has no "to"; an unprotected legacy transaction (no chain id) is taken', async () => {
  const create = decode(await sign({ type: 'legacy', nonce: 0, gas: 100_000n, gasPrice: 0n, data: '0x6000', chainId: Number(CHAIN) }));
  assert.not.ok('to' in create);
  const unprotected = decode(await sign({ type: 'legacy', to, nonce: 1, gas: 21_000n, gasPrice: 1n }));
  assert.is(unprotected.from, from);
  assert.ok(unprotected.v === 27n || unprotected.v === 28n, `v ${unprotected.v}`);
  assert.is(unprotected.chainId, CHAIN, 'the body says the chain it runs on');
});

test('typed transactions: EIP-2930 pays its gas price; EIP-1559 the smaller of its tip and its fee cap (the base fee is 0)', async () => {
  const t2930 = decode(await sign({ type: 'eip2930', to, nonce: 2, gas: 21_000n, gasPrice: 9n, accessList: [], chainId: Number(CHAIN) }));
  assert.equal([t2930.type, t2930.gasPrice, t2930.from], [1, 9n, from]);
  const tip = decode(await sign({ type: 'eip1559', to, nonce: 3, gas: 21_000n, maxFeePerGas: 5n, maxPriorityFeePerGas: 2n, chainId: Number(CHAIN) }));
  assert.equal([tip.type, tip.gasPrice], [2, 2n]);
  const capped = decode(await sign({ type: 'eip1559', to, nonce: 3, gas: 21_000n, maxFeePerGas: 4n, maxPriorityFeePerGas: 4n, chainId: Number(CHAIN) }));
  assert.is(capped.gasPrice, 4n);
  assert.ok(tip.v === 0n || tip.v === 1n, `y parity ${tip.v}`);
});

test("another chain's transaction is refused naming both chains; bytes that do not decode are refused with the decoder's first line", async () => {
  for (const type of ['legacy', 'eip1559'] as const) {
    const raw = await sign(
      type === 'legacy' ? { type, to, nonce: 0, gas: 21_000n, gasPrice: 1n, chainId: 5 } : { type, to, nonce: 0, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId: 5 },
    );
    try {
      decode(raw);
      assert.unreachable(type);
    } catch (err) {
      assert.instance(err, ValidationError);
      const e = err as ValidationError;
      assert.equal([e.code, e.field, e.message], ['BODY_BAD_FIELD', 'transaction', `Invalid Ethereum transaction: signed for chain id 5, this node is ${CHAIN}`], type);
    }
  }
  try {
    decode(new Uint8Array([0xf8, 0x01, 0x00]));
    assert.unreachable();
  } catch (err) {
    const e = err as ValidationError;
    assert.equal([e.code, e.field, e.shortMessage], ['BODY_BAD_FIELD', 'transaction', 'Invalid Ethereum transaction']);
    assert.ok(e.details && !e.details.includes('\n') && e.details.length <= 200, e.details);
  }
});

test('the first byte: a type below 0x80 or a long RLP list is Ethereum; a MessagePack map is not', () => {
  for (const first of [0x00, 0x01, 0x02, 0x7f, 0xf8, 0xf9, 0xff]) assert.ok(isEthTx(new Uint8Array([first, 0])), first.toString(16));
  for (const first of [0x80, 0x85, 0x8f, 0xde, 0xdf, 0xc0, 0xf7]) assert.not.ok(isEthTx(new Uint8Array([first, 0])), first.toString(16));
  assert.not.ok(isEthTx(new Uint8Array(0)));
  assert.ok(isEthTx(new Uint8Array([0x02])), 'one byte is enough to tell (the decoder then refuses it)');
  assert.not.ok(isEthTx(new Uint8Array([0x80])));
});

test.run();
