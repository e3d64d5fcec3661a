// A wallet's history as the official clients read it. PowerWallet (SDK 2.2) starts at GET
// address's `info.lastblock.tx` (a height), reads GET blockn/{h}?addr=, keeps the transactions
// whose `from`/`to` equal the address as "0x" + lowercase hex, and steps to the height in the
// old value of the block's `ledger_patch` row [address, "lastblk", …]; SDK 2.1.0 walks GET
// block/{hash}?addr= by `bals[addr].lastblk` (tssdk-interop.test.ts drives that walk). Both
// walks run here over one wallet, with transfers in and out, and must find the same transfers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { addressToText, parseAddress } from '../../src/codec/address.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { pay, register, startTestNode, transfer, waitStatus, type TestNode } from '../helpers/node-helpers.js';
import { sandboxSdk, sdk, type SdkSandbox } from '../helpers/tssdk-helpers.js';

let node: TestNode;
let sandbox: SdkSandbox;
const key = generateSecretKey();
let wallet: string;
/** Lowercase "0x" hex of the wallet's address, the form PowerWallet compares. */
let hex0x: string;
let t = Date.now();
const mine: string[] = [];
const heights: number[] = [];

async function included(tx: string): Promise<{ txid: string; height: number }> {
  const sent = await node.submit(tx);
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  const status = await waitStatus(node, sent.body.txid);
  assert.ok(status.ok, JSON.stringify(status));
  const block = (await node.get(`/api/block/${status.block}`)).body.block;
  return { txid: sent.body.txid, height: block.header.height };
}

test.before(async () => {
  node = await startTestNode({ accounts: 2, fees: {} });
  sandbox = sandboxSdk();
  sandbox.setNodes([{ address: node.url, nodeId: 'tpkit' }], 1);
  const reg = await included(register(key, ++t, 0));
  heights.push(reg.height);
  wallet = (await node.get(`/api/tx/status/${reg.txid}`)).body.res.address;
  hex0x = `0x${bytesToHex(parseAddress(wallet))}`;
  const [dev0, dev1] = node.chain.accounts;
  const steps = [
    transfer({ key: dev0.secretKey, from: dev0.address, to: parseAddress(wallet), seq: 1, t: ++t, payload: [pay(500)] }),
    transfer({ key, from: parseAddress(wallet), to: dev1.address, seq: 1, t: ++t, payload: [pay(120)] }),
    // a block that does not touch the wallet
    transfer({ key: dev0.secretKey, from: dev0.address, to: dev1.address, seq: 2, t: ++t, payload: [pay(1)] }),
    transfer({ key: dev1.secretKey, from: dev1.address, to: parseAddress(wallet), seq: 1, t: ++t, payload: [pay(30)] }),
    transfer({ key, from: parseAddress(wallet), to: dev0.address, seq: 2, t: ++t, payload: [pay(10)] }),
  ];
  for (const [i, tx] of steps.entries()) {
    const done = await included(tx);
    if (i !== 2) {
      mine.push(done.txid);
      heights.push(done.height);
    }
  }
});

test.after(async () => {
  sandbox.restore();
  await node.close();
});

test('GET address: info.lastblock.tx is the height of the last block that changed the wallet; lastblk stays', async () => {
  const { info } = (await node.get(`/api/address/${wallet}`)).body;
  assert.equal(info.lastblock, { tx: heights.at(-1) });
  const last = (await node.get(`/api/blockn/${heights.at(-1)}`)).body.block;
  assert.is(info.lastblk, last.hash, 'the hash form is still there');
});

test('GET blockn/{h}?addr=: ledger_patch rows for the wallet, addresses in txs as 0x + lowercase hex', async () => {
  const h = heights.at(-1)!;
  const block = (await node.get(`/api/blockn/${h}?addr=${wallet}`)).body.block;
  const rows = block.ledger_patch as unknown[][];
  assert.ok(
    rows.every((row) => row[0] === hex0x),
    "with ?addr= only the wallet's rows",
  );
  assert.equal(
    rows.find((row) => row[1] === 'lastblk'),
    [hex0x, 'lastblk', '0x7478', heights.at(-2), h],
  );
  assert.equal(
    rows.find((row) => row[1] === 'balance'),
    [hex0x, 'balance', '0x534b', 410, 400],
  );
  assert.equal(
    rows.find((row) => row[1] === 'seq'),
    [hex0x, 'seq', [], 1, 2],
  );
  const [tx] = Object.values(block.txs) as { from: string; to: string }[];
  assert.equal([tx.from, tx.to], [hex0x, `0x${bytesToHex(node.chain.accounts[0].address)}`]);
  assert.ok(Object.keys(block.bals).includes(bytesToHex(parseAddress(wallet), true)), 'bals as before');
});

test('the block that created the wallet: "0x" for the values it had none of, and its public key', async () => {
  const block = (await node.get(`/api/blockn/${heights[0]}?addr=${wallet}`)).body.block;
  const rows = block.ledger_patch as unknown[][];
  assert.equal(
    rows.find((row) => row[1] === 'lastblk'),
    [hex0x, 'lastblk', '0x7478', '0x', heights[0]],
  );
  const pubkey = rows.find((row) => row[1] === 'pubkey');
  assert.ok(pubkey, JSON.stringify(rows));
  assert.equal(pubkey.slice(0, 4), [hex0x, 'pubkey', [], '0x']);
  assert.match(pubkey[4] as string, /^0x0[23][0-9a-f]{64}$/);
});

test('GET block/{hash}: ledger_patch beside bals, and txs keep the uppercase hex SDK 2.1.0 converts', async () => {
  const hash = (await node.get(`/api/blockn/${heights[2]}`)).body.block.hash;
  const block = (await node.get(`/api/block/${hash}`)).body.block;
  const [tx] = Object.values(block.txs) as { from: string; to: string }[];
  assert.is(tx.from, bytesToHex(parseAddress(wallet), true));
  const rows = block.ledger_patch as unknown[][];
  const addresses = new Set(rows.map((row) => row[0]));
  assert.ok(addresses.has(hex0x) && addresses.size >= 2, "without ?addr= every changed wallet's rows");
});

test("PowerWallet's walk (useTransactionsHistory) finds every transfer in and out, newest first, and stops", async () => {
  const found: string[] = [];
  const visited: number[] = [];
  let height: unknown = (await node.get(`/api/address/${wallet}`)).body.info.lastblock.tx;
  while (typeof height === 'number' && height !== 0) {
    visited.push(height);
    const res = await node.get(`/api/blockn/${height}?addr=${wallet}`);
    assert.is(res.status, 200, `blockn/${height}`);
    const block = res.body.block;
    for (const [txid, tx] of Object.entries(block.txs as Record<string, { from?: string; to?: string }>)) {
      if (tx.from?.toLowerCase() === hex0x || tx.to?.toLowerCase() === hex0x) found.push(txid);
    }
    height = (block.ledger_patch as unknown[][]).find((row) => row[1] === 'lastblk' && row[0] === hex0x)?.[3];
  }
  assert.equal(visited, [...heights].reverse());
  assert.equal(found, [...mine].reverse());
});

test("SDK 2.1.0's own walk over the same wallet finds the same transfers", async () => {
  const network = new sdk.NetworkApi(1, false);
  await network.bootstrap();
  const lastblk = (await node.get(`/api/address/${wallet}`)).body.info.lastblk as string;
  const history = await new sdk.WalletApi(network).getRawTransactionsHistory(lastblk, wallet, 100, () => true);
  assert.not.ok(history.has('needMore'));
  const transfers = [...history.entries()].filter(([, v]) => typeof v === 'object' && !v.addressAllocationBlock).map(([txid]) => txid);
  assert.equal(transfers.sort(), [...mine].sort());
  assert.ok([...history.values()].some((v) => typeof v === 'object' && v.from === wallet && v.to === addressToText(node.chain.accounts[1].address)));
});

test('the shapes survive a restart: heights and ledger_patch are read back from the store', async () => {
  const dir = (await import('node:fs')).mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'tpkit-history-'));
  const first = await startTestNode({ accounts: 1, fees: {}, memory: false, dataDir: dir });
  const [dev] = first.chain.accounts;
  const to = parseAddress(wallet);
  const sent = await first.submit(transfer({ key: dev.secretKey, from: dev.address, to, seq: 1, t: ++t, payload: [pay(5)] }));
  const status = await waitStatus(first, sent.body.txid);
  const before = (await first.get(`/api/blockn/${(await first.get(`/api/address/${addressToText(dev.address)}`)).body.info.lastblock.tx}`)).body.block;
  await first.close();
  const second = await startTestNode({ accounts: 1, fees: {}, memory: false, dataDir: dir });
  try {
    const info = (await second.get(`/api/address/${addressToText(dev.address)}`)).body.info;
    const after = (await second.get(`/api/blockn/${info.lastblock.tx}`)).body.block;
    assert.is(after.hash, status.block);
    assert.equal(after.ledger_patch, before.ledger_patch);
    assert.equal(after.ledger_patch.find((row: unknown[]) => row[1] === 'lastblk' && row[0] === `0x${bytesToHex(dev.address)}`).slice(3), [0, info.lastblock.tx]);
  } finally {
    await second.close();
  }
});

test.run();
