// A wallet's test suite as a wallet team would write it against `startNode()`: each test starts
// from the same snapshot, the node clock is moved to hit the timestamp checks, and the library
// client is driven through every injected fault to check the typed error it raises.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText, makeAddress, parseAddress } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { TpkitError } from '../../src/errors.js';
import { ApiError, NetworkError, TimeoutError, UnknownTxError, createClient, type ChainReset, type TpkitClient } from '../../src/client/index.js';
import { startNode, type RunningNode } from '../../src/node/index.js';
import { pay, transfer } from '../helpers/node-helpers.js';
import { withDeadlines } from '../helpers/helpers.js';

/** Resolves when `promise` rejects with an error `check` accepts; fails the test otherwise. */
async function rejects(promise: Promise<unknown>, check: (e: unknown) => boolean, message?: string): Promise<void> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) assert.unreachable(`${message ?? 'expected a rejection'}; resolved with ${JSON.stringify(outcome.value)}`);
  else if (!check(outcome.error)) assert.unreachable(`${message ?? 'unexpected error'}: ${String(outcome.error)}`);
}

// A test that waits on something that never comes fails by name within a minute.
const wallet = withDeadlines(suite<{ node: RunningNode; client: TpkitClient; from: string; key: Uint8Array }>('wallet suite'), 60_000);
const stranger = addressToText(makeAddress({ group: 10, block: 1, wallet: 7777 }));

wallet.before(async (ctx) => {
  ctx.node = await startNode({ difficulty: 0, accounts: 2 });
  ctx.client = createClient({ baseUrl: ctx.node.url, timeoutMs: 10_000 });
  ctx.from = ctx.node.accounts[0].address;
  ctx.key = ctx.node.accounts[0].secretKey;
  await ctx.node.snapshot('clean');
});

// Every test starts from the chain as `before` left it.
wallet.before.each(async (ctx) => {
  ctx.node.faults.clear();
  await ctx.node.revert('clean');
});

wallet.after(async (ctx) => {
  await ctx.node.close();
});

async function send(ctx: { client: TpkitClient; from: string; key: Uint8Array }, amount: number, t = Date.now()): Promise<string> {
  const seq = await ctx.client.getSeq(ctx.from);
  return ctx.client.submitTx(transfer({ key: ctx.key, from: parseAddress(ctx.from), to: parseAddress(stranger), seq: seq + 1n, t, payload: [pay(amount)] }));
}

wallet('a transfer lands: the stranger has 500 SK (the next test starts without it)', async (ctx) => {
  const txid = await send(ctx, 500);
  const status = await ctx.client.waitForTx(txid, { timeoutMs: 10_000 });
  assert.ok(status.ok, JSON.stringify(status));
  assert.is((await ctx.client.getAddress(stranger)).amount.SK, 500n);
});

wallet('after revert the stranger does not exist, the height and the transaction are gone, and the same transfer lands again', async (ctx) => {
  await rejects(ctx.client.getAddress(stranger), (e: unknown) => e instanceof ApiError && e.nodeError === 'WALLET_NOT_FOUND');
  const txid = await send(ctx, 500);
  assert.ok((await ctx.client.waitForTx(txid, { timeoutMs: 10_000 })).ok);
  const moved = await ctx.client.dev.revert('clean');
  assert.is(moved.height, ctx.node.height());
  await rejects(ctx.client.getTxStatus(txid), (e: unknown) => e instanceof UnknownTxError);
  // The snapshot stays valid: revert again, take another, revert to both.
  await ctx.client.dev.revert('clean');
  const second = await ctx.client.dev.snapshot();
  await ctx.client.dev.revert(second.id);
  await ctx.client.dev.revert('clean');
  assert.ok((await ctx.client.dev.snapshots()).some((s) => s.name === 'clean'));
});

wallet('the clock moved two hours ahead: a transaction stamped with the wall clock is outside the window', async (ctx) => {
  await ctx.client.dev.setTime({ offsetMs: 2 * 3_600_000 });
  await rejects(send(ctx, 1), (e: unknown) => e instanceof ApiError && e.nodeError === 'TIMESTAMP_OUT_OF_WINDOW' && e.status === 400);
  const { offsetMs } = await ctx.client.dev.time();
  assert.is(offsetMs, 2 * 3_600_000);
});

wallet('the clock moved ahead then back: a later transaction stamped before the last one fails with bad_timestamp', async (ctx) => {
  await ctx.node.setTime({ offsetMs: 30 * 60_000 });
  const first = await send(ctx, 1, ctx.node.now());
  assert.ok((await ctx.client.waitForTx(first, { timeoutMs: 10_000 })).ok);
  await ctx.node.setTime({ offsetMs: 0 });
  const second = await send(ctx, 1, Date.now());
  const status = await ctx.client.waitForTx(second, { timeoutMs: 10_000 });
  assert.is(status.ok, false);
  assert.is(!status.ok && status.reason, 'bad_timestamp');
});

wallet('the revert put the clock back too; mine with intervalMs spaces block times', async (ctx) => {
  assert.is((await ctx.client.dev.time()).offsetMs, 0);
  const blocks = await ctx.node.mine(3, { intervalMs: 60_000 });
  assert.is(blocks[1].time - blocks[0].time >= 60_000, true);
  assert.is(blocks[2].time - blocks[1].time >= 60_000, true);
  assert.is((await ctx.client.dev.time()).offsetMs, 3 * 60_000, 'the clock stays moved');
});

wallet('a 5xx: the client raises ApiError with the status and the code; the rule fires count times only', async (ctx) => {
  await ctx.client.dev.addFaults({ path: 'address', action: 'error', status: 503, code: 'STORE_UNAVAILABLE', count: 1 });
  const err = await ctx.client.getAddress(ctx.from).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, ApiError);
  assert.is((err as ApiError).status, 503);
  assert.is((err as ApiError).nodeError, 'STORE_UNAVAILABLE');
  assert.is((err as ApiError).apiCode, 10015);
  assert.ok((await ctx.client.getAddress(ctx.from)).amount.SK! > 0n, 'count 1: the next call goes through');
  assert.is((await ctx.client.dev.faults())[0].fired, 1);
});

wallet('a delay past the client timeout: TimeoutError', async (ctx) => {
  const impatient = createClient({ baseUrl: ctx.node.url, timeoutMs: 100 });
  ctx.node.faults.add({ path: 'settings', action: 'delay', delayMs: 5000 });
  await rejects(impatient.getSettings(), (e: unknown) => e instanceof TimeoutError);
  ctx.node.faults.clear();
  assert.ok(await ctx.client.getSettings(), 'cleared: the node answers');
});

wallet('a delay within the client timeout: the answer arrives', async (ctx) => {
  ctx.node.faults.add({ path: 'node/status', action: 'delay', delayMs: 50 });
  assert.is((await ctx.client.nodeStatus()).height, ctx.node.height());
});

wallet('a dropped connection: NetworkError', async (ctx) => {
  ctx.node.faults.add({ path: 'tx/status', action: 'drop' });
  const txid = await send(ctx, 1);
  await rejects(ctx.client.getTxStatus(txid), (e: unknown) => e instanceof NetworkError);
});

wallet('a transaction that never settles: accepted, pending forever, waitForTx raises TimeoutError', async (ctx) => {
  ctx.node.faults.add({ path: 'tx/new', action: 'hold', count: 1 });
  const txid = await send(ctx, 1);
  assert.is(await ctx.client.getTxStatus(txid), null);
  await ctx.node.mine(2);
  assert.is(await ctx.client.getTxStatus(txid), null, 'mining does not take it');
  await rejects(ctx.client.waitForTx(txid, { timeoutMs: 300 }), (e: unknown) => e instanceof TimeoutError);
});

wallet('watchTx on a pending transaction that a revert removes rejects with UnknownTxError', async (ctx) => {
  ctx.node.faults.add({ path: 'tx/new', action: 'hold', count: 1 });
  const txid = await send(ctx, 1);
  const resets: ChainReset[] = [];
  const outcome = ctx.client.watchTx(txid, { timeoutMs: 20_000, onReset: (r) => resets.push(r) }).then(
    (status) => ({ status }),
    (error: unknown) => ({ error }),
  );
  // Clock moves until the watcher hears one (it is subscribed, the transaction still pending)...
  for (let i = 1; i <= 400 && resets.length === 0; i++) {
    await ctx.client.dev.setTime({ offsetMs: i });
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.is(resets[0]?.event, 'clock');
  // ...then a revert to before it was sent: the watch ends as unknown instead of waiting on.
  await ctx.node.revert('clean');
  const result = await outcome;
  assert.ok('error' in result && result.error instanceof UnknownTxError, JSON.stringify(result));
  assert.is(resets[resets.length - 1].event, 'revert');
});

wallet('a rule with a probability and a seed fires on the same requests every run', async (ctx) => {
  const pattern = async () => {
    ctx.node.faults.clear();
    ctx.node.faults.add({ path: 'node/status', action: 'error', status: 500, probability: 0.5, seed: 42 });
    const fired: boolean[] = [];
    for (let i = 0; i < 16; i++)
      fired.push(
        await ctx.client.nodeStatus().then(
          () => false,
          (e: unknown) => e instanceof ApiError && e.status === 500,
        ),
      );
    return fired;
  };
  const first = await pattern();
  assert.equal(await pattern(), first);
  assert.ok(first.includes(true) && first.includes(false), first.join());
});

wallet('state setting: an exact balance, a seq, a wallet for a key, without a block', async (ctx) => {
  const height = ctx.node.height();
  await ctx.client.dev.setBalance(stranger, 42n, { currency: 'XYZ' });
  assert.equal((await ctx.client.getAddress(stranger)).amount, { XYZ: 42n });
  await ctx.client.dev.setBalance(stranger, 7n, { currency: 'XYZ' });
  assert.equal((await ctx.client.getAddress(stranger)).amount, { XYZ: 7n }, 'exact, not a credit');
  await ctx.client.dev.setSeq(ctx.from, 40n);
  assert.is(await ctx.client.getSeq(ctx.from), 40n);
  const key = new Uint8Array(32).fill(9);
  const address = await ctx.client.dev.createWallet({ publicKey: publicKeyOf(key) });
  assert.is((await ctx.client.getAddress(address)).pubkey?.toLowerCase(), Buffer.from(publicKeyOf(key)).toString('hex'));
  assert.is(await ctx.client.dev.createWallet({ publicKey: publicKeyOf(key) }), address, 'the same key gets the same wallet');
  assert.is(ctx.node.height(), height, 'no block');
});

wallet('rollback drops blocks: their transactions are unknown again and balances are back; the stream announces it', async (ctx) => {
  const resets: ChainReset[] = [];
  const stop = new AbortController();
  let blocksSeen = 0;
  const watching = ctx.client.watchBlocks(() => blocksSeen++, { signal: stop.signal, onReset: (r) => resets.push(r) });
  const before = ctx.node.height();
  const balance = (await ctx.client.getAddress(ctx.from)).amount.SK!;
  const txid = await send(ctx, 500);
  assert.ok((await ctx.client.waitForTx(txid, { timeoutMs: 10_000 })).ok);
  // The watcher is subscribed once a block reaches it.
  while (blocksSeen === 0) await ctx.node.mine(1);
  await ctx.node.mine(2);
  const head = await ctx.node.rollback(before);
  assert.is(head.height, before);
  assert.is(ctx.node.height(), before);
  await rejects(ctx.client.getTxStatus(txid), (e: unknown) => e instanceof UnknownTxError);
  await rejects(ctx.client.getAddress(stranger), (e: unknown) => e instanceof ApiError && e.nodeError === 'WALLET_NOT_FOUND');
  assert.is((await ctx.client.getAddress(ctx.from)).amount.SK, balance);
  assert.is(await ctx.client.getSeq(ctx.from), 0n);
  await ctx.client.dev.setTime({ offsetMs: 1000 });
  const mark = await ctx.client.dev.snapshot();
  await ctx.client.dev.revert(mark.id);
  for (let i = 0; i < 500 && resets.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
  stop.abort();
  await watching;
  assert.equal(
    resets.map((r) => r.event),
    ['rollback', 'clock', 'revert'],
  );
  assert.is(resets[0].height, before);
  assert.is(resets[1].clockOffsetMs, 1000);
  assert.is(resets[2].snapshot, mark.id);
  // The chain goes on from there.
  const again = await send(ctx, 500);
  assert.ok((await ctx.client.waitForTx(again, { timeoutMs: 10_000 })).ok);
});

wallet('bad requests get codes: an unknown snapshot, a height above the head, a bad fault rule', async (ctx) => {
  await rejects(ctx.client.dev.revert('nope'), (e: unknown) => e instanceof ApiError && e.status === 404 && e.nodeError === 'SNAPSHOT_NOT_FOUND');
  await rejects(ctx.client.dev.rollback(ctx.node.height() + 1), (e: unknown) => e instanceof ApiError && e.nodeError === 'BAD_REQUEST_PARAM');
  await rejects(ctx.client.dev.setTime({} as { offsetMs: number }), (e: unknown) => e instanceof ApiError && e.nodeError === 'BAD_REQUEST_PARAM');
  for (const rule of [
    { path: 'dev/faults', action: 'drop' },
    { path: 'tx/new', action: 'explode' },
    { path: 'address', action: 'hold' },
    { path: 'tx/new', action: 'delay' },
    { path: 'tx/new', action: 'error', message: 'm'.repeat(201) },
    { path: 'tx/new', action: 'error', message: 7 },
  ]) {
    await rejects(ctx.client.dev.addFaults(rule as never), (e: unknown) => e instanceof ApiError && e.nodeError === 'BAD_REQUEST_PARAM', JSON.stringify(rule));
  }
  assert.equal(await ctx.client.dev.faults(), []);
});

wallet('an error rule answers with its own message, up to 200 characters', async (ctx) => {
  const message = 'm'.repeat(199) + '!';
  const rule = ctx.node.faults.add({ path: 'node/status', action: 'error', status: 502, code: 'MEMPOOL_FULL', message });
  const said = `${message} (injected by fault rule ${rule.id})`;
  await rejects(ctx.client.nodeStatus(), (e: unknown) => e instanceof ApiError && e.status === 502 && e.nodeError === 'MEMPOOL_FULL' && e.apiMessage === said);
});

wallet('snapshots are deleted by name or id, through the client and through startNode; a deleted one is gone for good', async (ctx) => {
  const clean = ctx.node.snapshots().map((s) => s.id);
  const first = await ctx.client.dev.snapshot('doomed');
  const second = await ctx.node.snapshot('also-doomed');
  await ctx.client.dev.deleteSnapshot('doomed');
  await ctx.node.deleteSnapshot(second.id);
  assert.equal(
    ctx.node.snapshots().map((s) => s.id),
    clean,
  );
  assert.equal(
    (await ctx.client.dev.snapshots()).map((s) => s.id),
    clean,
  );
  const gone = (e: unknown) => e instanceof TpkitError && (e instanceof ApiError ? e.nodeError : e.code) === 'SNAPSHOT_NOT_FOUND';
  await rejects(ctx.client.dev.deleteSnapshot(first.id), gone, 'the client, by id');
  await rejects(ctx.node.deleteSnapshot('also-doomed'), gone, 'startNode, by name');
  await rejects(ctx.client.dev.revert('doomed'), gone, 'no revert to it');
});

wallet('startNode sets a seq and makes wallets: for a key, at an address with a key, keyless at an address', async (ctx) => {
  const height = ctx.node.height();
  await ctx.node.setSeq(ctx.from, 41n);
  assert.is(await ctx.client.getSeq(ctx.from), 41n);
  await ctx.node.setSeq(ctx.from, 42);
  assert.is(await ctx.client.getSeq(ctx.from), 42n);
  await rejects(ctx.node.setSeq(stranger, 3), (e: unknown) => e instanceof TpkitError && e.code === 'WALLET_NOT_FOUND', 'no wallet there');
  const key = new Uint8Array(32).fill(12);
  const forKey = await ctx.node.createWallet({ publicKey: publicKeyOf(key) });
  assert.is((await ctx.client.getAddress(forKey)).pubkey?.toLowerCase(), Buffer.from(publicKeyOf(key)).toString('hex'));
  const keyless = addressToText(makeAddress({ group: 10, block: 1, wallet: 9100 }));
  assert.is(await ctx.node.createWallet({ address: keyless }), keyless);
  const made = await ctx.client.getAddress(keyless);
  assert.equal([made.pubkey, made.amount], ['', {}], 'no key, no money');
  const placed = addressToText(makeAddress({ group: 10, block: 1, wallet: 9101 }));
  const other = new Uint8Array(32).fill(13);
  assert.is(await ctx.node.createWallet({ publicKey: publicKeyOf(other), address: placed }), placed);
  assert.is((await ctx.client.getAddress(placed)).pubkey?.toLowerCase(), Buffer.from(publicKeyOf(other)).toString('hex'));
  assert.is(ctx.node.height(), height, 'no block');
});

wallet('state setting refuses what it cannot do, with codes, and changes nothing', async (ctx) => {
  const before = await ctx.client.getAddress(ctx.from);
  const cases: [Promise<unknown>, string][] = [
    [ctx.client.dev.setSeq(stranger, 3), 'WALLET_NOT_FOUND'],
    [ctx.client.dev.setBalance(ctx.from, '18446744073709551616' as unknown as bigint), 'BAD_REQUEST_PARAM'],
    [ctx.client.dev.setBalance(ctx.from, 1, { currency: '' }), 'BAD_REQUEST_PARAM'],
    [ctx.client.dev.createWallet({ publicKey: '02' + '00'.repeat(32) }), 'KEY_INVALID'],
    [ctx.client.dev.createWallet({ address: ctx.from }), 'BAD_REQUEST_PARAM'],
  ];
  for (const [promise, code] of cases) await rejects(promise, (e: unknown) => e instanceof ApiError && e.nodeError === code, code);
  await rejects(ctx.node.setBalance(ctx.from, 1.5), (e: unknown) => e instanceof TpkitError && e.code === 'BAD_REQUEST_PARAM', 'startNode: a fraction');
  assert.throws(
    () => ctx.node.faults.add({ path: 'tx/new', action: 'nope' } as never),
    (e: unknown) => e instanceof TpkitError && e.code === 'BAD_REQUEST_PARAM',
  );
  assert.equal(await ctx.client.getAddress(ctx.from), before);
});

wallet.run();
