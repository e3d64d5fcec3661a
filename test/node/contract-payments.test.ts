// Contract calls that pay or are paid, on an in-process node with the ERC-20 of test/contracts
// deployed at the owner wallet: bad bodies for execute/call and /jsonrpc, another currency
// carried by a call (moved when it returns, not when it reverts), a call its sender cannot
// pay for, and a deploy's code running with its constructor arguments appended.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeFunctionData } from 'viem';
import { hexToBytes } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { autoFee, feeRates } from '../../src/client/fee.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { signTx } from '../../src/crypto/sign-tx.js';
import { deployContract } from '../../src/client/contract.js';
import type { RunningNode } from '../../src/node/index.js';
import { ctorArgs, evm, openContractNode, token, tokenAbi, type Wallet } from '../helpers/contract-node.js';

let node: RunningNode;
let client: Awaited<ReturnType<typeof openContractNode>>['client'];
let owner: Wallet;
let collector: Wallet;

test.before(async () => {
  ({ node, client, owner, collector } = await openContractNode());
  const sent = await deployContract({ client, secretKey: owner.secretKey, from: owner.address, code: token.bytecode, args: ctorArgs(token, ['Dev token', 'DEV', 1_000_000n]) });
  assert.ok(sent.status?.ok);
});
test.after(() => node.close());

test('bad bodies: execute/call says NOT_JSON (an empty body or not JSON); /jsonrpc answers the JSON-RPC parse error', async () => {
  for (const [body, details] of [
    ['', 'empty body'],
    ['x', 'expected a JSON object'],
    ['{"call":', 'expected a JSON object'],
  ]) {
    const res = await fetch(node.url + '/api/execute/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = (await res.json()) as { error: string; details: string };
    assert.equal([res.status, answer.error, answer.details], [400, 'NOT_JSON', details], JSON.stringify(body));
  }
  const rpc = await fetch(node.url + '/jsonrpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":' });
  assert.is(rpc.status, 200);
  assert.equal(await rpc.json(), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } });
});

test('a call that carries another currency moves it to the contract wallet when it returns, and not when it reverts', async () => {
  await node.setBalance(collector.address, 50n, 'XYZ');
  const rates = feeRates(await client.getSettings('current/fee'));
  const from = addressFromText(collector.address);
  const to = addressFromText(owner.address);
  const send = async (data: `0x${string}`) => {
    const seq = (await client.getSeq(collector.address)) + 1n;
    const timestamp = Date.now();
    const input = {
      from,
      to,
      seq,
      timestamp,
      call: { method: '0x0', args: [hexToBytes(data)] },
      payload: [
        { purpose: 'transfer' as const, currency: 'XYZ', amount: 5n },
        { purpose: 'gas' as const, currency: 'SK', amount: 200n },
      ],
    };
    const payload = [...input.payload, { purpose: 'srcfee' as const, currency: 'SK', amount: autoFee(input, 'SK', rates.get('SK')!) }];
    const txid = await client.submitTx(signTx(genericBody({ ...input, payload }), collector.secretKey, { timestamp }));
    return client.waitForTx(txid, { timeoutMs: 10_000 });
  };
  const xyz = async (address: string) => (await client.getAddress(address)).amount.XYZ ?? 0n;
  const ownerBefore = await xyz(owner.address);
  const ok = await send(encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [evm(owner.address), 3n] }));
  assert.ok(ok.ok, JSON.stringify(ok));
  assert.equal([await xyz(collector.address), await xyz(owner.address)], [45n, ownerBefore + 5n]);
  const reverted = await send(encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [evm(owner.address), 10n ** 12n] }));
  assert.is(reverted.ok, false);
  assert.equal([await xyz(collector.address), await xyz(owner.address)], [45n, ownerBefore + 5n], 'a revert moves none of it');
});

test('a call the sender cannot pay for fails as insufficient_fund before it runs: no seq, fee or gas spent; its whole balance is enough', async () => {
  await node.setBalance(collector.address, 30n, 'XYZ');
  const rates = feeRates(await client.getSettings('current/fee'));
  const from = addressFromText(collector.address);
  const to = addressFromText(owner.address);
  const signed = async (xyz: bigint, data = encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [evm(owner.address), 1n] })) => {
    const seq = (await client.getSeq(collector.address)) + 1n;
    const timestamp = Date.now();
    const input = {
      from,
      to,
      seq,
      timestamp,
      call: { method: '0x0', args: [hexToBytes(data)] },
      payload: [
        { purpose: 'transfer' as const, currency: 'XYZ', amount: xyz },
        { purpose: 'gas' as const, currency: 'SK', amount: 200n },
      ],
    };
    const payload = [...input.payload, { purpose: 'srcfee' as const, currency: 'SK', amount: autoFee(input, 'SK', rates.get('SK')!) }];
    return signTx(genericBody({ ...input, payload }), collector.secretKey, { timestamp });
  };
  const send = async (xyz: bigint) => client.waitForTx(await client.submitTx(await signed(xyz)), { timeoutMs: 10_000 });
  const wallet = async () => {
    const a = await client.getAddress(collector.address);
    return { sk: a.amount.SK ?? 0n, xyz: a.amount.XYZ ?? 0n, seq: await client.getSeq(collector.address) };
  };
  const before = await wallet();
  const refused = await send(31n);
  assert.equal([refused.ok, refused.ok ? '' : refused.reason], [false, 'insufficient_fund']);
  assert.equal(await wallet(), before, 'nothing spent, the seq unused');
  const taken = await send(30n);
  assert.ok(taken.ok, JSON.stringify(taken));
  const after = await wallet();
  assert.equal([after.xyz, after.seq], [0n, before.seq + 1n]);
  assert.ok(after.sk < before.sk, 'the fee and the gas used were paid');
  // A call that reverts spends its seq: the same container sent again answers with its first txid.
  const reverting = await signed(0n, encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [evm(owner.address), 10n ** 12n] }));
  const revertedTxid = await client.submitTx(reverting);
  const reverted = await client.waitForTx(revertedTxid, { timeoutMs: 10_000 });
  assert.equal([reverted.ok, reverted.ok ? '' : reverted.revert], [false, 'Token: balance too low']);
  assert.is(await client.submitTx(reverting), revertedTxid, 'no second txid for a spent body');
  assert.is(await client.getSeq(collector.address), after.seq + 1n);
});

// Init code that returns a one-byte contract holding its own CODESIZE: the code it runs with is
// the deploy's code followed by its constructor arguments, however short they are.
const sizeReporter = '0x38' + '600053' + '6001' + '6000' + 'f3';

test('a deploy runs its code with the constructor arguments appended, a single byte of them too', async () => {
  const [, , third] = node.accounts;
  const sent = await deployContract({ client, secretKey: third.secretKey, from: third.address, code: sizeReporter, args: '0x01' });
  assert.ok(sent.status?.ok);
  const code = await fetch(`${node.url}/api/address/${third.address}/code`);
  assert.equal([...new Uint8Array(await code.arrayBuffer())], [10], '9 bytes of code and 1 of arguments');
});

test.run();
