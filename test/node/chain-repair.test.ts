// A damaged chain rebuilt from its intact blocks holds what the node's own rollback to the same
// height holds: every wallet (dev edits, dev-made wallets and their numbers included), the
// allocation counter, the blocks and their transactions' statuses; and the transactions the
// lost blocks held come back as pending instead of unknown. Stores in memory, damaged by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressParts, parseAddress } from '../../src/codec/address.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { checkStore } from '../../src/node/ledger/chain-check.js';
import { rebuildChain } from '../../src/node/ledger/chain-repair.js';
import { evmUndoKey, hashKey, heightKey, META_KEY, statusKey } from '../../src/node/store/keys.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import { createClient } from '../../src/client/client.js';
import { deployContract } from '../../src/client/contract.js';
import { pay, register, startTestNode, testConfig, transfer, waitStatus, type TestConfig, type TestNode } from '../helpers/node-helpers.js';

const SETTINGS: TestConfig = { instant: false, mineOnDemand: true, accounts: 2 };

async function copyOf(store: MemoryStore): Promise<MemoryStore> {
  const copy = new MemoryStore();
  const ops = [];
  for await (const [key, value] of store.entries('')) ops.push({ type: 'put' as const, key, value });
  await copy.batch(ops);
  return copy;
}

interface Built {
  store: MemoryStore;
  /** Txids by the height of the block that holds them. */
  byHeight: Map<number, string[]>;
  pending: string[];
  head: number;
  /** The block after which the dev API edited wallets: the last one the tests keep. */
  keep: number;
}

/**
 * Blocks with transfers, registrations, a faucet credit, dev edits between blocks and a
 * dev-made wallet; one transaction left pending.
 */
async function build(): Promise<Built> {
  const store = new MemoryStore();
  const node = await startTestNode(SETTINGS, { store });
  const byHeight = new Map<number, string[]>();
  try {
    const [a, b] = node.chain.accounts;
    const t = Date.now();
    let seq = 0;
    const block = async (raws: string[], mints = false) => {
      const txids = [];
      for (const raw of raws) txids.push((await node.submit(raw)).body.txid as string);
      const [made] = mints ? [await node.chain.mineBlock([{ address: Buffer.from(b.address).toString('hex'), currency: 'SK', amount: 77n }])] : await node.control.mine(1).then(() => [undefined]);
      void made;
      for (const txid of txids) await waitStatus(node, txid);
      byHeight.set(node.chain.height, txids);
    };
    const send = (amount: number) => transfer({ key: a.secretKey, from: a.address, to: b.address, seq: ++seq, t: t + seq, payload: [pay(amount)] });
    await block([send(10), send(11), register(new Uint8Array(32).fill(1), t, 0)]);
    const made = await node.control.createWallet({ publicKey: publicKeyOf(new Uint8Array(32).fill(2)) });
    await block([send(12), transfer({ key: a.secretKey, from: a.address, to: made.address, seq: ++seq, t: t + seq, payload: [pay(5)] })], true);
    const keep = node.chain.height;
    // Dev edits after that block: on a wallet the next block changes, and on one no later block changes.
    await node.control.setBalance(a.address, 'SK', 900_000_000n);
    await node.control.setBalance(made.address, 'XX', 3n);
    // And a wallet the dev API makes that no block ever changes.
    await node.control.setBalance((await node.control.createWallet({ publicKey: publicKeyOf(new Uint8Array(32).fill(8)) })).address, 'SK', 4n);
    await block([send(13), register(new Uint8Array(32).fill(3), t, 0)]);
    await block([send(14), register(new Uint8Array(32).fill(4), t, 0)]);
    const pending = [(await node.submit(send(15))).body.txid as string];
    return { store, byHeight, pending, head: node.chain.height, keep };
  } finally {
    await node.close();
  }
}

/** Everything a wallet developer reads from the node: wallets, allocation, head, statuses. */
async function state(node: TestNode, txids: string[]) {
  const wallets = [...node.chain.wallets].map(([a, w]) => [a, JSON.stringify({ ...w, amount: [...w.amount].map(([c, v]) => [c, String(v)]), seq: String(w.seq) })]).sort();
  const statuses: Record<string, unknown> = {};
  for (const txid of txids) statuses[txid] = (await node.get(`/api/tx/status/${txid}`)).body;
  return { wallets, allocLast: node.chain.allocLast, height: node.chain.height, hash: Buffer.from(node.chain.hash).toString('hex'), statuses };
}

test("a rebuild keeps what a rollback to the last intact block keeps, and queues the lost blocks' transactions again", async () => {
  const built = await build();
  const keep = built.keep;
  const damaged = await copyOf(built.store);
  // The status of a transaction of the next block is lost: the check ends the intact run before it.
  const [victim] = built.byHeight.get(keep + 1)!;
  await damaged.batch([{ type: 'del', key: statusKey(victim) }]);
  const check = await checkStore(damaged);
  assert.equal(check.intact, keep, check.problems.join('; '));

  const fresh = new MemoryStore();
  const rebuilt = await rebuildChain(damaged, fresh, check.intact!, testConfig(SETTINGS));
  const keptTxids = [...built.byHeight].filter(([h]) => h <= keep).flatMap(([, txids]) => txids);
  const lostTxids = [...built.byHeight].filter(([h]) => h > keep).flatMap(([, txids]) => txids);
  assert.equal(rebuilt.kept, {
    height: keep,
    hash: JSON.parse(Buffer.from((await built.store.get(heightKey(keep)))!).toString()).hash,
    blocks: keep + 1,
    txs: keptTxids.length,
    wallets: rebuilt.kept.wallets,
    pending: 1,
  });
  assert.equal(rebuilt.lost, { toHeight: built.head, readable: built.head - keep, txs: lostTxids.length, requeued: lostTxids.length, unknown: 0 });
  assert.equal((await checkStore(fresh)).problems, [], 'the rebuilt store passes the start-up check');

  const reference = await startTestNode(SETTINGS, { store: await copyOf(built.store) });
  let expected;
  try {
    await reference.control.rollback(keep);
    expected = await state(reference, keptTxids);
  } finally {
    await reference.close();
  }
  const repaired = await startTestNode(SETTINGS, { store: fresh });
  try {
    assert.equal(await state(repaired, keptTxids), expected);
    assert.is(repaired.chain.wallets.size, rebuilt.kept.wallets);
    // Acknowledged in a lost block or pending: known, and in the next block.
    for (const txid of [...lostTxids, ...built.pending]) assert.is((await repaired.get(`/api/tx/status/${txid}`)).status, 200, txid);
    await repaired.control.mine(1);
    for (const txid of [...lostTxids, ...built.pending]) assert.is((await waitStatus(repaired, txid)).ok, true, `${txid} included again`);
  } finally {
    await repaired.close();
  }
});

test('a lost block that does not read: its wallets go back to the last kept block, its transactions come back from their containers', async () => {
  const built = await build();
  const damaged = await copyOf(built.store);
  const { keep } = built;
  await damaged.batch([{ type: 'put', key: heightKey(keep + 1), value: Buffer.from('{"hash": "not a bl') }]);
  const check = await checkStore(damaged);
  assert.is(check.intact, keep);
  const fresh = new MemoryStore();
  const rebuilt = await rebuildChain(damaged, fresh, check.intact!, testConfig(SETTINGS));
  assert.is(rebuilt.lost.readable, built.head - keep - 1, 'the first lost block does not read');
  assert.is(rebuilt.lost.requeued, [...built.byHeight].filter(([h]) => h > keep).flatMap(([, t]) => t).length);
  const node = await startTestNode(SETTINGS, { store: fresh });
  try {
    const [a] = node.chain.accounts;
    // The unreadable block was the first to change account a after its dev edit: the state
    // the last kept block left is what is known.
    assert.is.not(node.chain.wallets.get(Buffer.from(a.address).toString('hex'))!.amount.get('SK'), 900_000_000n);
    assert.is(node.chain.height, keep);
  } finally {
    await node.close();
  }
});

test('no head record: the chain settings come from the configuration, and the node starts', async () => {
  const built = await build();
  const damaged = await copyOf(built.store);
  await damaged.batch([{ type: 'del', key: META_KEY }]);
  const check = await checkStore(damaged);
  assert.ok(check.problems.some((p) => /chain head/.test(p)));
  assert.is(check.intact, built.head, 'every block is intact');
  const fresh = new MemoryStore();
  const rebuilt = await rebuildChain(damaged, fresh, check.intact!, testConfig(SETTINGS));
  assert.is(rebuilt.headFromConfig, true);
  assert.is(rebuilt.lost.toHeight, -1);
  const node = await startTestNode(SETTINGS, { store: fresh });
  try {
    assert.is(node.chain.height, built.head);
    for (const txid of built.byHeight.get(built.head)!) assert.is((await waitStatus(node, txid)).ok, true);
    // Without a head, the allocation counter comes from the highest number the kept wallets
    // hold: the next registration gets a number no wallet has.
    const numbers = [...node.chain.wallets.keys()]
      .map((a) => addressParts(Buffer.from(a, 'hex')))
      .filter((p) => p.kind === 'public')
      .map((p) => p.wallet);
    assert.is(node.chain.allocLast, Math.max(...numbers));
    const txid = (await node.submit(register(new Uint8Array(32).fill(9), Date.now(), 0))).body.txid as string;
    await node.control.mine(1);
    const registered = (await waitStatus(node, txid)) as { address?: string };
    assert.ok(registered.address, JSON.stringify(registered));
    assert.is(addressParts(parseAddress(registered.address)).wallet, Math.max(...numbers) + 1);
  } finally {
    await node.close();
  }
});

test('a damaged genesis block leaves nothing intact', async () => {
  const built = await build();
  const damaged = await copyOf(built.store);
  await damaged.batch([{ type: 'del', key: heightKey(0) }]);
  const check = await checkStore(damaged);
  assert.is(check.intact, undefined);
});

/** A store whose batches land a turn later; it counts a batch begun while another is still landing. */
class SlowStore extends MemoryStore {
  inFlight = 0;
  overlaps = 0;
  batches: { size: number; sync: boolean }[] = [];
  /** How many times each key was written. */
  writes = new Map<string, number>();
  override async batch(ops: StoreOp[], options: { sync?: boolean } = {}): Promise<void> {
    for (const op of ops) this.writes.set(op.key, (this.writes.get(op.key) ?? 0) + 1);
    if (this.inFlight > 0) this.overlaps++;
    this.inFlight++;
    this.batches.push({ size: ops.length, sync: options.sync === true });
    await new Promise((r) => setImmediate(r));
    await super.batch(ops);
    this.inFlight--;
  }
}

test('a rebuild longer than one batch: each batch has landed before the next starts, and all of it before the rebuild returns', async () => {
  // More blocks than one batch of writes holds (each block is two writes: its record and its hash index).
  const blocks = 2100;
  const damaged = new MemoryStore();
  const ops: StoreOp[] = [];
  for (let h = 0; h < blocks; h++) {
    const hash = h.toString(16).padStart(64, '0').toUpperCase();
    const record = { hash, header: { chain: 1, height: h }, time: 1_800_000_000_000 + h, txs: [], failed: {}, registered: {}, bals: {} };
    ops.push({ type: 'put', key: heightKey(h), value: Buffer.from(JSON.stringify(record)) });
  }
  await damaged.batch(ops);
  const fresh = new SlowStore();
  const rebuilt = await rebuildChain(damaged, fresh, blocks - 1, testConfig(SETTINGS));
  assert.is(fresh.inFlight, 0, 'no write still landing when the rebuild returns');
  assert.is(fresh.overlaps, 0, 'one batch at a time');
  assert.ok(fresh.batches.length >= 2, 'the writes took more than one batch');
  assert.is(fresh.batches.at(-1)!.sync, true, 'the last batch is synced');
  assert.equal(
    [...fresh.writes].filter(([, n]) => n > 1),
    [],
    'each record is written once: a batch holds only what came since the last',
  );
  assert.equal(
    fresh.batches.slice(0, -1).map((b) => b.sync),
    fresh.batches.slice(0, -1).map(() => false),
    'the others are not',
  );
  assert.is(rebuilt.kept.blocks, blocks);
  for (let h = 0; h < blocks; h++) {
    const hash = h.toString(16).padStart(64, '0').toUpperCase();
    assert.ok(await fresh.get(heightKey(h)), `block ${h} copied`);
    assert.is(Buffer.from((await fresh.get(hashKey(hash)))!).toString(), String(h), `block ${h} found by its hash`);
  }
  const meta = JSON.parse(Buffer.from((await fresh.get(META_KEY))!).toString());
  assert.equal([meta.height, meta.hash, meta.time], [blocks - 1, (blocks - 1).toString(16).padStart(64, '0').toUpperCase(), 1_800_000_000_000 + blocks - 1]);
});

test('contract undo records above the kept block that do not read: the report says contract state is kept as the store held it', async () => {
  const built = await build();
  const damaged = await copyOf(built.store);
  const { keep } = built;
  await damaged.batch([
    { type: 'del', key: heightKey(keep + 1) },
    { type: 'put', key: evmUndoKey(keep + 1), value: Buffer.from('{"before": {"c:') },
  ]);
  const check = await checkStore(damaged);
  assert.is(check.intact, keep);
  const rebuilt = await rebuildChain(damaged, new MemoryStore(), keep, testConfig(SETTINGS));
  assert.is(rebuilt.notes.length, 1, rebuilt.notes.join('; '));
  assert.match(rebuilt.notes[0], new RegExp(`^the contract state's undo records above block ${keep} do not all read \\(.+\\): contract state is kept as the damaged store held it$`));
  const whole = await rebuildChain(await copyOf(built.store), new MemoryStore(), keep, testConfig(SETTINGS));
  assert.equal(whole.notes, [], 'no note when the undo records read');
});

test("a deploy in a lost block frees no wallet number: the deployer's wallet keeps its number, as after a rollback", async () => {
  const settings: TestConfig = { instant: true, accounts: 3 };
  const store = new MemoryStore();
  const node = await startTestNode(settings, { store });
  let keep: number;
  let deployTxid: string;
  try {
    keep = node.chain.height;
    const [a] = node.chain.accounts;
    const client = createClient({ baseUrl: node.url });
    // Init code that returns one STOP byte as the contract's code.
    const deployed = await deployContract({ client, secretKey: a.secretKey, from: a.address, code: '0x600060005360016000f3' });
    deployTxid = deployed.txid;
    assert.ok(node.chain.height > keep);
  } finally {
    await node.close();
  }
  const damaged = await copyOf(store);
  await damaged.batch([{ type: 'del', key: statusKey(deployTxid) }]);
  const check = await checkStore(damaged);
  assert.is(check.intact, keep);
  const fresh = new MemoryStore();
  await rebuildChain(damaged, fresh, keep, testConfig(settings));
  const reference = await startTestNode(settings, { store: await copyOf(store) });
  let allocLast: number;
  try {
    await reference.control.rollback(keep);
    allocLast = reference.chain.allocLast;
  } finally {
    await reference.close();
  }
  const repaired = await startTestNode(settings, { store: fresh });
  try {
    assert.is(repaired.chain.allocLast, allocLast, 'the allocation counter is where a rollback leaves it');
    const numbers = repaired.chain.accounts.map((account) => addressParts(account.address).wallet);
    assert.ok(
      numbers.every((n) => n <= allocLast),
      "no dev account's number is handed out again",
    );
  } finally {
    await repaired.close();
  }
});

test('a rebuild that keeps up to the head loses nothing: no height is named as lost', async () => {
  const built = await build();
  const rebuilt = await rebuildChain(await copyOf(built.store), new MemoryStore(), built.head, testConfig(SETTINGS));
  assert.is(rebuilt.kept.height, built.head);
  assert.equal(rebuilt.lost, { toHeight: -1, readable: 0, txs: 0, requeued: 0, unknown: 0 });
});

test.run();
