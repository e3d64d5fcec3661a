// The official SDK, @thepowereco/tssdk 2.1.0, unchanged, against our node: it bootstraps from
// our node as a custom chain, registers and transfers through its own wallet API, reads our
// answers (errors included), and our decoder and verifier explain every byte it signs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, bytesToHex } from '../../src/bytes.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { genericBody } from '../../src/codec/body-generic.js';
import { registerBody } from '../../src/codec/body-register.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import type { Body } from '../../src/codec/body-types.js';
import { decodeTx } from '../../src/codec/container.js';
import { feeCost } from '../../src/codec/fee.js';
import { decodeMsgpack, type MsgNode } from '../../src/codec/msgpack.js';
import { bsigDigest } from '../../src/crypto/bsig.js';
import { decodeBsig } from '../../src/crypto/bsig-tlv.js';
import { createSigner } from '../../src/crypto/ecdsa.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { signTx, verifyTx } from '../../src/crypto/sign-tx.js';
import { createClient, type AddressChange } from '../../src/client/index.js';
import { startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';
import { fromWif, rejection, sandboxSdk, sdk, sdkMsgpack, toWif, type SdkNetwork, type SdkSandbox } from '../helpers/tssdk-helpers.js';

// The BIP-39 test mnemonic: the SDK derives the same key from it on every run.
const SEED = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const RATE = { base: 1n, baseextra: 64n, kb: 1000n };

let node: TestNode;
let sandbox: SdkSandbox;
let network: SdkNetwork;
let dev: { key: Uint8Array; address: string };
let registered: string;
/** Ports of the nodes this test starts: the only places the SDK may connect to. */
const nodePorts = new Set<string>();

/** The srcfee amount the SDK offers: its formula leaves out the reference's 32 free bytes. */
const sdkFeeOffer = (bodyLength: number) =>
  bodyLength > Number(RATE.baseextra) ? Number(RATE.base) + Math.floor(((bodyLength - Number(RATE.baseextra)) * Number(RATE.kb)) / 1024) : Number(RATE.base);

async function storedTx(txid: string): Promise<{ container: Uint8Array; body: Body }> {
  const container = await node.chain.txContainer(txid);
  assert.ok(container, `the node keeps ${txid}`);
  return { container, body: decodeBody(decodeTx(container).body) };
}

/** Top-level keys of an encoded map, in wire order, with their values' tree nodes. */
function wireFields(bytes: Uint8Array): [string, MsgNode][] {
  const root = decodeMsgpack(bytes);
  if (root.type !== 'map') throw new Error(`expected a map, got ${root.type}`);
  return root.entries.map(([k, v]) => [k.type === 'str' ? k.value : `?${k.type}`, v]);
}

const field = (bytes: Uint8Array, name: string): MsgNode => wireFields(bytes).find(([k]) => k === name)![1];

test.before(async () => {
  node = await startTestNode({ accounts: 2, difficulty: 0, fees: { SK: RATE } });
  nodePorts.add(new URL(node.url).port);
  const account = node.chain.accounts[0];
  dev = { key: account.secretKey, address: addressToText(account.address) };
  sandbox = sandboxSdk();
});

test.after(async () => {
  sandbox.restore();
  await node.close();
});

test('without a custom chain the SDK fetches its chain list from GitHub: the sandbox refuses that socket', async () => {
  sandbox.setNodes(undefined);
  const error = await rejection(new sdk.NetworkApi(1, false).bootstrap());
  assert.match(error.message, /raw\.githubusercontent\.com:443 refused/);
  assert.equal(sandbox.refused, ['raw.githubusercontent.com:443']);
  sandbox.refused.length = 0;
});

test('the SDK bootstraps from a fresh node as its custom chain: the start-up block gives it a height', async () => {
  sandbox.setNodes([{ address: node.url, nodeId: 'tpkit' }], 1);
  // Its node probe keeps nodes whose /api/node/status height is truthy: the node starts at 1.
  assert.is(node.chain.height, 1);
  network = new sdk.NetworkApi(1, false);
  await network.bootstrap();
  const state = network.upload();
  assert.is(state.currentChain, 1);
  assert.equal(
    state.currentNodes.map(({ address, nodeId, height }) => ({ address, nodeId, height })),
    [{ address: node.url, nodeId: 'tpkit', height: 1 }],
  );
  assert.equal(state.feeSettings, { feeCur: 'SK', fee: 1, baseEx: 64, kb: 1000 });
});

test('WalletApi.registerCertainChain registers the wallet of a seed phrase (no nonce: a difficulty-0 node)', async () => {
  const { current } = await network.getNodeSettings();
  const expected = addressToText(makeAddress({ group: current.allocblock.group, block: current.allocblock.block, wallet: current.allocblock.last + 1 }));

  const result = await sdk.WalletApi.registerCertainChain({ chain: 1, customSeed: SEED, isHTTPSNodesOnly: false, timeout: 5 });
  assert.is(result.address, expected);
  registered = result.address;
  const key = fromWif(result.wif);
  const wallet = await network.getWallet(registered);
  assert.is(wallet.pubkey, bytesToHex(publicKeyOf(key), true));
  assert.equal(wallet.amount, {});

  // The container it sent, as our node stored it.
  const blockHash = (await node.get(`/api/address/${registered}`)).body.info.lastblk as string;
  const block = await node.chain.blockByHash(blockHash);
  assert.ok(block);
  assert.is(block.txs.length, 1);
  const { container, body } = await storedTx(block.txs[0]);
  assert.ok(verifyTx(container).valid, 'our verifier accepts its signature');
  assert.is(body.kind, 'register');
  if (body.kind !== 'register') return;
  assert.is(body.nonce, undefined, 'the SDK sends no nonce');
  assert.equal(body.keysHash, keysHash([publicKeyOf(key)]));
  assert.equal(body.extra, {});
});

test('WalletApi.makeNewTx moves the balances; our node charges the formula cost, below what the SDK offers', async () => {
  const feeAddress = addressToText(node.chain.feeAddress);
  const before = { dev: (await network.getWallet(dev.address)).amount.SK, fees: (await network.getWallet(feeAddress)).amount.SK ?? 0 };

  const wallet = new sdk.WalletApi(network);
  const result = await wallet.makeNewTx(toWif(dev.key), dev.address, registered, 'SK', 1.5, 'hi');
  assert.is(result.res, 'ok');
  assert.match(result.block, /^[0-9A-F]{64}$/);

  const { container, body } = await storedTx(result.txId);
  assert.ok(verifyTx(container).valid, 'our verifier accepts its signature');
  assert.is(body.kind, 'generic');
  if (body.kind !== 'generic') return;
  assert.is(addressToText(body.from), dev.address);
  assert.is(addressToText(body.to), registered);
  assert.is(body.seq, 1n, 'the seq it read (0) plus one');
  const bodyLength = decodeTx(container).body.length;
  const cost = feeCost(bodyLength, RATE);
  assert.equal(body.payload, [
    { purpose: 'transfer', purposeNumber: 0, purposeName: 'transfer', currency: 'SK', amount: 1_500_000_000n },
    { purpose: 'srcfee', purposeNumber: 1, purposeName: 'srcfee', currency: 'SK', amount: BigInt(sdkFeeOffer(bodyLength)) },
  ]);
  assert.ok(BigInt(sdkFeeOffer(bodyLength)) > cost, `offered ${sdkFeeOffer(bodyLength)}, cost ${cost}`);
  assert.equal(body.extra, { msg: 'hi' });

  assert.is((await network.getWallet(registered)).amount.SK, 1_500_000_000);
  assert.equal((await wallet.loadBalance(registered)).amount, { SK: 1.5 }, 'its wallet layer counts whole SK (10^9 units)');
  assert.is((await network.getWallet(dev.address)).amount.SK, before.dev - 1_500_000_000 - Number(cost));
  assert.is((await network.getWallet(feeAddress)).amount.SK, before.fees + Number(cost));

  // The SDK's block reader understands our block view.
  const block = await wallet.getBlock(result.block);
  const tx = block.txs[result.txId];
  assert.equal({ from: tx.from, to: tx.to, cur: tx.cur, amount: tx.amount, inBlock: tx.inBlock }, { from: dev.address, to: registered, cur: 'SK', amount: 1.5, inBlock: result.block });
});

test('an SDK transfer with an explicit fee, posted as the spec says: HTTP 200 and a txid, then applied', async () => {
  const seq = await network.getWalletSequence(dev.address);
  const tx = sdk.TransactionsApi.composeSimpleTransferTX({}, toWif(dev.key), dev.address, registered, 'SK', 7, '', seq + 1, 1, 'SK');
  const sent = await node.submit(tx);
  assert.is(sent.status, 200);
  assert.match(sent.body.txid, /^[1-9A-HJ-NP-Za-km-z]+-tpkit$/);
  assert.is((await waitStatus(node, sent.body.txid)).res, 'ok');
  assert.is((await network.getWallet(registered)).amount.SK, 1_500_000_007);
});

test('the SDK reads our failures: an error status rejects its wait, an HTTP error its read', async () => {
  const seq = await network.getWalletSequence(dev.address);
  const reused = sdk.TransactionsApi.composeSimpleTransferTX({}, toWif(dev.key), dev.address, registered, 'SK', 8, '', seq, 1, 'SK');
  const failed = await rejection(network.sendTxAndWaitForResponse(reused, 50));
  assert.match(failed.message, /^[1-9A-HJ-NP-Za-km-z]+-tpkit: bad_seq revert with no data$/);
  assert.is((await network.getWallet(registered)).amount.SK, 1_500_000_007, 'nothing moved');

  const nobody = addressToText(makeAddress({ group: 10, block: 1, wallet: 999 }));
  assert.is((await rejection(network.getWallet(nobody))).message, 'Not found');
});

test("the SDK walks a wallet's whole history back through the blocks (bals lastblk, ?addr=)", async () => {
  const wallet = new sdk.WalletApi(network);
  // five more transfers to the registered wallet, each in a block of its own
  const sent: string[] = [];
  for (let i = 0; i < 5; i++) {
    const seq = await network.getWalletSequence(dev.address);
    const tx = sdk.TransactionsApi.composeSimpleTransferTX({}, toWif(dev.key), dev.address, registered, 'SK', 1, `#${i}`, seq + 1, 1, 'SK');
    const { body } = await node.submit(tx);
    assert.is((await waitStatus(node, body.txid)).res, 'ok');
    sent.push(body.txid);
  }
  const lastblk = (await node.get(`/api/address/${registered}`)).body.info.lastblk as string;
  // Without a filter its loop reads block.txs by array index and throws (an SDK bug): pass one.
  const history = await wallet.getRawTransactionsHistory(lastblk, registered, 100, () => true);
  assert.not.ok(history.has('needMore'), "the walk ends at the wallet's first block");
  const ids = [...history.keys()];
  for (const txid of sent) assert.ok(ids.includes(txid), `${txid} in the history`);
  const incoming = [...history.values()].filter((v) => typeof v === 'object' && v.to === registered);
  assert.is(incoming.length, 7, 'the two earlier transfers and these five');
  const allocation = [...history.values()].filter((v) => typeof v === 'object' && v.addressAllocationBlock);
  assert.is(allocation.length, 1, 'and the block that allocated the address, seen through the register view');
  assert.is(new Set(ids).size, ids.length);

  // one block as the SDK reads it with ?addr=: only this wallet, and its previous change
  const block = await wallet.getBlock(lastblk, registered);
  assert.equal(Object.keys(block.bals), [registered]);
  assert.match(block.bals[registered].lastblk!, /^[0-9A-F]{64}$/);
  assert.equal(Object.keys(block.txs), [sent[4]]);
});

test("the SDK finds the chain's nodes: /api/nodes and where list this node in chain_nodes", async () => {
  assert.equal(await network.getChainNodes(1, 1), [{ address: node.url, nodeId: 'tpkit' }]);
  const where = await network.getAddressChain(registered);
  assert.is(where.result, 'found');
  assert.equal(Object.keys(where.chain_nodes), ['tpkit']);
  assert.equal(await network.getChainNodes(1, 7), [], 'no nodes of another chain');
});

test('a node from startNode() serves the SDK from its first second; our client sees the SDK transfer on the live stream', async () => {
  const { startNode } = await import('../../src/node/index.js');
  const fresh = await startNode({ difficulty: 0, blockTime: 'instant', accounts: 1 });
  nodePorts.add(new URL(fresh.url).port);
  try {
    sandbox.setNodes([{ address: fresh.url, nodeId: 'tpkit' }], 1);
    const freshNetwork = new sdk.NetworkApi(1, false);
    await freshNetwork.bootstrap();
    assert.is(freshNetwork.upload().currentNodes[0].height, 1);
    const [account] = fresh.accounts;
    const target = addressToText(makeAddress({ group: 10, block: 1, wallet: 31337 }));
    const client = createClient({ baseUrl: fresh.url });
    const changes: AddressChange[] = [];
    const stop = new AbortController();
    const watching = client.watchAddress(target, (c) => changes.push(c), { signal: stop.signal });
    await new Promise((r) => setTimeout(r, 100));
    const result = await new sdk.WalletApi(freshNetwork).makeNewTx(toWif(account.secretKey), account.address, target, 'SK', 2, 'live');
    assert.is(result.res, 'ok');
    assert.is((await client.watchTx(result.txId)).ok, true);
    for (let i = 0; i < 50 && !changes.some((c) => c.balance); i++) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await watching;
    assert.is(changes.find((c) => c.balance)!.balance!.amount.SK, 2_000_000_000n);
    assert.ok(changes.some((c) => c.txs && result.txId in c.txs));
  } finally {
    sandbox.setNodes([{ address: node.url, nodeId: 'tpkit' }], 1);
    await fresh.close();
  }
});

test('a node that asks for proof of work refuses the SDK registration: 400 POW_TOO_LOW (10031), saying it carried none and how to start a node for it', async () => {
  const strict = await startTestNode({ difficulty: 24 });
  nodePorts.add(new URL(strict.url).port);
  try {
    const sent = await strict.submit(await sdk.TransactionsApi.composeRegisterTX(toWif(node.chain.accounts[1].secretKey)));
    assert.is(sent.status, 400);
    assert.equal({ ok: sent.body.ok, code: sent.body.code, error: sent.body.error }, { ok: false, code: 10031, error: 'POW_TOO_LOW' });
    assert.match(sent.body.msg, 'The register transaction carries no proof of work (no nonce in its body) and this chain asks for 24 bits');
    assert.match(sent.body.msg, 'tpkit node --difficulty 0');
  } finally {
    await strict.close();
  }
});

test('what the SDK encodes differently from us, field by field (docs/design/interop.md)', async () => {
  const to = addressToText(makeAddress({ group: 10, block: 1, wallet: 77 }));
  const sdkTx = base64ToBytes(sdk.TransactionsApi.composeSimpleTransferTX({}, toWif(dev.key), dev.address, to, 'SK', 5, '', 2 ** 33, 3, 'SK'));
  const container = decodeTx(sdkTx);
  const sdkBody = container.body;
  const decoded = decodeBody(sdkBody);
  assert.is(decoded.kind, 'generic');
  if (decoded.kind !== 'generic') return;
  const ours = genericBody({ from: dev.address, to, seq: 2 ** 33, timestamp: decoded.timestamp, payload: decoded.payload, extra: {} });
  const { raw: _a, ...sdkFields } = decoded;
  const { raw: _b, ...ourFields } = decodeBody(ours);
  assert.equal(sdkFields, ourFields, 'the same transaction');

  // Container: the same keys, order and types.
  assert.equal(
    wireFields(sdkTx).map(([k, v]) => `${k}:${v.type}`),
    ['body:bin', 'sig:array', 'ver:uint'],
  );
  assert.equal(
    wireFields(sdkTx).map(([k]) => k),
    wireFields(signTx(ours, dev.key)).map(([k]) => k),
  );
  // Body: key order, `e` always present, currency as str; integers in the same minimal widths.
  assert.equal(
    wireFields(sdkBody).map(([k]) => k),
    ['k', 't', 'f', 'to', 's', 'p', 'e'],
  );
  assert.equal(
    wireFields(ours).map(([k]) => k),
    ['k', 'f', 'to', 's', 't', 'p', 'e'],
  );
  const item = (body: Uint8Array) => (field(body, 'p') as Extract<MsgNode, { type: 'array' }>).items[0] as Extract<MsgNode, { type: 'array' }>;
  assert.equal(
    item(sdkBody).items.map((n) => n.marker),
    [0x00, 0xa2, 0x05],
    'purpose fixint, currency fixstr, amount fixint',
  );
  assert.equal(
    item(ours).items.map((n) => n.marker),
    [0x00, 0xc4, 0x05],
    'currency as bin 8',
  );
  for (const name of ['k', 't', 'f', 'to', 's', 'e']) assert.is(field(sdkBody, name).marker, field(ours, name).marker, name);
  assert.is(field(sdkBody, 's').marker, 0xcf, 'a seq above 2^32 as uint 64');
  assert.is(sdkBody.length, ours.length - 2, 'one byte less per currency name, two payload items');

  // BSig: signature then pubkey, no timestamp; otherwise our RFC 6979 low-S signature, byte for byte.
  const sig = decodeBsig(container.sigs[0]);
  assert.equal(
    sig.fields.map((f) => f.name),
    ['pubkey'],
  );
  assert.is(sig.timestamp, undefined);
  assert.equal(sig.signature, createSigner(dev.key).signDigest(bsigDigest(sig, sdkBody)));

  // Register: k t h e, no nonce; ours ends in a fixed 8-byte nonce.
  const key = node.chain.accounts[1].secretKey;
  const register = decodeTx(base64ToBytes(await sdk.TransactionsApi.composeRegisterTX(toWif(key))));
  assert.equal(
    wireFields(register.body).map(([k, v]) => `${k}:${v.marker.toString(16)}`),
    ['k:11', 't:cf', 'h:c4', 'e:80'],
  );
  const t = (decodeBody(register.body) as { timestamp: number }).timestamp;
  assert.equal(
    wireFields(registerBody({ publicKeys: [publicKeyOf(key)], timestamp: t })).map(([k]) => k),
    ['k', 't', 'h', 'nonce'],
  );

  // Its automatic fee needs every setting non-zero: with baseextra 0 it adds no srcfee item.
  const noFee = decodeBody(decodeTx(sdk.TransactionsApi.composeSimpleTransferTX({ feeCur: 'SK', fee: 1, baseEx: 0, kb: 1000 }, toWif(dev.key), dev.address, to, 'SK', 5, '', 1)).body);
  assert.equal(noFee.kind === 'generic' && noFee.payload.map((p) => p.purposeName), ['transfer']);

  // Its MessagePack writer (@thepowereco/msgpack) takes integral JS numbers below 2^53 only,
  // and sends a bare Uint8Array as ext type 0x12 (addresses go out as Buffer: bin).
  assert.throws(() => sdk.TransactionsApi.composeSimpleTransferTX({}, toWif(dev.key), dev.address, to, 'SK', 2 ** 53, '', 1, 1, 'SK'), /Integer value out of bounds/);
  assert.throws(() => sdk.TransactionsApi.composeSimpleTransferTX({}, toWif(dev.key), dev.address, to, 'SK', 1.5, '', 1, 1, 'SK'), /Integer value out of bounds/);
  assert.throws(() => sdkMsgpack.encode(5n), /Unsupported type "bigint"/);
  assert.is(bytesToHex(sdkMsgpack.encode(new Uint8Array([1, 2]))), 'd5120102');
  assert.is(bytesToHex(sdkMsgpack.encode(Buffer.from([1, 2]))), 'c4020102');
});

test('nothing left the machine: every socket opened went to a node this test started', () => {
  assert.equal(sandbox.refused, []);
  assert.ok(sandbox.local.length > 0);
  assert.equal(
    sandbox.local.filter((target) => !nodePorts.has(target.slice(target.lastIndexOf(':') + 1))),
    [],
  );
});

test.run();
