// The official SDK, @thepowereco/tssdk 2.1.0, unchanged, against our node: its transfers
// and registrations are accepted and applied, its own network and wallet layers read our
// answers, and our decoder explains what it signs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import net from 'node:net';
import { base64ToBytes, equalBytes } from '../src/bytes.js';
import { addressToText, makeAddress } from '../src/codec/address.js';
import { decodeBody } from '../src/codec/body-decode.js';
import { decodeTx } from '../src/codec/container.js';
import { decodeMsgpack } from '../src/codec/msgpack.js';
import type { MsgMapNode, MsgNode } from '../src/codec/msgpack-types.js';
import { decodeBsig } from '../src/crypto/bsig-tlv.js';
import { keysHash } from '../src/crypto/keys-hash.js';
import { publicKeyOf } from '../src/crypto/keys.js';
import { verifyTx } from '../src/crypto/sign-tx.js';
import { startTestNode, type TestNode } from './node-helpers.js';

/** The parts of the SDK this test calls (it ships CommonJS with loose types). */
interface FeeSettings { feeCur?: string; fee?: number; baseEx?: number; kb?: number }
interface TxResult { txId: string; res: string; block: string }
interface SdkNetwork {
  currentNodes: { address: string; nodeId: string; time: number; height?: number }[];
  feeSettings?: FeeSettings;
  bootstrap(): Promise<void>;
  getFeeSettings(): Promise<FeeSettings>;
  getNodeSettings(): Promise<{ current: { allocblock: { group: number; block: number } } }>;
  getWalletSequence(address: string): Promise<number>;
  getWallet(address: string): Promise<{ amount: Record<string, number>; seq: number; pubkey: string }>;
  getTransactionStatus(txId: string): Promise<{ ok?: boolean; error?: boolean; res: string; block?: string } | null>;
  sendTxAndWaitForResponse(tx: string, timeout: number): Promise<TxResult>;
}
interface SdkKeyPair { toWIF(): string; getPublicKeyBuffer(): Uint8Array }
interface Sdk {
  NetworkApi: new (chain: number, httpsOnly: boolean) => SdkNetwork;
  WalletApi: (new (network: SdkNetwork) => {
    makeNewTx(wif: string, from: string, to: string, token: string, amount: number, message: string): Promise<TxResult>;
    loadBalance(address: string): Promise<{ amount: Record<string, number> }>;
  }) & {
    registerCertainChain(options: { chain: number; customSeed: string; isHTTPSNodesOnly: boolean; timeout: number }): Promise<{ wif: string; address: string }>;
  };
  CryptoApi: { generateKeyPairFromSeedPhrase(seed: string, block: number, group: number): Promise<SdkKeyPair> };
  TransactionsApi: {
    composeSimpleTransferTX(fee: FeeSettings, wif: string, from: string, to: string, token: string, amount: number, msg: string, seq: number, fee2?: number, feeToken?: string): string;
    composeRegisterTX(wif: string): Promise<string>;
    packAndSignTX(body: object, wif: string): string;
  };
}

const sdkRequire = createRequire(import.meta.url);
const sdkEntry = sdkRequire.resolve('@thepowereco/tssdk');
const sdk = sdkRequire('@thepowereco/tssdk') as Sdk;
// Its own dependencies, resolved from where the SDK sits: the same instances it uses.
const fromSdk = createRequire(sdkEntry);
const wif = fromSdk('wif') as { encode(version: number, key: Buffer, compressed: boolean): string };
const sdkMsgpack = fromSdk('@thepowereco/msgpack') as { encode(value: unknown): Uint8Array };
// Its poll interval for statuses (5 s) is a setting in its own config object; an instant-block
// node answers at once, so the test polls every 20 ms.
const sdkConfig = (fromSdk('./config/chain.config.js') as { config: { callbackCallDelay: number } }).config;
sdkConfig.callbackCallDelay = 20;

// Nothing may leave the machine: every socket the process opens must go to a loopback host.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const outside: string[] = [];
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = args[0];
  const host = typeof first === 'object' && first !== null && 'host' in first ? String(first.host) : typeof args[1] === 'string' ? args[1] : undefined;
  if (host !== undefined && !LOOPBACK.has(host)) {
    outside.push(host);
    throw new Error(`the test tried to reach ${host}`);
  }
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof connect;

const toWif = (key: Uint8Array) => wif.encode(128, Buffer.from(key), true);
// A fixed key and a fixed seed phrase keep every run the same (the BIP39 test mnemonic).
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const SEED = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
// The SDK reads balances as JS numbers: keep them below 2^53 so they stay exact.
const FAUCET = 1_000_000_000_000n;

/**
 * The SDK's bootstrap reads a saved node list from `localStorage` before it would fetch the
 * chain list from GitHub: that is its supported way to name nodes, and nothing leaves the machine.
 */
const storage = new Map<string, string>();
const localStorageStub = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) };

let node: TestNode;
let network: SdkNetwork;
let chain: number;
let dev: { key: Uint8Array; address: string };

function field(map: MsgNode, name: string): MsgNode {
  const entry = (map as MsgMapNode).entries.find(([k]) => k.type === 'str' && k.value === name);
  if (!entry) throw new Error(`no key ${name}`);
  return entry[1];
}
const keysOf = (map: MsgNode) => (map as MsgMapNode).entries.map(([k]) => (k.type === 'str' ? k.value : '?'));

test.before(async () => {
  node = await startTestNode({ accounts: 1, difficulty: 0, faucet: { SK: FAUCET }, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } } });
  chain = node.chain.config.chain;
  dev = { key: node.chain.accounts[0].secretKey, address: addressToText(node.chain.accounts[0].address) };
  Object.defineProperty(globalThis, 'localStorage', { value: localStorageStub, configurable: true });
  storage.set('nodesList', JSON.stringify([{ address: node.url, nodeId: 'tpkit' }]));
  storage.set('chainId', String(chain));
  network = new sdk.NetworkApi(chain, false);
});

test.after(async () => {
  net.Socket.prototype.connect = connect;
  assert.equal(outside, [], 'no connection left the machine');
  Reflect.deleteProperty(globalThis, 'localStorage');
  await node.close();
});

test('an SDK transfer is accepted (200 + txid), applied, and explained by our decoder and verifier', async () => {
  const to = addressToText(makeAddress({ group: 10, block: 1, wallet: 77 }));
  const fee = { feeCur: 'SK', fee: 1, baseEx: 64, kb: 1000 };
  const tx = sdk.TransactionsApi.composeSimpleTransferTX(fee, toWif(dev.key), dev.address, to, 'SK', 12345, 'hi', 1);

  const bytes = base64ToBytes(tx);
  const verification = verifyTx(bytes);
  assert.ok(verification.valid, 'our verifier accepts its signature');
  assert.ok(equalBytes(verification.signatures[0].publicKey, publicKeyOf(dev.key)));
  const body = decodeBody(decodeTx(bytes).body);
  if (body.kind !== 'generic') throw new Error(`expected generic, got ${body.kind}`);
  assert.is(addressToText(body.from), dev.address);
  assert.is(addressToText(body.to), to);
  assert.is(body.seq, 1n);
  assert.equal(body.payload[0], { purpose: 0, purposeName: 'transfer', currency: 'SK', amount: 12345n });
  assert.is(body.payload[1].purposeName, 'srcfee');
  assert.is(body.extra?.msg, 'hi');

  const sent = await node.submit(tx);
  assert.is(sent.status, 200);
  assert.type(sent.body.txid, 'string');
  const status = await node.get(`/api/tx/status/${sent.body.txid}`);
  assert.is(status.body.res?.res, 'ok');
  assert.is((await node.get(`/api/address/${to}`)).body.info.amount.SK, 12345);
  // Our node charges the formula's cost (1 SK here), not the larger amount the SDK offers.
  assert.is((await node.get(`/api/address/${dev.address}`)).body.info.amount.SK, Number(FAUCET) - 12345 - 1);
});

test('without a saved node list its bootstrap goes to GitHub (stopped here)', async () => {
  const saved = storage.get('nodesList')!;
  storage.delete('nodesList');
  try {
    await new sdk.NetworkApi(chain, false).bootstrap().then(
      () => assert.unreachable('bootstrap succeeded offline'),
      (e: Error) => assert.match(e.message, /tried to reach raw\.githubusercontent\.com/),
    );
    assert.equal(outside.splice(0), ['raw.githubusercontent.com']);
  } finally {
    storage.set('nodesList', saved);
  }
});

test('the SDK bootstraps on our node from a saved node list and reads fees, seq and wallets', async () => {
  // It drops nodes whose head is at height 0, so this runs after the first block.
  await network.bootstrap();
  assert.equal(network.currentNodes.map((n) => n.address), [node.url]);
  assert.equal(network.feeSettings, { feeCur: 'SK', fee: 1, baseEx: 64, kb: 1000 });
  assert.equal(await network.getFeeSettings(), network.feeSettings);
  assert.is(await network.getWalletSequence(dev.address), 1);
  const wallet = await network.getWallet(dev.address);
  assert.is(wallet.seq, 1);
  assert.is(wallet.pubkey.toLowerCase(), Buffer.from(publicKeyOf(dev.key)).toString('hex'));
});

test('an SDK transfer sent and awaited by its own network layer is applied', async () => {
  const to = addressToText(makeAddress({ group: 10, block: 1, wallet: 78 }));
  const seq = await network.getWalletSequence(dev.address);
  const tx = sdk.TransactionsApi.composeSimpleTransferTX(network.feeSettings!, toWif(dev.key), dev.address, to, 'SK', 500, '', seq + 1);
  const result = await network.sendTxAndWaitForResponse(tx, 50);
  assert.is(result.res, 'ok');
  assert.match(result.block, /^[0-9A-F]{64}$/);
  assert.is((await network.getWallet(to)).amount.SK, 500);
  assert.is(await network.getWalletSequence(dev.address), seq + 1);
});

test('the SDK wallet layer: makeNewTx in whole tokens, loadBalance', async () => {
  const wallet = new sdk.WalletApi(network);
  const to = addressToText(makeAddress({ group: 10, block: 1, wallet: 79 }));
  // The wallet layer counts in whole SK (10^9 units).
  const result = await wallet.makeNewTx(toWif(dev.key), dev.address, to, 'SK', 2.5, 'from the wallet layer');
  assert.is(result.res, 'ok');
  assert.is((await node.get(`/api/address/${to}`)).body.info.amount.SK, 2_500_000_000);
  assert.equal((await wallet.loadBalance(to)).amount, { SK: 2.5 });
});

test('an SDK registration (no nonce: a difficulty-0 node) creates a wallet', async () => {
  const tx = await sdk.TransactionsApi.composeRegisterTX(toWif(OTHER_KEY));
  assert.ok(verifyTx(tx).valid);
  const body = decodeBody(decodeTx(base64ToBytes(tx)).body);
  if (body.kind !== 'register') throw new Error(`expected register, got ${body.kind}`);
  assert.is(body.nonce, undefined, 'the SDK sends no nonce');
  assert.equal(body.keysHash, keysHash([publicKeyOf(OTHER_KEY)]));
  const result = await network.sendTxAndWaitForResponse(tx, 50);
  assert.match(result.res, /^AA\d{18}$/);
  const wallet = await network.getWallet(result.res);
  assert.is(wallet.pubkey.toLowerCase(), Buffer.from(publicKeyOf(OTHER_KEY)).toString('hex'));
});

test('the SDK wallet layer registers from a seed phrase on our node', async () => {
  const created = await sdk.WalletApi.registerCertainChain({ chain, customSeed: SEED, isHTTPSNodesOnly: false, timeout: 20 });
  assert.match(created.address, /^AA\d{18}$/);
  const { group, block } = (await network.getNodeSettings()).current.allocblock;
  const pair = await sdk.CryptoApi.generateKeyPairFromSeedPhrase(SEED, block, group);
  assert.is(created.wif, pair.toWIF());
  const wallet = await network.getWallet(created.address);
  assert.is(wallet.pubkey.toLowerCase(), Buffer.from(pair.getPublicKeyBuffer()).toString('hex'));
});

test('on a fresh node: its bootstrap finds no node at height 0; proof of work refuses its registration', async () => {
  const strict = await startTestNode({ difficulty: 24 });
  const saved = storage.get('nodesList')!;
  try {
    storage.set('nodesList', JSON.stringify([{ address: strict.url, nodeId: 'tpkit' }]));
    const fresh = new sdk.NetworkApi(chain, false);
    await fresh.bootstrap().then(
      () => assert.unreachable('bootstrap kept a node at height 0'),
      (e: Error) => assert.match(e.message, /No nodes to query/),
    );
    assert.equal(fresh.currentNodes, []);
    const sent = await strict.submit(await sdk.TransactionsApi.composeRegisterTX(toWif(OTHER_KEY)));
    assert.is(sent.status, 400);
    assert.is(sent.body.ok, false);
    assert.is(sent.body.code, 10031);
  } finally {
    storage.set('nodesList', saved);
    await strict.close();
  }
});

test('what the SDK encodes differently (README "Official SDK interop")', async () => {
  const tx = sdk.TransactionsApi.composeSimpleTransferTX({ feeCur: 'SK', fee: 1, baseEx: 64, kb: 1000 }, toWif(OTHER_KEY), dev.address, dev.address, 'SK', 5_000_000_000, '', 2 ** 33);
  const container = decodeTx(base64ToBytes(tx));
  const generic = decodeMsgpack(container.body);
  assert.equal(keysOf(generic), ['k', 't', 'f', 'to', 's', 'p', 'e']);
  assert.equal(keysOf(field(generic, 'e')), [], '`e` is always sent, empty without a message');
  const items = field(generic, 'p');
  if (items.type !== 'array') throw new Error('p is not an array');
  const [transfer, srcfee] = items.items.map((item) => (item.type === 'array' ? item.items : []));
  assert.is(transfer[1].type, 'str', 'currency as str, where we send bin');
  assert.is(transfer[2].marker, 0xcf, 'an amount above 2^32 as uint64');
  assert.is(field(generic, 's').marker, 0xcf, 'a seq above 2^32 as uint64');
  assert.is(field(generic, 't').marker, 0xcf, 'a millisecond time as uint64');
  // Its fee formula leaves out the 32 bytes the node's formula subtracts, so it offers more.
  const size = container.body.length;
  const offered = srcfee[2].type === 'uint' ? Number(srcfee[2].value) : -1;
  assert.is(offered, 1 + Math.floor(((size - 64) * 1000) / 1024));
  assert.ok(offered > 1 + Math.floor(((size - 32 - 64) * 1000) / 1024));
  const sig = decodeBsig(container.sigs[0]);
  assert.is(sig.fields.length, 1, 'its BSig carries the public key only');
  assert.is(sig.timestamp, undefined, 'no timestamp');

  const register = decodeMsgpack(decodeTx(base64ToBytes(await sdk.TransactionsApi.composeRegisterTX(toWif(OTHER_KEY)))).body);
  assert.equal(keysOf(register), ['k', 't', 'h', 'e'], 'no nonce; an empty `e` map');

  // Its msgpack refuses what it cannot send as an unsigned or negative integer, and sends a
  // bare Uint8Array as an ext type (addresses go out as Buffer, which it sends as bin).
  assert.throws(() => sdkMsgpack.encode(5n), /bigint/);
  assert.throws(() => sdkMsgpack.encode(2 ** 53), /out of bounds/);
  assert.throws(() => sdkMsgpack.encode(1.5), /out of bounds/);
  assert.is(Buffer.from(sdkMsgpack.encode(new Uint8Array([1, 2]))).toString('hex'), 'd5120102');
  assert.is(Buffer.from(sdkMsgpack.encode(Buffer.from([1, 2]))).toString('hex'), 'c4020102');
});

test.run();
