// The plain GET endpoints at their edges: heights of 15 digits read and 16 refused, the
// genesis by name, where/nodes for this chain, another chain and a private address, an
// address's seq, blockinfo's counts and the node status's own facts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { pay, startTestNode, transfer, waitStatus, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
let txid: string;

test.before(async () => {
  node = await startTestNode({ accounts: 2, fees: {} });
  const [dev0, dev1] = node.chain.accounts;
  const sent = await node.submit(transfer({ key: dev0.secretKey, from: dev0.address, to: dev1.address, seq: 1, t: Date.now(), payload: [pay(3)] }));
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  txid = sent.body.txid;
  assert.ok((await waitStatus(node, txid)).ok);
});

test.after(async () => {
  await node?.close();
});

async function fails(path: string, status: number, code: string): Promise<void> {
  const res = await node.get(path);
  assert.is(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
  assert.is(res.body.error, code, path);
}

test('a height is 1 to 15 digits: 0 is the genesis, 15 digits a block not found, 16 a bad parameter', async () => {
  assert.is((await node.get('/api/blockn/0')).body.block.header.height, 0);
  assert.is((await node.get('/api/blockhash/0')).body.blockhash, (await node.get('/api/block/genesis')).body.block.hash);
  assert.is((await node.get('/api/block/genesis')).body.block.header.height, 0);
  for (const route of ['blockn', 'blockhash']) {
    await fails(`/api/${route}/${'9'.repeat(15)}`, 404, 'BLOCK_NOT_FOUND');
    await fails(`/api/${route}/${'1'.repeat(16)}`, 400, 'BAD_REQUEST_PARAM');
  }
  await fails(`/api/nodes/${'1'.repeat(16)}`, 400, 'BAD_REQUEST_PARAM');
});

test('blockinfo: the transaction ids and their count, no bodies', async () => {
  const status = (await node.get(`/api/tx/status/${txid}`)).body.res;
  const info = (await node.get(`/api/blockinfo/${status.block}`)).body.block;
  assert.equal(info.txs_ids, [txid]);
  assert.is(info.txs_count, 1);
  assert.equal(info.failed, {});
  assert.not.ok('txs' in info);
  assert.is(info.hash, status.block);
});

test('address/{a}/seq: the seq after one transfer; an unknown wallet is 404', async () => {
  const [dev0, dev1] = node.chain.accounts;
  const res = await node.get(`/api/address/${addressToText(dev0.address)}/seq`);
  assert.is(res.body.seq, 1);
  assert.is(res.body.txtaddress, addressToText(dev0.address));
  assert.is((await node.get(`/api/address/${addressToText(dev1.address)}/seq`)).body.seq, 0);
  await fails(`/api/address/${addressToText(makeAddress({ group: 1, block: 1, wallet: 999_999 }))}/seq`, 404, 'WALLET_NOT_FOUND');
});

test('where and nodes: this chain lists this node; another chain nothing; a private address is on this chain', async () => {
  const [dev0] = node.chain.accounts;
  const here = (await node.get(`/api/where/${addressToText(dev0.address)}`)).body;
  assert.is(here.result, 'found');
  assert.ok(Object.keys(here.chain_nodes).length > 0);
  const there = (await node.get(`/api/where/${addressToText(makeAddress({ group: 10, block: 5, wallet: 1 }))}`)).body;
  assert.equal([there.result, there.chain, there.chain_nodes], ['other_chain', 5, {}]);
  await fails(`/api/where/${addressToText(makeAddress({ group: 1, block: 1, wallet: 999_999 }))}`, 404, 'WALLET_NOT_FOUND');
  // a private address names no chain: it is this one, and this one has no such wallet
  await fails(`/api/where/${addressToText(makeAddress({ kind: 'private', block: 7, wallet: 1 }))}`, 404, 'WALLET_NOT_FOUND');
  assert.ok(Object.keys((await node.get('/api/nodes/1')).body.chain_nodes).length > 0);
  assert.equal((await node.get('/api/nodes/2')).body.chain_nodes, {});
});

test('node status: the head, nothing pending, blocks made as transactions arrive, the development API on', async () => {
  await node.chain.settle();
  const { status } = (await node.get('/api/node/status')).body;
  const last = (await node.get('/api/block/last')).body.block;
  assert.is(status.blockchain.hash, last.hash);
  assert.is(status.blockchain.header.height, last.header.height);
  assert.is(status.pending, 0);
  assert.equal(status.tpkit, { blocks: 'instant', devApi: true });
  assert.is(status.ver, 'tpkit-node/0.1');
});

test.run();
