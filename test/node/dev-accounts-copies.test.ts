// The keys startNode() hands out are copies: a caller that wipes them after use (as wallet
// code wipes secrets) leaves the node's own accounts, and what its development API serves, intact.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/index.js';
import { startNode } from '../../src/node/index.js';

test('wiping the keys startNode() returned leaves the accounts the node serves as they were', async () => {
  const node = await startNode({ accounts: 2 });
  try {
    const client = createClient({ baseUrl: node.url });
    const keys = (list: { publicKeyHex: string; secretKeyHex: string }[]) => list.map((a) => [a.publicKeyHex, a.secretKeyHex]);
    const before = keys(await client.dev.accounts());
    assert.equal(before, keys(node.accounts));
    for (const account of node.accounts) {
      account.publicKey.fill(0);
      account.secretKey.fill(0);
    }
    assert.equal(keys(await client.dev.accounts()), before);
  } finally {
    await node.close();
  }
});

test.run();
