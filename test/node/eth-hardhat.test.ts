// Hardhat 2, unchanged, against an in-process node's /jsonrpc as a custom network: the project in
// test/fixtures/hardhat compiles its contract with Hardhat (solc from npm, no download);
// `hardhat run` deploys it with hardhat-ethers' deployContract, sends a write and reads views,
// and `hardhat ignition deploy` deploys and calls it through Ignition. The test then reads the
// same state through /jsonrpc and through the node's own API.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
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
  // Under dist/, inside the package: Ignition loads modules only from <out>/ignition/modules, and
  // a module copied there still resolves Hardhat's packages from the project's node_modules.
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  out = mkdtempSync(join(ROOT, 'dist', 'hardhat-'));
  cpSync(join(PROJECT, 'ignition', 'modules'), join(out, 'ignition', 'modules'), { recursive: true });
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

/** `hardhat <args>` in the fixture project (the command `npx hardhat` runs), against this node; its output. */
function hardhat(args: string[]): Promise<string> {
  const env = {
    ...process.env,
    TPKIT_RPC_URL: `${node.url}/jsonrpc`,
    TPKIT_CHAIN_ID: String(node.chain.ethChainId),
    TPKIT_ETH_KEY: KEY,
    TPKIT_HARDHAT_OUT: out,
    HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
    // Ignition asks before it deploys to a chain other than Hardhat's own; this is the answer.
    HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: 'true',
  };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [HARDHAT, ...args, '--network', 'tpkit'], { cwd: PROJECT, env, encoding: 'utf8', maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`hardhat ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** `hardhat run scripts/deploy.cjs`: the report it prints as its last line. */
async function hardhatRun(): Promise<DeployReport> {
  const stdout = await hardhat(['run', 'scripts/deploy.cjs']);
  try {
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as DeployReport;
  } catch {
    throw new Error(`hardhat run printed no report:\n${stdout}`);
  }
}

const artifact = () => JSON.parse(readFileSync(join(out, 'artifacts', 'contracts', 'Tally.sol', 'Tally.json'), 'utf8')) as { abi: Abi; deployedBytecode: string };

/** A view through the node's own API (POST execute/call), decoded. */
async function nodeView(address: string, functionName: string, args: unknown[] = []) {
  const { abi } = artifact();
  const v = await createClient({ baseUrl: node.url }).executeCall({ to: address, data: encodeFunctionData({ abi, functionName, args }) });
  assert.is(v.result, 'return', `${functionName}: ${v.reason ?? ''}`);
  return decodeFunctionResult({ abi, functionName, data: `0x${bytesToHex(v.data)}` });
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
  const { abi, deployedBytecode } = artifact();
  const address = report.address.toLowerCase();
  assert.is(await rpc('eth_getCode', [address, 'latest']), deployedBytecode);

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
  const totalCall = encodeFunctionData({ abi, functionName: 'total' });
  assert.is(BigInt(await rpc('eth_call', [{ to: address, data: totalCall }, 'latest'])), 42n);
  assert.is(BigInt(await rpc('eth_getTransactionCount', [signer, 'latest'])), 2n);

  // The node's own API: execute/call of the views, and the block's events by height.
  assert.is(await nodeView(address, 'total'), 42n);
  assert.is(await nodeView(address, 'added', [signer]), 42n);
  assert.is(await nodeView(address, 'label'), 'tpkit');
  const logs = await node.get(`/api/logs_height/${report.addBlock}`);
  assert.is(logs.status, 200);
  assert.equal(
    logs.body.events.map((e: { address: string; topics: string[] }) => [e.address.toLowerCase(), e.topics[0]]),
    [[address, added]],
  );
});

test('Hardhat Ignition: `hardhat ignition deploy` deploys the module and makes its call; its journal, /jsonrpc and the node API agree', async () => {
  const nonce = BigInt(await rpc('eth_getTransactionCount', [signer, 'latest']));
  const stdout = await hardhat(['ignition', 'deploy', join(out, 'ignition', 'modules', 'Tally.cjs')]);
  const deployment = join(out, 'ignition', 'deployments', `chain-${node.chain.ethChainId}`);
  const addresses = JSON.parse(readFileSync(join(deployment, 'deployed_addresses.json'), 'utf8')) as Record<string, string>;
  const address = addresses['TallyModule#Tally']?.toLowerCase();
  assert.ok(address, `no address in ${JSON.stringify(addresses)}\n${stdout}`);
  assert.match(stdout, 'TallyModule#Tally');

  // The journal names both transactions by hash; each has a receipt with status 1 on the node.
  const journal = readFileSync(join(deployment, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; futureId?: string; transaction?: { hash: string } });
  const sends = journal.filter((e) => e.type === 'TRANSACTION_SEND');
  assert.equal(
    sends.map((e) => e.futureId),
    ['TallyModule#Tally', 'TallyModule#Tally.add'],
  );
  const hashes = sends.map((e) => e.transaction!.hash);
  const receipts = await Promise.all(hashes.map((hash) => rpc('eth_getTransactionReceipt', [hash])));
  assert.equal(
    receipts.map((r) => [r.status, r.from]),
    [
      ['0x1', signer.toLowerCase()],
      ['0x1', signer.toLowerCase()],
    ],
  );
  assert.equal(
    receipts.map((r) => r.contractAddress ?? r.to),
    [address, address],
  );

  assert.is(await rpc('eth_getCode', [address, 'latest']), artifact().deployedBytecode);
  assert.is(BigInt(await rpc('eth_getTransactionCount', [signer, 'latest'])), nonce + 2n);
  assert.is(await nodeView(address, 'label'), 'ignition');
  assert.is(await nodeView(address, 'total'), 7n);
  assert.is(await nodeView(address, 'owner'), signer);
});

test.run();
