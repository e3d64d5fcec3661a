// tpkit/tssdk against the official SDK 2.1.0: its own NetworkApi bootstraps from a `tpkit node`
// that asks for 16 and 20 bits, registerCertainChain mines and registers through it, and the
// SDK then finds the wallet with the key of the WIF it was given. The SDK's own registration
// is refused on the same node, which is the gap the drop-in closes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { base64ToBytes, bytesToHex } from '../../src/bytes.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeTx } from '../../src/codec/container.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { mnemonicToSecretKey } from '../../src/keys/mnemonic.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { verifyTx } from '../../src/crypto/sign-tx.js';
import { powBits } from '../../src/pow/bits.js';
import { composeMinedRegisterTX, registerCertainChain, registerDifficulty, type TssdkModule } from '../../src/tssdk.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { fromWif, rejection, sandboxSdk, sdk, toWif, type SdkSandbox } from '../helpers/tssdk-helpers.js';

const SEED = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const tssdk = sdk as unknown as TssdkModule;
let sandbox: SdkSandbox;
const nodes: TestNode[] = [];

async function nodeAt(difficulty: number): Promise<TestNode> {
  const node = await startTestNode({ accounts: 1, difficulty });
  nodes.push(node);
  sandbox.setNodes([{ address: node.url, nodeId: 'tpkit' }], 1);
  return node;
}

test.before(() => {
  sandbox = sandboxSdk();
});

test.after(async () => {
  sandbox.restore();
  for (const node of nodes) await node.close();
});

for (const difficulty of [16, 20]) {
  test(`difficulty ${difficulty}: the SDK's registerCertainChain is refused, ours registers and the SDK finds the wallet with its key`, async () => {
    const node = await nodeAt(difficulty);
    const refused = await rejection(sdk.WalletApi.registerCertainChain({ chain: 1, customSeed: SEED, isHTTPSNodesOnly: false, timeout: 5 }));
    assert.match(String((refused as { message?: string }).message ?? refused), /proof of work|POW_TOO_LOW|difficulty/i);

    const seen: number[] = [];
    const result = await registerCertainChain(tssdk, {
      chain: 1,
      customSeed: SEED,
      isHTTPSNodesOnly: false,
      timeout: 60,
      onDifficulty: (d) => seen.push(d),
    });
    assert.equal(seen, [difficulty], "the difficulty read from the node's settings");
    assert.equal(Object.keys(result).sort(), ['address', 'chain', 'seed', 'wif']);
    assert.is(result.chain, 1);
    assert.is(result.seed, SEED);
    // The SDK derives the same WIF from the seed; its network finds the wallet with that key.
    const network = new sdk.NetworkApi(1, false);
    await network.bootstrap();
    const { current } = await network.getNodeSettings();
    const sdkKey = await sdk.CryptoApi.generateKeyPairFromSeedPhrase(SEED, current.allocblock.block, current.allocblock.group);
    assert.is(result.wif, sdkKey.toWIF());
    const wallet = await network.getWallet(result.address);
    assert.is(wallet.pubkey, bytesToHex(publicKeyOf(fromWif(result.wif)), true));

    // The body the node stored carries a nonce that meets the difficulty.
    const blockHash = (await node.get(`/api/address/${result.address}`)).body.info.lastblk as string;
    const block = await node.chain.blockByHash(blockHash);
    const container = await node.chain.txContainer(block!.txs[0]);
    const body = decodeTx(container!).body;
    const decoded = decodeBody(body);
    assert.ok(decoded.kind === 'register' && decoded.nonce !== undefined, 'a nonce in the register body');
    assert.ok(powBits(body) >= difficulty, `${powBits(body)} bits`);
  });
}

test('the SDK 2.2 shape: settings unwrapped to current, keys derived from a path with the block first; the wallet is the one 2.2 would make', async () => {
  await nodeAt(16);
  // SDK 2.2 (PowerTools, not on npm): getNodeSettings answers `current`, and
  // generateKeyPairFromSeedPhrase(phrase, path) derives at the path its registration passes.
  const paths: string[] = [];
  class NetworkApi22 extends (sdk.NetworkApi as unknown as new (chain: number, https?: boolean) => { getNodeSettings(): Promise<{ current: unknown }> }) {
    override async getNodeSettings() {
      return (await super.getNodeSettings()).current as never;
    }
  }
  const sdk22 = {
    NetworkApi: NetworkApi22,
    CryptoApi: {
      generateSeedPhrase: () => SEED,
      async generateKeyPairFromSeedPhrase(phrase: string, path: string) {
        paths.push(path);
        const key = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase)).derive(path).privateKey!;
        return { toWIF: () => toWif(key) };
      },
    },
  } as unknown as TssdkModule;
  const result = await registerCertainChain(sdk22, { chain: 1, customSeed: SEED, isHTTPSNodesOnly: false, timeout: 60 });
  assert.equal(paths, ["m/44/31337'/0'/1'/10'"], 'block 1 first, then group 10, as 2.2 registers');
  assert.equal(fromWif(result.wif), mnemonicToSecretKey(SEED, { block: 1, group: 10 }, 'block-group'));
  const network = new sdk.NetworkApi(1, false);
  await network.bootstrap();
  assert.is((await network.getWallet(result.address)).pubkey, bytesToHex(publicKeyOf(fromWif(result.wif)), true));
});

test("composeMinedRegisterTX in place of composeRegisterTX: the SDK's fields plus a nonce, signed by the WIF's key, sent by the SDK's createTransaction", async () => {
  await nodeAt(16);
  const network = new sdk.NetworkApi(1, false);
  await network.bootstrap();
  const key = new Uint8Array(32).fill(7);
  const { tx, mined } = await composeMinedRegisterTX(toWif(key), { difficulty: 16, referrer: 'AA100000001677721780' });
  const container = base64ToBytes(tx);
  assert.ok(verifyTx(container).valid);
  const body = decodeBody(decodeTx(container).body);
  assert.ok(body.kind === 'register');
  if (body.kind !== 'register') return;
  assert.equal(body.extra, { referrer: 'AA100000001677721780' });
  assert.is(body.nonce, mined.nonce);
  const sent = await (network as unknown as { createTransaction(d: { tx: string }): Promise<{ txid: string }> }).createTransaction({ tx });
  assert.match(sent.txid, /-tpkit$/);
});

test('abort: an AbortSignal stops the mining with ABORTED and nothing is sent', async () => {
  const node = await nodeAt(40);
  const height = node.chain.height;
  const stop = new AbortController();
  const error = await rejection(
    registerCertainChain(tssdk, {
      chain: 1,
      customSeed: SEED,
      isHTTPSNodesOnly: false,
      maxDifficulty: 40,
      signal: stop.signal,
      onProgress: () => stop.abort(),
    }),
  );
  assert.is((error as { code?: string }).code, 'ABORTED');
  assert.is(node.chain.height, height, 'no block');
});

test('a chain asking for more than maxDifficulty: DIFFICULTY_TOO_HIGH before any mining', async () => {
  await nodeAt(30);
  const error = await rejection(registerCertainChain(tssdk, { chain: 1, customSeed: SEED, isHTTPSNodesOnly: false }));
  assert.is((error as { code?: string }).code, 'DIFFICULTY_TOO_HIGH');
  assert.match((error as Error).message, /30 bits, maxDifficulty 28/);
});

test('bad input is a typed error: no SDK, a WIF that is not one', async () => {
  const code = async (p: Promise<unknown>) => ((await rejection(p)) as Error & { code?: string }).code;
  assert.is(await code(registerCertainChain({} as TssdkModule, { chain: 1 })), 'INVALID_ARGUMENT');
  assert.is(await code(composeMinedRegisterTX('not a wif', { difficulty: 1 })), 'WIF_INVALID');
});

test('registerDifficulty reads GET /api/settings as the node answers it and as the SDK unwraps it; anything else is BAD_RESPONSE', async () => {
  const node = await nodeAt(20);
  const raw = (await node.get('/api/settings')).body;
  assert.is(registerDifficulty(raw), 20);
  assert.is(registerDifficulty(raw.settings), 20);
  assert.is(registerDifficulty(raw.settings.current), 20, 'the SDK 2.2 unwraps current');
  assert.is(registerDifficulty({ current: {} }), 0, 'no register section: no proof of work');
  for (const bad of [null, {}, { ok: true }, { current: { register: { diff: -1 } } }, { current: { register: { diff: 'x' } } }, { register: { diff: 16 } }]) {
    let code: string | undefined;
    try {
      registerDifficulty(bad);
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    assert.is(code, 'BAD_RESPONSE', JSON.stringify(bad));
  }
});

test.run();
