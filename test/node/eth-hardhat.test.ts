// Hardhat 2, unchanged, against an in-process node's /jsonrpc as a custom network: the project in
// test/fixtures/hardhat compiles its contract with Hardhat (solc from npm, no download) and
// `hardhat run` deploys it with hardhat-ethers' deployContract, sends a write and reads views;
// the test then reads the same state through /jsonrpc and through the node's own API.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeFunctionResult, encodeFunctionData, toEventSelector, type Abi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bytesToHex } from '../../src/bytes.js';
import { createClient } from '../../src/client/client.js';
import { ethFunder } from '../helpers/eth-funding.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PROJECT = join(ROOT, 'test', 'fixtures', 'hardhat');
const HARDHAT = join(dirname(createRequire(import.meta.url).resolve('hardhat/package.json')), 'internal', 'cli', 'cli.js');
const KEY = `0x${'63'.repeat(32)}` as const;
const signer = privateKeyToAccount(KEY).address;

let node: TestNode;
let out: string;

test.before(async () => {
  node = await startTestNode({ accounts: 2 });
  const [a, b] = node.chain.accounts;
  const funder = await ethFunder(node.url, a, b);
  await funder.fund(signer, 10n ** 12n);
  out = mkdtempSync(join(tmpdir(), 'tpkit-hardhat-'));
});
test.after(() => {
  rmSync(out, { recursive: true, force: true });
  return node.close();
});

interface DeployReport {
  chainId: string;
  signer: string;
  address: string;
  deployHash: string;
  deployBlock: number;
  addHash: string;
  addBlock: number;
  addStatus: number;
  event?: { by: string; amount: string; total: string };
  label: string;
  owner: string;
  total: string;
  added: string;
}

/** `hardhat run scripts/deploy.cjs` in the fixture project (the command `npx hardhat` runs), against this node. */
function hardhatRun(): Promise<DeployReport> {
  const env = {
    ...process.env,
    TPKIT_RPC_URL: `${node.url}/jsonrpc`,
    TPKIT_CHAIN_ID: String(node.chain.ethChainId),
    TPKIT_ETH_KEY: KEY,
    TPKIT_HARDHAT_OUT: out,
    HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
  };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [HARDHAT, 'run', '--network', 'tpkit', 'scripts/deploy.cjs'], { cwd: PROJECT, env, encoding: 'utf8', maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`hardhat run failed: ${err.message}\n${stdout}\n${stderr}`));
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as DeployReport);
      } catch {
        reject(new Error(`hardhat run printed no report:\n${stdout}\n${stderr}`));
      }
    });
  });
}

async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(`${node.url}/jsonrpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

test('Hardhat 2: compile, deployContract, a write and its receipt, views; the state read back through /jsonrpc and the node API', async () => {
  const report = await hardhatRun();
  assert.is(report.chainId, String(node.chain.ethChainId));
  assert.is(report.signer, signer);
  assert.is(report.addStatus, 1);
  assert.ok(report.addBlock > report.deployBlock, `${report.addBlock} after ${report.deployBlock}`);
  assert.equal(report.event, { by: signer, amount: '42', total: '42' });
  assert.equal([report.label, report.owner, report.total, report.added], ['tpkit', signer, '42', '42']);

  // The artifact Hardhat wrote: its runtime code is what the node holds at the address.
  const artifact = JSON.parse(readFileSync(join(out, 'artifacts', 'contracts', 'Tally.sol', 'Tally.json'), 'utf8')) as { abi: Abi; deployedBytecode: string };
  const address = report.address.toLowerCase();
  assert.is(await rpc('eth_getCode', [address, 'latest']), artifact.deployedBytecode);

  // /jsonrpc: both receipts, the event's log, a view.
  const deployReceipt = await rpc('eth_getTransactionReceipt', [report.deployHash]);
  assert.equal([deployReceipt.status, deployReceipt.contractAddress, deployReceipt.from], ['0x1', address, signer.toLowerCase()]);
  const addReceipt = await rpc('eth_getTransactionReceipt', [report.addHash]);
  assert.equal([addReceipt.status, addReceipt.to, Number(addReceipt.blockNumber)], ['0x1', address, report.addBlock]);
  const added = toEventSelector('Added(address,uint256,uint256)');
  assert.equal(
    addReceipt.logs.map((l: { address: string; topics: string[] }) => [l.address, l.topics[0]]),
    [[address, added]],
  );
  const totalCall = encodeFunctionData({ abi: artifact.abi, functionName: 'total' });
  assert.is(BigInt(await rpc('eth_call', [{ to: address, data: totalCall }, 'latest'])), 42n);
  assert.is(BigInt(await rpc('eth_getTransactionCount', [signer, 'latest'])), 2n);

  // The node's own API: execute/call of the views, and the block's events by height.
  const client = createClient({ baseUrl: node.url });
  const view = async (functionName: string, args: unknown[] = []) => {
    const v = await client.executeCall({ to: address, data: encodeFunctionData({ abi: artifact.abi, functionName, args }) });
    assert.is(v.result, 'return', `${functionName}: ${v.reason ?? ''}`);
    return decodeFunctionResult({ abi: artifact.abi, functionName, data: `0x${bytesToHex(v.data)}` });
  };
  assert.is(await view('total'), 42n);
  assert.is(await view('added', [signer]), 42n);
  assert.is(await view('label'), 'tpkit');
  const logs = await node.get(`/api/logs_height/${report.addBlock}`);
  assert.is(logs.status, 200);
  assert.equal(
    logs.body.events.map((e: { address: string; topics: string[] }) => [e.address.toLowerCase(), e.topics[0]]),
    [[address, added]],
  );
});

test.run();
