// Contract state is as durable as balances: a `tpkit node` process on a data directory is
// killed with SIGKILL right after contract transactions were acknowledged (200, not yet waited
// for); after the restart each of them ends included, and the ERC-20's balances, its events
// and the code are all there, read through execute/call, /jsonrpc and the logs endpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicClient, decodeFunctionResult, encodeAbiParameters, encodeFunctionData, http, parseAbiItem, type Abi } from 'viem';
import { bytesToHex } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { createClient } from '../../src/client/client.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { evmKey } from '../../src/node/evm/address.js';
import { devAccounts } from '../../src/node/ledger/genesis.js';
import { testConfig } from '../helpers/node-helpers.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';
import { contract } from '../helpers/solidity.js';

const token = contract('Token');
const abi = token.abi as Abi;
const dir = mkdtempSync(join(tmpdir(), 'tpkit-contracts-kill-'));
const [ownerAccount, other] = devAccounts(testConfig({ accounts: 3 }));
const owner = addressToText(ownerAccount.address);
const holder = `0x${evmKey(other.address)}` as const;
let child: NodeProcess | undefined;

const start = () => spawnNode(['--data-dir', dir, '--port', '0', '--instant', '--difficulty', '0', '--accounts', '3', '--verify-threads', '0', '--log-level', 'error']);

test.after(async () => {
  child?.proc.kill('SIGKILL');
  await child?.exited;
  rmSync(dir, { recursive: true, force: true });
});

test('acknowledged contract transactions survive SIGKILL, with their state and events', async () => {
  child = await start();
  let client = createClient({ baseUrl: child.url });
  const inputs = (token.abi.find((i) => i.type === 'constructor') as { inputs: { type: string; name: string }[] }).inputs;
  await deployContract({ client, secretKey: ownerAccount.secretKey, from: owner, code: token.bytecode, args: encodeAbiParameters(inputs, ['Kept', 'KPT', 1000n]) });
  // Acknowledged, not waited for: the node is killed right after the 200s.
  const txids: string[] = [];
  for (let i = 1n; i <= 5n; i++) {
    const sent = await sendContractCall({
      client,
      secretKey: ownerAccount.secretKey,
      from: owner,
      to: owner,
      data: encodeFunctionData({ abi, functionName: 'transfer', args: [holder, i] }),
      seq: BigInt(Date.now()) + i,
      wait: false,
    });
    txids.push(sent.txid);
  }
  child.proc.kill('SIGKILL');
  await child.exited;

  child = await start();
  client = createClient({ baseUrl: child.url });
  for (const txid of txids) {
    const status = await client.waitForTx(txid, { timeoutMs: 30_000 });
    assert.ok(status.ok, `${txid}: ${JSON.stringify(status.raw)}`);
  }
  const view = await client.executeCall({ to: owner, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder] }) });
  assert.is(decodeFunctionResult({ abi, functionName: 'balanceOf', data: `0x${bytesToHex(view.data)}` }), 15n);
  const rpc = createPublicClient({ transport: http(child.url + '/jsonrpc') });
  assert.is(await rpc.getCode({ address: `0x${evmKey(ownerAccount.address)}` }), token.deployedBytecode);
  const events = await rpc.getLogs({ event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), args: { to: holder }, fromBlock: 0n });
  assert.equal(events.map((e) => e.args.value).sort(), [1n, 2n, 3n, 4n, 5n]);
});

test.run();
