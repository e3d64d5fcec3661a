// Real Ethereum clients, unchanged, against an in-process node's /jsonrpc: viem deploys an
// ERC-20 (deployContract estimates a create: a view without `to`), waits for receipts, and sends
// 20 transfers from one account signed with its nonce manager and delivered in scrambled order;
// ethers v6 deploys with ContractFactory and estimates a deploy and a call.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ContractFactory, JsonRpcProvider, Wallet, Contract } from 'ethers';
import { createPublicClient, createWalletClient, encodeDeployData, http, nonceManager, type Abi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ethFunder, type EthFunder } from '../helpers/eth-funding.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { contract } from '../helpers/solidity.js';

const token = contract('Token');
const abi = token.abi as Abi;
let node: TestNode;
let funder: EthFunder;
let rpcUrl: string;
let chain: { id: number; name: string; nativeCurrency: { name: string; symbol: string; decimals: number }; rpcUrls: { default: { http: string[] } } };

test.before(async () => {
  node = await startTestNode({ accounts: 2 });
  const [a, b] = node.chain.accounts;
  funder = await ethFunder(node.url, a, b);
  rpcUrl = `${node.url}/jsonrpc`;
  chain = { id: Number(node.chain.ethChainId), name: 'tpkit', nativeCurrency: { name: 'SK', symbol: 'SK', decimals: 9 }, rpcUrls: { default: { http: [rpcUrl] } } };
});
test.after(() => node.close());

/** Fisher-Yates with a fixed seed: the same scrambled order on every run. */
function scrambled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

test('viem: deployContract (its gas estimated without `to`), waitForTransactionReceipt, then 20 transfers signed with the nonce manager and sent in scrambled order all succeed', async () => {
  const account = privateKeyToAccount(`0x${'61'.repeat(32)}`, { nonceManager });
  await funder.fund(account.address, 10n ** 12n);
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const client = createPublicClient({ chain, transport: http(rpcUrl) });
  const estimate = await client.estimateGas({ account: account.address, data: encodeDeployData({ abi, bytecode: token.bytecode, args: ['Tok', 'TOK', 1_000_000n] }) });
  assert.ok(estimate > 53_000n, String(estimate));
  const deployed = await wallet.deployContract({ abi, bytecode: token.bytecode, args: ['Tok', 'TOK', 1_000_000n] });
  const receipt = await client.waitForTransactionReceipt({ hash: deployed, pollingInterval: 50 });
  assert.is(receipt.status, 'success');
  const address = receipt.contractAddress!;
  const requests = [];
  for (let i = 0; i < 20; i++) {
    requests.push(await wallet.prepareTransactionRequest({ to: address, data: encodeTransfer(i), nonceManager: account.nonceManager }));
  }
  assert.equal(
    requests.map((r) => r.nonce),
    Array.from({ length: 20 }, (_, i) => i + 1),
    'the nonce manager counted on from "pending"',
  );
  const signed = await Promise.all(requests.map((r) => wallet.signTransaction(r as Parameters<typeof wallet.signTransaction>[0])));
  const hashes = await Promise.all(scrambled(signed).map((serializedTransaction) => client.sendRawTransaction({ serializedTransaction })));
  const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })));
  assert.equal(
    receipts.map((r) => r.status),
    Array(20).fill('success'),
  );
  assert.is(await client.getTransactionCount({ address: account.address }), 21);
  const total = await client.readContract({ address, abi, functionName: 'balanceOf', args: [payee(0)] });
  assert.is(total, (20n * 21n) / 2n, 'every transfer to the payee arrived once');
});

const payee = (_: number) => `0x${'77'.repeat(20)}` as const;
function encodeTransfer(i: number): `0x${string}` {
  // transfer(payee, i + 1): selector a9059cbb, the address word, the amount word.
  return `0xa9059cbb${payee(i).slice(2).padStart(64, '0')}${(i + 1).toString(16).padStart(64, '0')}`;
}

test('ethers v6: ContractFactory.deploy, waitForDeployment, estimateGas of a deploy and of a call, a transfer', async () => {
  // cacheTimeout -1: ethers keeps a request's answer 250 ms by default, and blocks here come faster
  // than that (a nonce read before the deploy's block would be answered again after it).
  const provider = new JsonRpcProvider(rpcUrl, { chainId: chain.id, name: 'tpkit' }, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  try {
    await ethersDeploy(provider);
  } finally {
    // Its polling would keep the process alive after a failure.
    provider.destroy();
  }
});

async function ethersDeploy(provider: JsonRpcProvider) {
  const signer = new Wallet(`0x${'62'.repeat(32)}`, provider);
  await funder.fund(signer.address, 10n ** 12n);
  const factory = new ContractFactory(token.abi as never, token.bytecode, signer);
  const deployTx = await factory.getDeployTransaction('Tok', 'TOK', 500n);
  const deployEstimate = await provider.estimateGas({ ...deployTx, from: signer.address });
  assert.ok(deployEstimate > 53_000n, String(deployEstimate));
  const deployed = await factory.deploy('Tok', 'TOK', 500n);
  await deployed.waitForDeployment();
  const erc20 = new Contract(await deployed.getAddress(), token.abi as never, signer);
  const callEstimate = await erc20.transfer.estimateGas(payee(0), 5n);
  assert.ok(callEstimate > 21_000n && callEstimate < deployEstimate, String(callEstimate));
  const sent = await erc20.transfer(payee(0), 5n);
  const mined = await sent.wait();
  assert.is(mined?.status, 1);
  assert.is(await erc20.balanceOf(payee(0)), 5n);
  assert.is(await provider.getTransactionCount(signer.address), 2);
}

test.run();
