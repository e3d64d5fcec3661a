// The official SDK (@thepowereco/tssdk 2.1.0, unchanged) with contracts on our node: it
// deploys the ERC-20 and ERC-721 of test/contracts with composeDeployTX, sends with
// EvmContract.scSet and reads with scGet (its own local EVM over GET address/{a}/code and
// …/state/{slot}) and with NetworkApi.executeCall (POST execute/call). A revert reaches it as
// the rejection it makes of a failed status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { addressFromText, addressToText } from '../../src/codec/address.js';
import { evmKey } from '../../src/node/evm/address.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { rejection, sandboxSdk, sdk, toWif, type SdkNetwork, type SdkSandbox } from '../helpers/tssdk-helpers.js';
import { contract } from '../helpers/solidity.js';

interface SdkEvmContract {
  scGet(method: string, params?: unknown[]): Promise<unknown>;
  scSet(key: { address: string; wif: string }, method: string, params?: unknown[], amount?: number): Promise<{ txId: string; res: string; block: string; retval?: string }>;
}
interface SdkContracts {
  EvmCore: { build(network: SdkNetwork): Promise<object> };
  EvmContract: { build(core: object, address: string, abi: unknown): Promise<SdkEvmContract> };
  TransactionsApi: {
    composeDeployTX(args: {
      address: string;
      code: string;
      initParams: unknown[];
      gasToken: string;
      gasValue: number;
      wif: string;
      abi: unknown;
      feeSettings: unknown;
      gasSettings: unknown;
    }): Promise<string>;
  };
}
const contracts = createRequire(import.meta.url)('@thepowereco/tssdk') as SdkContracts;
type Network = SdkNetwork & { feeSettings: unknown; gasSettings: unknown; executeCall(address: string, method: string, args: unknown[], abi: unknown): Promise<unknown> };

const token = contract('Token');
const cards = contract('Collectible');
let node: TestNode;
let sandbox: SdkSandbox;
let network: Network;
let owner: { address: string; wif: string };
let holder: { address: string; wif: string };
const evm = (address: string) => '0x' + evmKey(addressFromText(address));

test.before(async () => {
  node = await startTestNode({ accounts: 2, difficulty: 0 });
  sandbox = sandboxSdk();
  sandbox.setNodes([{ address: node.url, nodeId: 'tpkit' }], 1);
  network = new sdk.NetworkApi(1, false) as Network;
  await network.bootstrap();
  [owner, holder] = node.chain.accounts.map((a) => ({ address: addressToText(a.address), wif: toWif(a.secretKey) }));
});

test.after(async () => {
  sandbox.restore();
  await node.close();
});

async function deploy(who: { address: string; wif: string }, c: typeof token, initParams: unknown[]) {
  const tx = await contracts.TransactionsApi.composeDeployTX({
    address: who.address,
    code: c.bytecode.slice(2),
    initParams,
    gasToken: '',
    gasValue: 0,
    wif: who.wif,
    abi: c.abi,
    feeSettings: network.feeSettings,
    gasSettings: network.gasSettings,
  });
  return network.sendTxAndWaitForResponse(tx);
}

test('the SDK reads the node gas settings and deploys the ERC-20 with composeDeployTX', async () => {
  assert.equal(network.gasSettings, { gasCur: 'SK', gas: 1000, tokens: 1 });
  const sent = await deploy(owner, token, ['SDK token', 'SDKT', '1000000']);
  assert.is(sent.res, owner.address, 'the status names the contract wallet');
  const info = (await node.get(`/api/address/${owner.address}`)).body.info;
  assert.is(info.vm, 'evm');
});

test('EvmContract: scSet sends transfer, scGet reads balances through the code and state endpoints, executeCall through execute/call', async () => {
  const core = await contracts.EvmCore.build(network);
  const erc20 = await contracts.EvmContract.build(core, owner.address, token.abi);
  assert.is(String(await erc20.scGet('symbol', [])), 'SDKT');
  const sent = await erc20.scSet(owner, 'transfer', [evm(holder.address), 1234], 0);
  assert.ok(sent.txId);
  assert.is(BigInt(sent.retval!), 1n, 'transfer returned true');
  assert.is(String(await erc20.scGet('balanceOf', [evm(holder.address)])), '1234');
  assert.is(String(await erc20.scGet('balanceOf', [evm(owner.address)])), String(1_000_000 - 1234));
  // SDK 2.1 sends `to` as 0x + what it is given: the EVM key.
  assert.is(String(await network.executeCall(evmKey(addressFromText(owner.address)), 'balanceOf', [evm(holder.address)], token.abi)), '1234');
  const error = await rejection(erc20.scSet(holder, 'transfer', [evm(owner.address), 10 ** 9], 0));
  assert.match(error.message, /: revert Token: balance too low$/);
});

test("a token added by its 0x address: the SDK sends `to` as 12 zero bytes and the 8-byte address; the node reads it as that wallet (the reference's tx:parse_address)", async () => {
  const sdkModule = createRequire(import.meta.url)('@thepowereco/tssdk') as {
    TransactionsApi: {
      composeSCMethodCallTxBody(
        address: string,
        sc: string,
        toCall: unknown[],
        gasToken: string,
        gasValue: number,
        amountToken: string,
        amountValue: number,
        feeSettings: unknown,
        gasSettings: unknown,
      ): { to: Buffer } & Record<string, unknown>;
      packAndSignTX(body: unknown, wif: string): string;
    };
  };
  const { encodeFunction } = createRequire(createRequire(import.meta.url).resolve('@thepowereco/tssdk'))('./helpers/abi.helper.js') as {
    encodeFunction(method: string, args: unknown[], abi: unknown, hasPrefix: boolean): string;
  };
  const before = BigInt(String(await network.executeCall(evmKey(addressFromText(owner.address)), 'balanceOf', [evm(holder.address)], token.abi)));
  const call = Buffer.from(encodeFunction('transfer', [evm(holder.address), 500], token.abi, true).slice(2), 'hex');
  const body = sdkModule.TransactionsApi.composeSCMethodCallTxBody(owner.address, owner.address, ['0x0', [call]], '', 0, 'SK', 0, network.feeSettings, network.gasSettings);
  body.to = Buffer.concat([Buffer.alloc(12), body.to]);
  assert.is(body.to.length, 20);
  const sent = await network.sendTxAndWaitForResponse(sdkModule.TransactionsApi.packAndSignTX(body, owner.wif));
  assert.is(sent.res, 'ok');
  assert.is(BigInt(String(await network.executeCall(evmKey(addressFromText(owner.address)), 'balanceOf', [evm(holder.address)], token.abi))), before + 500n);
});

test('the ERC-721 deployed by another wallet: mint and transfer with scSet, owners and URIs with scGet', async () => {
  await deploy(holder, cards, ['SDK cards', 'SDKC']);
  const core = await contracts.EvmCore.build(network);
  const erc721 = await contracts.EvmContract.build(core, holder.address, cards.abi);
  await erc721.scSet(holder, 'mint', [evm(owner.address)], 0);
  await erc721.scSet(owner, 'transferFrom', [evm(owner.address), evm(holder.address), 1], 0);
  assert.is(String(await erc721.scGet('ownerOf', [1])).toLowerCase(), evm(holder.address));
  assert.is(String(await erc721.scGet('tokenURI', [1])), 'tpkit://collectible/1');
  const error = await rejection(erc721.scSet(owner, 'mint', [evm(owner.address)], 0));
  assert.match(error.message, /revert 0x/, 'a custom error has no text: its data in hex');
  assert.equal(sandbox.refused, []);
});

test.run();
