// The wallet flows end to end against a real node on port 0 at difficulty 12: two
// registrations mined by the WASM miner, funding from the development wallet, a transfer
// with the automatic fee, and the documented failures.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, TxFailedError, createClient, registerWallet, transfer, type TpkitClient } from '../../src/client/index.js';
import { addressToText } from '../../src/codec/address.js';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { decodeTx } from '../../src/codec/container.js';
import { feeCost } from '../../src/codec/fee.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { verifyTx } from '../../src/crypto/sign-tx.js';
import { powBits } from '../../src/pow/bits.js';
import { closeSharedMinerPool, createMinerPool } from '../../src/pow/pool.node.js';
import { TpkitError } from '../../src/errors.js';
import { rejection } from '../helpers/helpers.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const RATE = { base: 2n, baseextra: 40n, kb: 3000n };
let node: TestNode;
let client: TpkitClient;
let dev: { secretKey: Uint8Array; address: string };
const alice = { secretKey: generateSecretKey(), address: '' };
const bob = { secretKey: generateSecretKey(), address: '' };

test.before(async () => {
  node = await startTestNode({ difficulty: 12, accounts: 1, fees: { SK: RATE } });
  client = createClient({ baseUrl: node.url });
  const account = node.chain.accounts[0];
  dev = { secretKey: account.secretKey, address: addressToText(account.address) };
});

test.after(async () => {
  await node.close();
  await closeSharedMinerPool();
});

const balance = async (address: string, currency = 'SK') => (await client.getAddress(address)).amount[currency] ?? 0n;

test('registerWallet mines to the node difficulty, and two wallets get two addresses', async () => {
  const stages: string[] = [];
  let progressCalls = 0;
  const a = await registerWallet({ client, secretKeys: [alice.secretKey], onStage: (s) => stages.push(s), onProgress: () => progressCalls++ });
  // a secret key given as hex (0x optional), as viem's privateKeyToAccount takes one
  const b = await registerWallet({ client, secretKeys: '0x' + bytesToHex(bob.secretKey) });
  alice.address = a.address;
  bob.address = b.address;
  assert.equal(stages, ['settings', 'mining', 'submitting', 'waiting']);
  assert.is(a.difficulty, 12);
  assert.ok(powBits(a.mined.body) >= 12 && powBits(b.mined.body) >= 12);
  assert.is.not(a.address, b.address);
  for (const r of [a, b]) {
    const status = await client.getTxStatus(r.txid);
    assert.ok(status?.ok);
    assert.is(status?.ok && status.address, r.address);
    assert.is(status?.ok && status.block, r.block);
    const info = await client.getAddress(r.address);
    assert.is(info.seq, 0n);
    assert.equal(info.amount, {});
    assert.is(info.lastblk, r.block);
  }
  assert.is((await client.getAddress(a.address, { pubkey: 'pem' })).pubkey.split('\n')[0], '-----BEGIN PUBLIC KEY-----');
});

test('fund from the development wallet, then transfer with the automatic fee', async () => {
  const devBefore = await client.getAddress(dev.address);
  const funded = await transfer({ client, secretKey: dev.secretKey, from: dev.address, to: alice.address, currency: 'SK', amount: 1_000_000n });
  assert.is(funded.seq, devBefore.seq + 1n);
  assert.is(await balance(alice.address), 1_000_000n);
  assert.is(await balance(dev.address), devBefore.amount.SK - 1_000_000n - funded.fee);

  const feeAddress = addressToText(hexToBytes((await client.getSettings('current.fee.params')).feeaddr));
  const feesBefore = await balance(feeAddress);
  const sent = await transfer({ client, secretKey: bytesToHex(alice.secretKey), from: alice.address, to: bob.address, currency: 'SK', amount: 250_000n, message: 'rent' });
  // the fee is the reference formula over the exact signed body
  const { body } = decodeTx(sent.tx);
  assert.is(sent.fee, feeCost(body.length, RATE));
  assert.ok(sent.fee > RATE.base, 'a body longer than baseextra pays per byte');
  const decoded = decodeBody(body);
  assert.is(decoded.kind, 'generic');
  if (decoded.kind === 'generic') {
    assert.equal(
      decoded.payload.map((p) => [p.purposeName, p.currency, p.amount]),
      [
        ['transfer', 'SK', 250_000n],
        ['srcfee', 'SK', sent.fee],
      ],
    );
    assert.is(decoded.extra?.msg, 'rent');
  }
  assert.ok(verifyTx(sent.tx).valid);

  assert.is(sent.seq, 1n);
  assert.ok(sent.status?.ok);
  const a = await client.getAddress(alice.address);
  const b = await client.getAddress(bob.address);
  assert.is(a.amount.SK, 1_000_000n - 250_000n - sent.fee);
  assert.is(b.amount.SK, 250_000n);
  assert.is(a.seq, 1n);
  assert.is(await client.getSeq(alice.address), 1n);
  assert.is(b.seq, 0n, 'receiving does not consume seq');
  const block = sent.status?.ok ? sent.status.block : undefined;
  assert.is(a.lastblk, block);
  assert.is(b.lastblk, block);
  assert.is(await balance(feeAddress), feesBefore + sent.fee);
  const head = await client.nodeStatus();
  assert.is(head.hash, block);
});

test('a reused seq fails in the block with bad_seq and changes nothing', async () => {
  const before = await client.getAddress(alice.address);
  const err = await rejection(transfer({ client, secretKey: alice.secretKey, from: alice.address, to: bob.address, currency: 'SK', amount: 1n, seq: before.seq }));
  assert.instance(err, TxFailedError);
  assert.is((err as TxFailedError).reason, 'bad_seq');
  const status = await client.getTxStatus((err as TxFailedError).txid);
  assert.equal(status && !status.ok && status.reason, 'bad_seq');
  const after = await client.getAddress(alice.address);
  assert.is(after.seq, before.seq);
  assert.is(after.amount.SK, before.amount.SK);
});

test('spending more than the balance fails with insufficient_fund and changes nothing', async () => {
  const before = await client.getAddress(bob.address);
  const err = await rejection(transfer({ client, secretKey: bob.secretKey, from: bob.address, to: alice.address, currency: 'SK', amount: before.amount.SK + 1n }));
  assert.is(err.code, 'TX_FAILED');
  assert.is((err as TxFailedError).reason, 'insufficient_fund');
  const after = await client.getAddress(bob.address);
  assert.is(after.amount.SK, before.amount.SK);
  assert.is(after.seq, before.seq);
});

test('without waiting, transfer returns the txid and the status follows', async () => {
  const sent = await transfer({ client, secretKey: bob.secretKey, from: bob.address, to: alice.address, currency: 'SK', amount: 10n, wait: false });
  assert.is(sent.status, undefined);
  const status = await client.waitForTx(sent.txid, { timeoutMs: 5000 });
  assert.ok(status.ok);
});

test('beforeSigning sees the seq and fee before anything is signed, and throwing there sends nothing', async () => {
  const before = await client.getAddress(bob.address);
  const pending = node.chain.mempool.size;
  let seen: { seq: bigint; fee: bigint; feeCurrency?: string } | undefined;
  const stop = new TpkitError('PRECHECK_FAILED', 'not this one');
  const err = await rejection(
    transfer({
      client,
      secretKey: bob.secretKey,
      from: bob.address,
      to: alice.address,
      currency: 'SK',
      amount: 1n,
      beforeSigning: (plan) => {
        seen = plan;
        throw stop;
      },
    }),
  );
  assert.is(err, stop);
  assert.is(seen!.seq, before.seq + 1n);
  assert.is(seen!.feeCurrency, 'SK');
  assert.ok(seen!.fee > 0n, 'the automatic fee is known by then');
  assert.is(node.chain.mempool.size, pending, 'nothing was submitted');
  assert.is((await client.getAddress(bob.address)).seq, before.seq);
});

test('signing for a wallet with another key is refused at submission', async () => {
  const err = await rejection(transfer({ client, secretKey: bob.secretKey, from: alice.address, to: bob.address, currency: 'SK', amount: 1n }));
  assert.instance(err, ApiError);
  assert.is((err as ApiError).nodeError, 'SENDER_KEY_MISMATCH');
  assert.is((err as ApiError).status, 400);
});

test('a secret key that is neither 32 bytes nor 64 hex digits is refused before anything is sent', async () => {
  const before = node.chain.height;
  const bad: [unknown, string][] = [
    ['xyz', 'BAD_HEX'],
    ['ab'.repeat(31), 'KEY_INVALID'],
    ['00'.repeat(32), 'KEY_INVALID'],
    [42, 'INVALID_ARGUMENT'],
  ];
  for (const [key, code] of bad) {
    const t = await rejection(transfer({ client, secretKey: key as string, from: alice.address, to: bob.address, currency: 'SK', amount: 1n }));
    assert.ok(t instanceof TpkitError && t.code === code, `transfer(${String(key).slice(0, 8)}): ${(t as Error).message}`);
    const r = await rejection(registerWallet({ client, secretKeys: key as string }));
    assert.ok(r instanceof TpkitError && r.code === code, `registerWallet(${String(key).slice(0, 8)}): ${(r as Error).message}`);
  }
  assert.is(node.chain.height, before, 'nothing reached the node');
});

test('an aborted registration rejects with ABORTED, stops mining and registers nothing', async () => {
  const hard = await startTestNode({ difficulty: 40 });
  const pool = createMinerPool(2);
  try {
    const hardClient = createClient({ baseUrl: hard.url });
    const heightBefore = (await hardClient.nodeStatus()).height;
    const controller = new AbortController();
    let hashesAtAbort = 0;
    let hashesLater = 0;
    const pending = rejection(
      registerWallet({
        client: hardClient,
        secretKeys: [generateSecretKey()],
        pool,
        // Above the default bound of 28: this caller chose to mine it, and aborts.
        maxDifficulty: 40,
        signal: controller.signal,
        onProgress: (p) => {
          if (!controller.signal.aborted && p.hashes > 50_000) {
            hashesAtAbort = p.hashes;
            controller.abort();
          } else if (controller.signal.aborted) hashesLater = p.hashes;
        },
      }),
    );
    const started = Date.now();
    const err = await pending;
    assert.is(err.code, 'ABORTED');
    assert.ok(hashesAtAbort > 0);
    assert.ok(hashesLater === 0 || hashesLater >= hashesAtAbort);
    assert.ok(Date.now() - started < 10_000);
    assert.is((await hardClient.nodeStatus()).height, heightBefore, 'no block, no wallet');
    assert.is((await hard.get('/api/node/status')).body.status.pending, 0);
  } finally {
    await pool.destroy();
    await hard.close();
  }
});

test.run();
