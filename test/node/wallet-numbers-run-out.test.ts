// The dev API hands out wallet numbers up to the last one the address format holds
// (MAX_WALLET_NUMBER), and then refuses with a message instead of making an address past it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressParts } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { MAX_WALLET_NUMBER } from '../../src/node/ledger/apply.js';
import { rejection } from '../helpers/helpers.js';
import { startTestNode } from '../helpers/node-helpers.js';

test('createWallet: the last number is handed out, the one after is refused and nothing changes', async () => {
  const node = await startTestNode({ accounts: 1, mineOnDemand: true });
  try {
    // A chain that has handed out every number but the last.
    node.chain.allocLast = MAX_WALLET_NUMBER - 1;
    const last = await node.control.createWallet({ publicKey: publicKeyOf(new Uint8Array(32).fill(5)) });
    assert.is(addressParts(last.address).wallet, MAX_WALLET_NUMBER);
    assert.is(node.chain.allocLast, MAX_WALLET_NUMBER);
    const wallets = node.chain.wallets.size;
    const err = await rejection(node.control.createWallet({ publicKey: publicKeyOf(new Uint8Array(32).fill(6)) }));
    assert.is(err.code, 'BAD_REQUEST_PARAM');
    assert.is(err.message, 'No wallet number left: chain 1 has allocated all of them');
    assert.equal([node.chain.allocLast, node.chain.wallets.size], [MAX_WALLET_NUMBER, wallets]);
  } finally {
    await node.close();
  }
});

test.run();
