// The official SDK, @thepowereco/tssdk 2.1.0, unchanged, against our node: its transfers
// and registrations are accepted and applied, its own network layer reads our answers,
// and our decoder explains what it signs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { base64ToBytes } from '../src/bytes.js';
import { addressToText, makeAddress } from '../src/codec/address.js';
import { decodeBody } from '../src/codec/body-decode.js';
import { decodeTx } from '../src/codec/container.js';
import { decodeMsgpack } from '../src/codec/msgpack.js';
import { decodeBsig } from '../src/crypto/bsig-tlv.js';
import { keysHash } from '../src/crypto/keys-hash.js';
import { generateSecretKey, publicKeyOf } from '../src/crypto/keys.js';
import { verifyTx } from '../src/crypto/sign-tx.js';
import { startTestNode, type TestNode } from './node-helpers.js';

/** The parts of the SDK this test calls (it ships CommonJS with loose types). */
interface Sdk {
  NetworkApi: new (chain: number, httpsOnly: boolean) => {
    load(state: { currentChain: number; currentNodes: { address: string; nodeId: string; time: number }[]; nodeIndex: number }): void;
    getFeeSettings(): Promise<{ feeCur: string; fee: number; baseEx: number; kb: number }>;
    getWalletSequence(address: string): Promise<number>;
    getWallet(address: string): Promise<{ amount: Record<string, number>; seq: number }>;
    sendTxAndWaitForResponse(tx: string, timeout: number): Promise<{ txId: string; res: string; block: string }>;
  };
  TransactionsApi: {
    composeSimpleTransferTX(fee: object, wif: string, from: string, to: string, token: string, amount: number, msg: string, seq: number): string;
    composeRegisterTX(wif: string): Promise<string>;
  };
}

const sdkRequire = createRequire(import.meta.url);
const sdk = sdkRequire('@thepowereco/tssdk') as Sdk;
// The SDK takes keys as WIF; `wif` is its own dependency, resolved from where it sits.
const wif = createRequire(sdkRequire.resolve('@thepowereco/tssdk'))('wif') as { encode(version: number, key: Buffer, compressed: boolean): string };
const toWif = (key: Uint8Array) => wif.encode(128, Buffer.from(key), true);

let node: TestNode;
let network: InstanceType<Sdk['NetworkApi']>;
let dev: { key: Uint8Array; address: string };

test.before(async () => {
  node = await startTestNode({ accounts: 1, difficulty: 0, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } } });
  dev = { key: node.chain.accounts[0].secretKey, address: addressToText(node.chain.accounts[0].address) };
  network = new sdk.NetworkApi(1, false);
  // The SDK's supported way to use known nodes without its bootstrap (which fetches a chain
  // list from GitHub): load() restores a saved node list.
  network.load({ currentChain: 1, currentNodes: [{ address: node.url, nodeId: 'tpkit', time: 1 }], nodeIndex: 0 });
});

test.after(async () => {
  await node.close();
});

test('an SDK transfer, with its own fee settings and seq read through its network layer, is applied', async () => {
  const fee = await network.getFeeSettings();
  assert.equal(fee, { feeCur: 'SK', fee: 1, baseEx: 64, kb: 1000 });
  const seq = await network.getWalletSequence(dev.address);
  const to = addressToText(makeAddress({ group: 10, block: 1, wallet: 77 }));
  const tx = sdk.TransactionsApi.composeSimpleTransferTX(fee, toWif(dev.key), dev.address, to, 'SK', 12345, 'hi', seq + 1);

  const bytes = base64ToBytes(tx);
  assert.ok(verifyTx(bytes).valid, 'our verifier accepts its signature');
  const body = decodeBody(decodeTx(bytes).body);
  assert.is(body.kind, 'generic');
  if (body.kind === 'generic') {
    assert.is(addressToText(body.from), dev.address);
    assert.is(addressToText(body.to), to);
    assert.is(body.seq, BigInt(seq + 1));
    assert.equal(body.payload[0], { purpose: 0, purposeName: 'transfer', currency: 'SK', amount: 12345n });
    assert.is(body.payload[1].purposeName, 'srcfee');
    assert.is(body.extra?.msg, 'hi');
  }

  const before = (await network.getWallet(dev.address)).amount.SK;
  const result = await network.sendTxAndWaitForResponse(tx, 50);
  assert.is(result.res, 'ok');
  assert.match(result.block, /^[0-9A-F]{64}$/);
  assert.is((await network.getWallet(to)).amount.SK, 12345);
  // Our node charges the formula's cost (1 SK here), not the larger amount the SDK offers.
  assert.is((await network.getWallet(dev.address)).amount.SK, before - 12345 - 1);
  assert.is(await network.getWalletSequence(dev.address), seq + 1);
});

test('an SDK registration (no nonce: a difficulty-0 node) creates a wallet', async () => {
  const key = generateSecretKey();
  const tx = await sdk.TransactionsApi.composeRegisterTX(toWif(key));
  const body = decodeBody(decodeTx(base64ToBytes(tx)).body);
  assert.is(body.kind, 'register');
  if (body.kind === 'register') {
    assert.is(body.nonce, undefined, 'the SDK sends no nonce');
    assert.equal(body.keysHash, keysHash([publicKeyOf(key)]));
  }
  const result = await network.sendTxAndWaitForResponse(tx, 50);
  assert.match(result.res, /^AA\d{18}$/);
  const wallet = await node.get(`/api/address/${result.res}`);
  assert.is(wallet.status, 200);
});

test('what the SDK encodes differently (README "Official SDK interop")', () => {
  const key = generateSecretKey();
  const tx = sdk.TransactionsApi.composeSimpleTransferTX({ feeCur: 'SK', fee: 1, baseEx: 64, kb: 1000 }, toWif(key), dev.address, dev.address, 'SK', 5_000_000_000, '', 2 ** 33);
  const container = decodeTx(base64ToBytes(tx));
  const tree = decodeMsgpack(container.body) as { entries: [{ value: string }, { type: string; marker: number; items?: any[] }][] };
  const field = (name: string) => tree.entries.find(([k]) => k.value === name)![1];
  assert.equal(tree.entries.map(([k]) => k.value), ['k', 't', 'f', 'to', 's', 'p', 'e']);
  assert.is(field('e').type, 'map', '`e` is always sent, empty without a message');
  assert.is(field('p').items![0].items[1].type, 'str', 'currency as str, where we send bin');
  assert.is(field('s').marker, 0xcf, 'a seq above 2^32 as uint64');
  const sig = decodeBsig(container.sigs[0]);
  assert.is(sig.timestamp, undefined, 'its BSig carries the public key only, no timestamp');
});

test.run();
