// Gas of contract calls from ThePower wallets, on an in-process node, with contracts of a few
// hand-written opcodes so each outcome is known in advance: the run gets exactly the gas the
// offered units buy (1000 gas a unit at the default rate), the unused part comes back in whole
// units and the used part reaches the fee wallet, a run out of gas keeps the whole offer, a
// wallet that cannot pay fee and gas together is refused before anything is spent, and the
// status carries return data only when the run returned some (docs/guide/contracts.md, "Gas"
// and "Transaction status").
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressFromText, addressToText } from '../../src/codec/address.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { signTx } from '../../src/crypto/sign-tx.js';
import { createClient } from '../../src/client/client.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { privateKeyToAccount } from 'viem/accounts';
import { evmKey } from '../../src/node/evm/address.js';
import { ethFunder } from '../helpers/eth-funding.js';
import { startNode, type RunningNode } from '../../src/node/index.js';

/** Init code that deploys `runtime` (at most 32 bytes): PUSHn runtime, MSTORE at 0, RETURN its last bytes. */
const deployer = (runtime: string) => {
  const n = runtime.length / 2;
  const hex = (v: number) => v.toString(16).padStart(2, '0');
  return `0x${hex(0x5f + n)}${runtime}600052${'60' + hex(n)}${'60' + hex(32 - n)}f3`;
};
// GAS, MSTORE at 0, RETURN 32 bytes: the gas left after GAS itself (2 gas).
const gasReporter = deployer('5a60005260206000f3');
// RETURN(0, CALLDATASIZE): as many zero bytes as the call data has.
const echoSize = deployer('366000f3');
// TIMESTAMP, MSTORE at 0, RETURN 32 bytes.
const clock = deployer('4260005260206000f3');
// JUMPDEST, PUSH1 0, JUMP: loops until its gas runs out.
const spinner = deployer('5b600056');

let node: RunningNode;
let client: ReturnType<typeof createClient>;
let accounts: { address: string; secretKey: Uint8Array }[];
const sk = async (address: string) => (await client.getAddress(address)).amount.SK ?? 0n;
/** The fee wallet the chain settings name (current.fee.params.feeaddr, hex). */
const feeWallet = async () => addressToText(hexToBytes(((await client.getSettings('current/fee')) as { params: { feeaddr: string } }).params.feeaddr));

test.before(async () => {
  node = await startNode({ difficulty: 0, accounts: 8 });
  client = createClient({ baseUrl: node.url });
  accounts = node.accounts.map((a) => ({ address: a.address, secretKey: a.secretKey }));
  await deployContract({ client, secretKey: accounts[0].secretKey, from: accounts[0].address, code: gasReporter });
  await deployContract({ client, secretKey: accounts[1].secretKey, from: accounts[1].address, code: echoSize });
  await deployContract({ client, secretKey: accounts[2].secretKey, from: accounts[2].address, code: spinner });
  await deployContract({ client, secretKey: accounts[5].secretKey, from: accounts[5].address, code: clock });
});
test.after(() => node.close());

test('the run gets the gas the offered units buy; the unused units come back and the used one reaches the fee wallet', async () => {
  const caller = accounts[3];
  const [before, feesBefore] = [await sk(caller.address), await sk(await feeWallet())];
  const sent = await sendContractCall({ client, secretKey: caller.secretKey, from: caller.address, to: accounts[0].address, data: '0x', gas: 1_000_000n });
  assert.is(sent.gasOffered, 1000n);
  // 1000 units buy 10^6 gas; GAS costs 2 of them.
  assert.is(BigInt('0x' + bytesToHex(sent.returnData!)), 1_000_000n - 2n);
  // The run used a few gas, less than one unit's worth: 999 units come back, one is spent.
  const lost = before - (await sk(caller.address));
  assert.is(lost, sent.fee + 1n);
  assert.is((await sk(await feeWallet())) - feesBefore, lost, 'what the caller lost is what the fee wallet gained');
});

const rpc = async (method: string, params: unknown[]) => {
  const res = await fetch(node.url + '/jsonrpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: Record<string, string> | null }).result!;
};

test('a run out of gas: insufficient_gas, the seq and the whole offer spent, the receipt failed with all the gas used', async () => {
  const caller = accounts[3];
  const seq = await client.getSeq(caller.address);
  const before = await sk(caller.address);
  const sent = await sendContractCall({ client, secretKey: caller.secretKey, from: caller.address, to: accounts[2].address, data: '0x', gas: 5000n, wait: false });
  assert.is(sent.gasOffered, 5n);
  const status = await client.waitForTx(sent.txid, { timeoutMs: 10_000 });
  assert.equal([status.ok, status.ok ? '' : status.reason], [false, 'insufficient_gas']);
  assert.is(await client.getSeq(caller.address), seq + 1n);
  assert.is(before - (await sk(caller.address)), sent.fee + 5n, 'nothing comes back');
  const receipt = await rpc('eth_getTransactionReceipt', [`0x${bytesToHex(keccak_256(sent.tx))}`]);
  assert.equal([receipt.status, receipt.gasUsed], ['0x0', '0x1388']);
});

test('return data in the status only when the run returned some: none for 0 bytes, one zero byte for 1', async () => {
  const caller = accounts[3];
  const call = (data: string) => sendContractCall({ client, secretKey: caller.secretKey, from: caller.address, to: accounts[1].address, data });
  const empty = await call('0x');
  assert.ok(empty.status?.ok);
  assert.is(empty.status?.ok && empty.status.retval, undefined);
  assert.is(empty.returnData, undefined);
  const one = await call('0x07');
  assert.equal(one.status?.ok && one.status.retval, '0x00');
  const two = await call('0x0708');
  assert.equal(two.status?.ok && two.status.retval, '0x0000');
});

test('a wallet that cannot pay the fee and the gas together is refused before anything is spent; exactly enough is taken', async () => {
  const caller = accounts[4];
  const send = async () => {
    const sent = await sendContractCall({ client, secretKey: caller.secretKey, from: caller.address, to: accounts[1].address, data: '0x', gas: 7000n, wait: false });
    const status = await client.waitForTx(sent.txid, { timeoutMs: 10_000 });
    return { fee: sent.fee, ok: status.ok, reason: status.ok ? '' : status.reason };
  };
  const seq = await client.getSeq(caller.address);
  // The auto fee is the least the node takes, the same for each of these bodies of one size.
  await node.setBalance(caller.address, 0n);
  const { fee } = await send();
  await node.setBalance(caller.address, fee + 7n - 1n);
  assert.equal(await send(), { fee, ok: false, reason: 'insufficient_fund' });
  assert.equal([await client.getSeq(caller.address), await sk(caller.address)], [seq, fee + 6n], 'no seq, fee or gas spent');
  await node.setBalance(caller.address, fee + 7n);
  assert.equal(await send(), { fee, ok: true, reason: '' });
  // The run used less than a unit's worth of gas: 6 of the 7 units come back.
  assert.equal([await client.getSeq(caller.address), await sk(caller.address)], [seq + 1n, 6n]);
});

/** A generic transaction to the echo contract built by hand: payload items and c as given. */
const handBuilt = async (
  payload: { purpose: 'transfer' | 'gas' | 'srcfee'; currency: string; amount: bigint }[],
  call?: { method: string; args: unknown[] },
  timestamp = Date.now(),
  target = accounts[1],
) => {
  const caller = accounts[3];
  const seq = (await client.getSeq(caller.address)) + 1n;
  const body = genericBody({ from: addressFromText(caller.address), to: addressFromText(target.address), seq, timestamp, payload, ...(call ? { call } : {}) } as Parameters<typeof genericBody>[0]);
  const status = await client.waitForTx(await client.submitTx(signTx(body, caller.secretKey, { timestamp })), { timeoutMs: 10_000 });
  return { status, seqUsed: (await client.getSeq(caller.address)) === seq };
};
const FEE = { purpose: 'srcfee' as const, currency: 'SK', amount: 10_000n };
const callData = (data: Uint8Array) => ({ method: '0x0', args: [data] });

test('a gas item of 0 units is no gas: insufficient_gas before any change, the seq unused', async () => {
  const { status, seqUsed } = await handBuilt([{ purpose: 'gas', currency: 'SK', amount: 0n }, FEE], callData(new Uint8Array(0)));
  assert.equal([status.ok, status.ok ? '' : status.reason, seqUsed], [false, 'insufficient_gas', false]);
  const none = await handBuilt([FEE], callData(new Uint8Array(0)));
  assert.equal([none.status.ok, none.status.ok ? '' : none.status.reason, none.seqUsed], [false, 'insufficient_gas', false]);
});

test('a fee in a currency the chain takes no fee in fails as unsupported_fee_cur; a c of another form fails as bad_call; neither spends the seq', async () => {
  const odd = await handBuilt(
    [
      { purpose: 'gas', currency: 'SK', amount: 7n },
      { ...FEE, currency: 'XYZ' },
    ],
    callData(new Uint8Array(0)),
  );
  assert.equal([odd.status.ok, odd.status.ok ? '' : odd.status.reason, odd.seqUsed], [false, 'unsupported_fee_cur', false]);
  const bad = await handBuilt([{ purpose: 'gas', currency: 'SK', amount: 7n }, FEE], { method: 'transfer', args: [1] });
  assert.equal([bad.status.ok, bad.status.ok ? '' : bad.status.reason, bad.seqUsed], [false, 'bad_call', false]);
});

test('a call without c runs with empty call data; a transfer of 0 units adds no currency entry to either wallet', async () => {
  const { status, seqUsed } = await handBuilt([{ purpose: 'transfer', currency: 'XYZ', amount: 0n }, { purpose: 'gas', currency: 'SK', amount: 7n }, FEE]);
  assert.ok(status.ok, JSON.stringify(status));
  assert.equal([status.ok && status.retval, seqUsed], [undefined, true]);
  for (const a of [accounts[3], accounts[1]]) assert.is('XYZ' in (await client.getAddress(a.address)).amount, false, a.address);
});

test('a deploy runs its init code with empty call data', async () => {
  const [, , , , fifth] = accounts;
  await node.setBalance(fifth.address, 1_000_000n);
  // CALLDATASIZE, MSTORE8 at 0, RETURN 1 byte: the contract's code is that size.
  const sent = await deployContract({ client, secretKey: fifth.secretKey, from: fifth.address, code: '0x36600053' + '60016000f3', gas: 100_000n });
  assert.is(sent.status?.ok && sent.status.address, fifth.address, 'the status names the deployed address');
  const code = await fetch(`${node.url}/api/address/${fifth.address}/code`);
  assert.equal([...new Uint8Array(await code.arrayBuffer())], [0]);
});

test("a call older than the wallet's last transaction fails as bad_timestamp before it runs: the seq unused, nothing paid", async () => {
  const gas = { purpose: 'gas' as const, currency: 'SK', amount: 7n };
  const first = await handBuilt([gas, FEE], callData(new Uint8Array(0)));
  assert.ok(first.status.ok);
  const before = await sk(accounts[3].address);
  const stale = await handBuilt([gas, FEE], callData(new Uint8Array(0)), Date.now() - 60_000);
  assert.equal([stale.status.ok, stale.status.ok ? '' : stale.status.reason, stale.seqUsed], [false, 'bad_timestamp', false]);
  assert.is(await sk(accounts[3].address), before);
});

test("block.timestamp in a call is the block's time in whole seconds", async () => {
  const sent = await sendContractCall({ client, secretKey: accounts[3].secretKey, from: accounts[3].address, to: accounts[5].address, data: '0x', gas: 100_000n });
  const block = await client.getBlock(sent.status!.block!);
  // mean_time: the block's time in ms, as 8 bytes hex (the reference's header field).
  const ms = BigInt('0x' + String(block.header.roots.mean_time).replace(/^0x/i, ''));
  assert.ok(ms > 1_600_000_000_000n, String(ms));
  assert.is(BigInt('0x' + bytesToHex(sent.returnData!)), ms / 1000n);
});

test("an Ethereum call pays 21000 intrinsic gas plus the run's at its price, in SK, and the fee wallet receives it", async () => {
  const account = privateKeyToAccount(`0x${'33'.repeat(32)}`);
  // Accounts 6 and 7 fund the Ethereum key: gas is never free.
  await (await ethFunder(node.url, accounts[6], accounts[7])).fund(account.address, 10n ** 9n);
  const feeBefore = await sk(await feeWallet());
  const to = `0x${evmKey(addressFromText(accounts[1].address))}` as const;
  const raw = await account.signTransaction({ type: 'legacy', to, nonce: 0, gas: 100_000n, gasPrice: 3n, chainId: 1_000_000_001 });
  const hash = (await rpc('eth_sendRawTransaction', [raw])) as unknown as string;
  let receipt: Record<string, string> | null = null;
  for (let i = 0; i < 200 && !receipt; i++) {
    receipt = await rpc('eth_getTransactionReceipt', [hash]);
    if (!receipt) await new Promise((r) => setTimeout(r, 50));
  }
  // CALLDATASIZE (2), PUSH1 (3), RETURN of 0 bytes (0) after the 21000 of any call.
  assert.equal([receipt?.status, receipt?.gasUsed], ['0x1', `0x${(21_005).toString(16)}`]);
  const balance = (await rpc('eth_getBalance', [account.address, 'latest'])) as unknown as string;
  assert.is(BigInt(balance), 10n ** 9n - 21_005n * 3n);
  assert.is(await sk(await feeWallet()), feeBefore + 21_005n * 3n);
});

test('a fee-free call that uses no gas gets its whole offer back and leaves the fee wallet untouched', async () => {
  const lastblk = async () => ((await (await fetch(`${node.url}/api/address/${await feeWallet()}`)).json()) as { info: { lastblk: string } }).info.lastblk;
  const [before, skBefore] = [await lastblk(), await sk(accounts[3].address)];
  // accounts[4] holds the one-byte contract 00 (STOP), deployed above: a run of 0 gas.
  const { status, seqUsed } = await handBuilt([{ purpose: 'gas', currency: 'SK', amount: 7n }], callData(new Uint8Array(0)), Date.now(), accounts[4]);
  assert.equal([status.ok, seqUsed], [true, true], JSON.stringify(status));
  assert.is(await sk(accounts[3].address), skBefore);
  assert.is(await lastblk(), before);
});

test.run();
