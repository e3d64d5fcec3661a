// Contract storage lives in the store and is read on demand: an ERC-20 on a node with its
// ledger on disk, its slots written, overwritten and set back to zero, reads the same after the
// node is closed and started again, through views, the state endpoints and the slot count,
// while the node holds at most limits.slotCacheEntries slots in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeFunctionData } from 'viem';
import { createClient } from '../../src/client/client.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { addressToText } from '../../src/codec/address.js';
import type { LocalNode } from '../../src/node/node.js';
import { startTestNode } from '../helpers/node-helpers.js';
import { ctorArgs, evm, token, tokenAbi, viewOf } from '../helpers/contract-node.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-storage-'));
const config = { dataDir: dir, memory: false, accounts: 4, limits: { slotCacheEntries: 2 } };

/** The node's development accounts as the client takes them. */
const accountsOf = (node: LocalNode) => node.chain.accounts.map((a) => ({ address: addressToText(a.address), secretKey: a.secretKey }));

interface Seen {
  balances: bigint[];
  statejson: unknown;
  slots: number;
}

/** What the token's storage says: the holders' balances, every slot, and the slot count. */
async function read(node: LocalNode): Promise<Seen> {
  const client = createClient({ baseUrl: node.url });
  const accounts = accountsOf(node);
  const [owner] = accounts;
  const balances: bigint[] = [];
  for (const a of accounts) balances.push((await viewOf(client, token, owner.address, 'balanceOf', [evm(a.address)])) as bigint);
  const statejson = await (await fetch(`${node.url}/api/address/${owner.address}/statejson`)).json();
  const info = (await (await fetch(`${node.url}/api/address/${owner.address}`)).json()) as { info: { state: number } };
  return { balances, statejson, slots: info.info.state };
}

test('slots written, overwritten and zeroed read the same after a restart; the count follows each change', async () => {
  let node: LocalNode = await startTestNode(config);
  try {
    const client = createClient({ baseUrl: node.url });
    const [owner, a, b] = accountsOf(node);
    const deployed = await deployContract({ client, secretKey: owner.secretKey, from: owner.address, code: token.bytecode, args: ctorArgs(token, ['Dev token', 'DEV', 1_000n]) });
    assert.ok(deployed.status?.ok);
    const transfer = async (from: typeof owner, to: string, amount: bigint) => {
      const sent = await sendContractCall({
        client,
        secretKey: from.secretKey,
        from: from.address,
        to: owner.address,
        data: encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [evm(to), amount] }),
      });
      assert.ok(sent.status?.ok, JSON.stringify(sent.status));
    };
    const fresh = (await read(node)).slots;
    await transfer(owner, a.address, 300n); // a new slot
    await transfer(owner, b.address, 200n); // another
    assert.is((await read(node)).slots, fresh + 2, 'two holders, two slots more');
    await transfer(owner, a.address, 5n); // a slot overwritten
    await transfer(b, a.address, 200n); // b's slot back to zero: gone
    const before = await read(node);
    assert.equal(before.balances, [495n, 505n, 0n, 0n]);
    assert.is(before.slots, fresh + 1, "b's slot is gone");
    assert.is(Object.keys(before.statejson as object).length, before.slots, 'statejson lists every slot the count counts');
    assert.ok(node.chain.contracts.cachedSlots <= 2, `${node.chain.contracts.cachedSlots} slots in memory, over limits.slotCacheEntries`);
    await node.close();
    node = await startTestNode(config);
    assert.is(node.chain.contracts.cachedSlots, 0, 'nothing of the storage is read at start');
    assert.equal(await read(node), before);
    assert.ok(node.chain.contracts.cachedSlots <= 2);
  } finally {
    await node.close();
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
