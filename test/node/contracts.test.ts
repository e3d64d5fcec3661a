// Contracts on an in-process node, through tpkit's client: the ERC-20 and ERC-721 of
// test/contracts deployed (kind 18) and called (generic transactions with c), read with
// execute/call, the code and storage endpoints and the event logs; viem reads the same over
// /jsonrpc (also with PowerWallet's ?pwrmatch=1) and sends a legacy Ethereum transaction it
// signed; a revert's reason in the status; gas charged at the settings' rate; snapshots,
// revert and rollback undo contract state as they undo balances. Calls that pay: contract-payments.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseAbiItem } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { createClient } from '../../src/client/client.js';
import { decodeMsgpack } from '../../src/codec/msgpack-read.js';
import type { MsgNode } from '../../src/codec/msgpack-types.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { TxFailedError } from '../../src/client/client-errors.js';
import type { RunningNode } from '../../src/node/index.js';
import { cards, cardsAbi, ctorArgs, evm, openContractNode, token, tokenAbi, viewOf, type Wallet } from '../helpers/contract-node.js';
import { startTestNode } from '../helpers/node-helpers.js';
import { ethFunder, type EthFunder } from '../helpers/eth-funding.js';

let node: RunningNode;
const get = async (path: string) => {
  const res = await fetch(node.url + path);
  return { status: res.status, body: await res.json() };
};
let client: ReturnType<typeof createClient>;
let owner: Wallet;
let collector: Wallet;
let funder: EthFunder;

test.before(async () => {
  ({ node, client, owner, collector } = await openContractNode());
  // Ethereum keys pay gas in SK: accounts 3 and 4 (a forwarder and its payer) fund them.
  funder = await ethFunder(node.url, node.accounts[3], node.accounts[4]);
});
test.after(() => node.close());

const view = (c: typeof token, at: string, functionName: string, args: unknown[] = []) => viewOf(client, c, at, functionName, args);

test('deploy the ERC-20 at the owner wallet: the address view, code and storage endpoints show a contract', async () => {
  const sent = await deployContract({ client, secretKey: owner.secretKey, from: owner.address, code: token.bytecode, args: ctorArgs(token, ['Dev token', 'DEV', 1_000_000n]) });
  assert.is(sent.address, owner.address);
  assert.ok(sent.status?.ok);
  const info = (await get(`/api/address/${owner.address}`)).body.info;
  assert.equal([info.vm, info.code, info.contract], ['evm', (token.deployedBytecode.length - 2) / 2, ['evm', 'EVM']]);
  assert.ok(info.state >= 4, 'name, symbol, owner, supply and a balance');
  const code = await fetch(`${node.url}/api/address/${owner.address}/code`);
  assert.is(code.headers.get('content-type'), 'application/octet-stream');
  assert.is('0x' + Buffer.from(await code.arrayBuffer()).toString('hex'), token.deployedBytecode);
  assert.is(await view(token, owner.address, 'symbol'), 'DEV');
  assert.is(await view(token, owner.address, 'balanceOf', [evm(owner.address)]), 1_000_000n);
  // Slot 2 is totalSupply (name, symbol, then it: the constant decimals takes none).
  const slot = await fetch(`${node.url}/api/address/${owner.address}/state/0x02`);
  assert.is(BigInt('0x' + Buffer.from(await slot.arrayBuffer()).toString('hex')), 1_000_000n);
  const keys = (await get(`/api/address/${owner.address}/statekeys`)).body.keys as string[];
  assert.ok(keys.includes('0x02'));
  assert.is((await get(`/api/address/${collector.address}/code`)).status, 404);
  // The block lists the deploy as the reference shows one: sender twice, the code's length and VM.
  const hex = Buffer.from(addressFromText(owner.address)).toString('hex').toUpperCase();
  const listed = (await get(`/api/block/${sent.status!.block}`)).body.block.txs[sent.txid];
  assert.equal([listed.kind, listed.from, listed.to, listed.seq, listed.txext], ['deploy', hex, hex, Number(sent.seq), { vm: 'evm', code: (token.bytecode.length - 2) / 2 }]);
});

test('a transfer through a generic transaction: return data in the status, balances, the event in logs and over JSON-RPC', async () => {
  const before = (await client.getAddress(owner.address)).amount.SK;
  const sent = await sendContractCall({
    client,
    secretKey: owner.secretKey,
    from: owner.address,
    to: owner.address,
    data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [evm(collector.address), 2_500n] }),
  });
  assert.ok(sent.status?.ok);
  assert.is(bytesToHex(sent.returnData!), '0'.repeat(63) + '1', 'transfer returned true');
  assert.is(await view(token, owner.address, 'balanceOf', [evm(collector.address)]), 2_500n);
  const after = (await client.getAddress(owner.address)).amount.SK;
  const spent = before - after;
  // Fee plus the gas used at 1000 gas a unit, rounded: some tens of units, far below the 10^4 offered.
  assert.ok(spent > sent.fee && spent < sent.fee + 200n, `spent ${spent}, fee ${sent.fee}`);
  const block = await client.getBlock(sent.status!.block!);
  const logs = (await get(`/api/logs/${block.hash}`)).body;
  assert.is(logs.log.height, block.header.height);
  assert.is(logs.events.length, 1);
  assert.is(logs.events[0].address, evm(owner.address));

  for (const path of ['/jsonrpc', '/jsonrpc?pwrmatch=1', '/api/jsonrpc']) {
    const rpc = createPublicClient({ transport: http(node.url + path) });
    const events = await rpc.getLogs({
      address: evm(owner.address),
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      args: { to: evm(collector.address) },
      fromBlock: 0n,
    });
    assert.equal(
      events.map((e) => e.args.value),
      [2_500n],
      path,
    );
    assert.is(await rpc.readContract({ address: evm(owner.address), abi: tokenAbi, functionName: 'balanceOf', args: [evm(collector.address)] }), 2_500n);
    const receipt = await rpc.getTransactionReceipt({ hash: events[0].transactionHash! });
    assert.is(receipt.status, 'success');
    assert.is(receipt.logs.length, 1);
  }
});

test('a revert: its reason in the status, the seq and gas spent, the state unchanged', async () => {
  const seq = await client.getSeq(collector.address);
  const err = await sendContractCall({
    client,
    secretKey: collector.secretKey,
    from: collector.address,
    to: owner.address,
    data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [evm(owner.address), 10n ** 9n] }),
  }).catch((e) => e);
  assert.instance(err, TxFailedError);
  assert.is((err as TxFailedError).reason, 'revert: Token: balance too low');
  assert.is(await client.getSeq(collector.address), seq + 1n, 'the seq is used');
  assert.is(await view(token, owner.address, 'balanceOf', [evm(collector.address)]), 2_500n);
  const status = (await get(`/api/tx/status/${(err as TxFailedError).txid}`)).body.res;
  assert.equal([status.error, status.res, status.revert], [true, 'revert', 'Token: balance too low']);
  const viewRevert = await client.executeCall({ to: owner.address, data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [evm(collector.address), 1n] }), from: collector.address });
  assert.equal([viewRevert.result, viewRevert.reason], ['revert', 'Token: only the owner mints']);
});

test('ERC-721 at the collector wallet: mint by its owner, transfer, tokenURI; snapshot, revert and rollback undo it', async () => {
  await deployContract({ client, secretKey: collector.secretKey, from: collector.address, code: cards.bytecode, args: ctorArgs(cards, ['Cards', 'CRD']) });
  const snap = await node.snapshot('before-mint');
  const height = node.height();
  const mint = (to: string) =>
    sendContractCall({ client, secretKey: collector.secretKey, from: collector.address, to: collector.address, data: encodeFunctionData({ abi: cardsAbi, functionName: 'mint', args: [evm(to)] }) });
  const first = await mint(owner.address);
  assert.is(BigInt('0x' + bytesToHex(first.returnData!)), 1n);
  await mint(owner.address);
  assert.is(await view(cards, collector.address, 'balanceOf', [evm(owner.address)]), 2n);
  assert.is(await view(cards, collector.address, 'tokenURI', [2n]), 'tpkit://collectible/2');
  await sendContractCall({
    client,
    secretKey: owner.secretKey,
    from: owner.address,
    to: collector.address,
    data: encodeFunctionData({ abi: cardsAbi, functionName: 'transferFrom', args: [evm(owner.address), evm(collector.address), 1n] }),
  });
  assert.is(((await view(cards, collector.address, 'ownerOf', [1n])) as string).toLowerCase(), evm(collector.address));

  await node.rollback(height + 1);
  assert.is(await view(cards, collector.address, 'minted'), 1n, 'the rollback kept the first mint only');
  const gone = await client.executeCall({ to: collector.address, data: encodeFunctionData({ abi: cardsAbi, functionName: 'ownerOf', args: [2n] }) });
  assert.is(gone.result, 'revert');
  await node.revert(snap.id);
  assert.is(await view(cards, collector.address, 'minted'), 0n, 'the revert went back before the mints');
  const rpc = createPublicClient({ transport: http(node.url + '/jsonrpc') });
  assert.equal(await rpc.getLogs({ address: evm(collector.address), fromBlock: BigInt(height + 1) }), [], 'no events of the dropped blocks');
});

test('viem signs a legacy Ethereum transaction: accepted by eth_sendRawTransaction, included, its receipt and nonce', async () => {
  const account = privateKeyToAccount(`0x${'11'.repeat(32)}`);
  const rpcUrl = node.url + '/jsonrpc';
  const chainId = 1_000_000_001;
  const chain = { id: chainId, name: 'tpkit', nativeCurrency: { name: 'SK', symbol: 'SK', decimals: 9 }, rpcUrls: { default: { http: [rpcUrl] } } } as const;
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const rpc = createPublicClient({ chain, transport: http(rpcUrl) });
  await funder.fund(account.address, 10n ** 9n);
  const hash = await wallet.sendTransaction({ type: 'legacy', to: evm(owner.address), data: encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [evm(collector.address), 7n] }) });
  const receipt = await rpc.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  assert.is(receipt.status, 'success');
  assert.is(receipt.from.toLowerCase(), account.address.toLowerCase());
  assert.is(await rpc.getTransactionCount({ address: account.address }), 1);
  assert.is(await view(token, owner.address, 'allowance', [account.address, evm(collector.address)]), 7n);
  const tx = await rpc.getTransaction({ hash });
  assert.is(tx.type, 'legacy');
  // Sent again, the same signed bytes are the same transaction, not a second one.
  const raw = await wallet.signTransaction({ type: 'legacy', to: evm(owner.address), nonce: 0, gas: 100_000n, gasPrice: 1n, data: '0x' });
  const again = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }),
  });
  assert.is(((await again.json()) as { error?: { code: number } }).error?.code, -32000, 'nonce 0 is used');
  const wrongChain = await account.signTransaction({ type: 'legacy', to: evm(owner.address), nonce: 1, gas: 100_000n, gasPrice: 0n, chainId: 1 });
  const refused = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [wrongChain] }),
  });
  assert.is(((await refused.json()) as { error: { message: string } }).error.message, 'Invalid Ethereum transaction: signed for chain id 1, this node is 1000000001');
  const typedWrongChain = await account.signTransaction({ type: 'eip1559', to: evm(owner.address), nonce: 1, gas: 100_000n, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n, chainId: 5 });
  const typedRefused = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [typedWrongChain] }),
  });
  assert.is(((await typedRefused.json()) as { error: { message: string } }).error.message, 'Invalid Ethereum transaction: signed for chain id 5, this node is 1000000001');
  assert.ok(hexToBytes(hash).length === 32);
});

test('an Ethereum transaction of exactly limits.maxTxBytes passes the size check (then meets the next: no SK); one byte more is TX_TOO_LARGE', async () => {
  const account = privateKeyToAccount(`0x${'22'.repeat(32)}`);
  const raw = await account.signTransaction({ type: 'legacy', to: evm(owner.address), nonce: 0, gas: 100_000n, gasPrice: 1n, chainId: 1_000_000_001, data: `0x${'00'.repeat(300)}` });
  const size = (raw.length - 2) / 2;
  const send = async (limit: number) => {
    const small = await startTestNode({ accounts: 0, limits: { maxTxBytes: limit } });
    try {
      const res = await fetch(small.url + '/jsonrpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }),
      });
      return (await res.json()) as { result?: string; error?: { message: string } };
    } finally {
      await small.close();
    }
  };
  const atLimit = await send(size);
  assert.match(String(atLimit.error?.message), /^insufficient funds for gas \* price \+ value/, JSON.stringify(atLimit));
  const over = await send(size - 1);
  assert.match(String(over.error?.message), /Transaction too large.*limit \d+ bytes, got \d+/, JSON.stringify(over));
});

test('a revert reloads the contract state from the store: the Ethereum account keeps its nonce', async () => {
  const rpc = createPublicClient({ transport: http(node.url + '/jsonrpc') });
  const account = privateKeyToAccount(`0x${'11'.repeat(32)}`);
  assert.is(await rpc.getTransactionCount({ address: account.address }), 1);
  const snap = await node.snapshot();
  await node.revert(snap.id);
  assert.is(await rpc.getTransactionCount({ address: account.address }), 1, 'read back from the store');
});

test('address/{a}/state: the storage as MessagePack, slot bytes to value bytes, the same pairs as statejson', async () => {
  const res = await fetch(`${node.url}/api/address/${owner.address}/state`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/octet-stream');
  const map = decodeMsgpack(new Uint8Array(await res.arrayBuffer()));
  if (map.type !== 'map') throw new Error(`a ${map.type}, not a map`);
  const bytesOf = (n: MsgNode) => {
    if (n.type !== 'bin') throw new Error(`a ${n.type}, not bytes`);
    return Buffer.from(n.value);
  };
  const pairs = Object.fromEntries(map.entries.map(([k, v]) => [bytesOf(k).toString('base64'), bytesOf(v).toString('base64')]));
  assert.equal(pairs, (await get(`/api/address/${owner.address}/statejson`)).body);
  // Slot 2, totalSupply: the key without leading zeros, the value 1000000.
  assert.is(pairs[Buffer.from([2]).toString('base64')], Buffer.from('0f4240', 'hex').toString('base64'));
});

test('address/{a}/state/{slot}: 0x with 1 to 64 hex digits or base64 of 1 to 32 bytes name the same slot; longer is 400', async () => {
  const slot = async (form: string) => {
    const res = await fetch(`${node.url}/api/address/${owner.address}/state/${encodeURIComponent(form)}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, value: res.status === 200 ? bytes.toString('hex') : JSON.parse(bytes.toString()).error };
  };
  const supply = { status: 200, value: '0f4240' };
  const thirtyTwo = Buffer.alloc(32);
  thirtyTwo[31] = 2;
  for (const form of ['0x2', '0x02', `0x${'0'.repeat(63)}2`, Buffer.from([2]).toString('base64'), thirtyTwo.toString('base64')]) {
    assert.equal(await slot(form), supply, form);
  }
  assert.equal(await slot('0x7777'), { status: 200, value: '' }, 'a slot never written is empty');
  for (const form of [`0x${'0'.repeat(64)}2`, Buffer.alloc(33, 1).toString('base64'), '!!']) {
    assert.equal(await slot(form), { status: 400, value: 'BAD_REQUEST_PARAM' }, form);
  }
  const other = await get(`/api/address/${owner.address}/code/0x02`);
  assert.equal([other.status, other.body.error], [404, 'ROUTE_NOT_FOUND']);
  // the third development account holds no contract
  const plainWallet = node.accounts.at(-1)!.address;
  const plain = await get(`/api/address/${plainWallet}/state/0x02`);
  assert.equal([plain.status, plain.body.error], [404, 'WALLET_NOT_FOUND']);
});

test('logs_height/{h}: the events of the block at that height, as logs/{hash} answers; bad heights 400, heights above the head 404', async () => {
  const sent = await sendContractCall({
    client,
    secretKey: owner.secretKey,
    from: owner.address,
    to: owner.address,
    data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [evm(collector.address), 1n] }),
  });
  const block = await client.getBlock(sent.status!.block!);
  const byHeight = await get(`/api/logs_height/${block.header.height}`);
  assert.is(byHeight.status, 200);
  assert.equal(byHeight.body, (await get(`/api/logs/${block.hash}`)).body);
  assert.equal([byHeight.body.log.blkid, byHeight.body.log.height, byHeight.body.events.length], [block.hash, block.header.height, 1]);
  assert.is(byHeight.body.events[0].txid, sent.txid);
  const genesis = await get('/api/logs_height/0');
  assert.equal([genesis.status, genesis.body.log.height, genesis.body.log.logs, genesis.body.events], [200, 0, [], []]);
  for (const bad of ['abc', '-1', '1.5', '1234567890123456']) {
    const answer = await get(`/api/logs_height/${bad}`);
    assert.equal([answer.status, answer.body.error, answer.body.details], [400, 'BAD_REQUEST_PARAM', `expected a non-negative integer, got "${bad}"`], bad);
  }
  const above = node.height() + 1000;
  const missing = await get(`/api/logs_height/${above}`);
  assert.equal([missing.status, missing.body.error, missing.body.details], [404, 'BLOCK_NOT_FOUND', `no block at height ${above}`]);
});

test.run();
