// A node with five funded accounts for the contract tests, tpkit's client on it, the two test
// contracts of test/contracts, and reads of a deployed contract through execute/call.
import * as assert from 'uvu/assert';
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, type Abi } from 'viem';
import { bytesToHex } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { createClient } from '../../src/client/client.js';
import { evmKey } from '../../src/node/evm/address.js';
import { startNode, type RunningNode } from '../../src/node/index.js';
import { contract } from './solidity.js';

export const token = contract('Token');
export const cards = contract('Collectible');
export const tokenAbi = token.abi as Abi;
export const cardsAbi = cards.abi as Abi;
export const ctorArgs = (c: typeof token, args: unknown[]) => {
  const inputs = (c.abi.find((i) => i.type === 'constructor') as { inputs: { type: string; name: string }[] }).inputs;
  return encodeAbiParameters(inputs, args);
};

/** An account of the node: its address and secret key. */
export interface Wallet {
  address: string;
  secretKey: Uint8Array;
}

/** The node's address in the 20-byte form contracts see. */
export const evm = (address: string): `0x${string}` => `0x${evmKey(addressFromText(address))}`;

export async function openContractNode(): Promise<{ node: RunningNode; client: ReturnType<typeof createClient>; owner: Wallet; collector: Wallet }> {
  const node = await startNode({ difficulty: 0, accounts: 5 });
  const [owner, collector] = node.accounts.map((a) => ({ address: a.address, secretKey: a.secretKey }));
  return { node, client: createClient({ baseUrl: node.url }), owner, collector };
}

/** A view of contract `c` at `at`, decoded; a revert fails the test. */
export async function viewOf(client: ReturnType<typeof createClient>, c: typeof token, at: string, functionName: string, args: unknown[] = []) {
  const abi = c.abi as Abi;
  const v = await client.executeCall({ to: at, data: encodeFunctionData({ abi, functionName, args }) });
  assert.is(v.result, 'return', `${functionName}: ${v.reason ?? ''}`);
  return decodeFunctionResult({ abi, functionName, data: `0x${bytesToHex(v.data)}` });
}
