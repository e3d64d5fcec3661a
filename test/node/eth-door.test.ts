// The Ethereum door as geth behaves, on an in-process node: transactions of one account sent
// out of nonce order wait for the gap and all run; what cannot pay, is below the intrinsic gas
// or the minimum price, or repeats a nonce is refused at submission with geth's text; a
// transaction that fails in a block has a receipt and uses its nonce; a waiting one is known by
// its hash, counted by "pending", replaceable at a higher price, and survives a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { privateKeyToAccount } from 'viem/accounts';
import { MemoryStore } from '../../src/node/store/store.js';
import { ethFunder, type EthFunder } from '../helpers/eth-funding.js';
import { startTestNode, waitStatus, type TestConfig, type TestNode } from '../helpers/node-helpers.js';

const PRICE = 2n;
const SETTINGS: TestConfig = { accounts: 3, minGasPrice: Number(PRICE) };
const payee = `0x${'44'.repeat(20)}` as const;
const keyN = (n: number) => privateKeyToAccount(`0x${n.toString(16).padStart(2, '0').repeat(32)}`);

const store = new MemoryStore();
let node: TestNode;
let funder: EthFunder;
let chainId: number;

const rpc = async (method: string, params: unknown[]) => {
  const res = await fetch(`${node.url}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
};
const sign = (account: ReturnType<typeof keyN>, tx: { nonce: number; gas?: bigint; gasPrice?: bigint; value?: bigint; to?: `0x${string}` | null; data?: `0x${string}` }) =>
  account.signTransaction({
    type: 'legacy',
    to: tx.to === null ? undefined : (tx.to ?? payee),
    nonce: tx.nonce,
    gas: tx.gas ?? 21_000n,
    gasPrice: tx.gasPrice ?? PRICE,
    value: tx.value ?? 0n,
    data: tx.data,
    chainId,
  });
const send = (raw: string) => rpc('eth_sendRawTransaction', [raw]);
const receiptOf = async (hash: string) => {
  for (let i = 0; i < 500; i++) {
    const r = (await rpc('eth_getTransactionReceipt', [hash])).result;
    if (r) return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no receipt for ${hash}`);
};
const nonceOf = async (who: string, tag = 'latest') => Number((await rpc('eth_getTransactionCount', [who, tag])).result);
const balanceOf = async (who: string) => BigInt((await rpc('eth_getBalance', [who, 'latest'])).result);

test.before(async () => {
  node = await startTestNode(SETTINGS, { store });
  chainId = Number(node.chain.ethChainId);
  const [a, b] = node.chain.accounts;
  funder = await ethFunder(node.url, a, b);
});
test.after(() => node.close());

test('eth_gasPrice is the minimum gas price; a transaction below it is "transaction underpriced"', async () => {
  assert.is((await rpc('eth_gasPrice', [])).result, `0x${PRICE.toString(16)}`);
  const account = keyN(0x51);
  await funder.fund(account.address, 10n ** 9n);
  const answer = await send(await sign(account, { nonce: 0, gasPrice: PRICE - 1n }));
  assert.is(answer.error?.code, -32000);
  assert.match(answer.error!.message, /^transaction underpriced: gas price 1/);
});

test('ten transactions of one account sent in reverse nonce order all run, in nonce order, each with a receipt', async () => {
  const account = keyN(0x52);
  await funder.fund(account.address, 10n ** 9n);
  const raws = await Promise.all(Array.from({ length: 10 }, (_, nonce) => sign(account, { nonce, value: BigInt(nonce + 1) })));
  const hashes: string[] = [];
  for (const raw of [...raws].reverse()) {
    const answer = await send(raw);
    assert.ok(answer.result, JSON.stringify(answer.error));
    hashes.unshift(answer.result);
  }
  const receipts = await Promise.all(hashes.map(receiptOf));
  assert.equal(
    receipts.map((r) => r.status),
    Array(10).fill('0x1'),
  );
  assert.is(await nonceOf(account.address), 10);
  assert.is(await balanceOf(payee), 55n, 'every value arrived');
});

test('a transaction ahead of its nonce waits: known by its hash with no block, not counted by "pending" until the gap fills', async () => {
  const account = keyN(0x53);
  await funder.fund(account.address, 10n ** 9n);
  const ahead = await send(await sign(account, { nonce: 1 }));
  assert.ok(ahead.result, JSON.stringify(ahead.error));
  const waiting = (await rpc('eth_getTransactionByHash', [ahead.result])).result;
  assert.equal([waiting?.hash, waiting?.nonce, waiting?.blockNumber], [ahead.result, '0x1', null]);
  assert.is(await nonceOf(account.address, 'pending'), 0, 'a gap: nothing ready');
  // A replacement must pay 10 % more; one that does takes the place, the first says why it went.
  const cheap = await send(await sign(account, { nonce: 1, gasPrice: PRICE, gas: 21_001n }));
  assert.match(cheap.error?.message ?? '', /^replacement transaction underpriced/);
  const better = await send(await sign(account, { nonce: 1, gasPrice: PRICE * 2n }));
  assert.ok(better.result, JSON.stringify(better.error));
  const first = await send(await sign(account, { nonce: 0 }));
  assert.ok(first.result, JSON.stringify(first.error));
  assert.is((await receiptOf(better.result)).status, '0x1');
  assert.is((await rpc('eth_getTransactionReceipt', [ahead.result])).result, null, 'the replaced one never runs');
  assert.is(await nonceOf(account.address), 2);
});

test("refused at submission with geth's texts: value beyond the balance, gas below 21000, a used nonce, the same bytes again, gas above the block", async () => {
  const account = keyN(0x54);
  await funder.fund(account.address, 100_000n);
  const cases: [Promise<string>, RegExp][] = [
    [sign(account, { nonce: 0, value: 100_000n }), /^insufficient funds for gas \* price \+ value: address 0x[0-9a-f]{40} have 100000 want 142000$/],
    [sign(account, { nonce: 0, gas: 20_999n }), /^intrinsic gas too low: gas 20999, minimum needed 21000$/],
    [sign(account, { nonce: 0, gas: 200_000_000n, gasPrice: PRICE }), /^exceeds block gas limit/],
  ];
  for (const [raw, text] of cases) {
    const answer = await send(await raw);
    assert.is(answer.error?.code, -32000, JSON.stringify(answer));
    assert.match(answer.error!.message, text);
  }
  assert.is(await nonceOf(account.address), 0, 'nothing was queued');
  const raw = await sign(account, { nonce: 0 });
  const sent = await send(raw);
  await receiptOf(sent.result);
  assert.match((await send(raw)).error?.message ?? '', /^already known/);
  assert.match((await send(await sign(account, { nonce: 0, value: 1n }))).error?.message ?? '', /^nonce too low: address 0x[0-9a-f]{40}, tx: 0 state: 1$/);
  // Gas is charged as used, at the transaction's price: 21000 × 2.
  assert.is(await balanceOf(account.address), 100_000n - 42_000n);
});

test('a transaction that cannot pay in its block (the balance spent by the one before) still has a receipt and uses its nonce; the next one runs', async () => {
  const account = keyN(0x55);
  await funder.fund(account.address, 150_000n);
  // Each can pay alone (42,000 of gas + 50,000), not both: the second fails in the block.
  const raws = [await sign(account, { nonce: 0, value: 50_000n }), await sign(account, { nonce: 1, value: 50_000n }), await sign(account, { nonce: 2, value: 0n, gas: 21_000n, gasPrice: PRICE })];
  // Sent last to first, so all three go into the same block once nonce 0 arrives.
  const hashes = [];
  for (const raw of [...raws].reverse()) hashes.unshift((await send(raw)).result);
  const [ok, broke, after] = await Promise.all(hashes.map(receiptOf));
  assert.equal([ok.status, broke.status, broke.gasUsed], ['0x1', '0x0', '0x0']);
  assert.is(after.status, '0x1', 'the third (42,000 of the 58,000 left) runs after it');
  assert.is(await nonceOf(account.address), 3);
});

test('a reverting transaction has a receipt with status 0, pays its gas and uses its nonce', async () => {
  const account = keyN(0x56);
  await funder.fund(account.address, 10n ** 9n);
  // Init code PUSH0 PUSH0 REVERT: a create that reverts.
  const hash = (await send(await sign(account, { nonce: 0, to: null, data: '0x5f5ffd', gas: 100_000n }))).result;
  const r = await receiptOf(hash);
  assert.is(r.status, '0x0');
  assert.ok(BigInt(r.gasUsed) > 53_000n);
  assert.is(await nonceOf(account.address), 1);
  assert.is(await balanceOf(account.address), 10n ** 9n - BigInt(r.gasUsed) * PRICE);
});

test('a transaction emitting more than 10,000 events fails with a stated reason, keeping its nonce; one emitting a few keeps them', async () => {
  const account = keyN(0x58);
  await funder.fund(account.address, 10n ** 9n);
  // Runtime: n = calldata word 0; while n: LOG0(0, 0), n -= 1. Init code: CODECOPY it, RETURN it.
  const runtime = '5f355b80156012575f5fa060019003600256' + '5b00';
  const created = await receiptOf((await send(await sign(account, { nonce: 0, to: null, data: `0x6014600c60003960146000f3${runtime}`, gas: 200_000n }))).result);
  assert.is(created.status, '0x1');
  const emit = async (nonce: number, n: number) =>
    receiptOf((await send(await sign(account, { nonce, to: created.contractAddress, data: `0x${n.toString(16).padStart(64, '0')}`, gas: 6_000_000n }))).result);
  const few = await emit(1, 3);
  assert.equal([few.status, few.logs.length], ['0x1', 3]);
  const many = await emit(2, 10_001);
  assert.equal([many.status, many.logs.length, many.gasUsed], ['0x0', 0, '0x' + 6_000_000n.toString(16)]);
  assert.equal((await waitStatus(node, many.txID)).res, 'too_many_events');
  assert.is(await nonceOf(account.address), 3);
});

test('transactions waiting for a nonce gap survive a restart, and run once it fills', async () => {
  const account = keyN(0x57);
  await funder.fund(account.address, 10n ** 9n);
  const ahead = (await send(await sign(account, { nonce: 2, value: 7n }))).result;
  const ahead2 = (await send(await sign(account, { nonce: 1, value: 7n }))).result;
  assert.ok(ahead && ahead2);
  await node.close();
  node = await startTestNode(SETTINGS, { store });
  assert.is((await rpc('eth_getTransactionByHash', [ahead])).result?.blockNumber, null, 'still known, still waiting');
  const first = (await send(await sign(account, { nonce: 0 }))).result;
  assert.equal(
    (await Promise.all([first, ahead2, ahead].map(receiptOf))).map((r) => r.status),
    ['0x1', '0x1', '0x1'],
  );
  assert.is(await nonceOf(account.address), 3);
});

test.run();
