// A submission that a revert or a rollback overtakes is checked again against the state the
// reset left, never answered from the state it took away. Each case starts the reset at one
// exact point of the submission, from a hook in the injected store or clock (no timers): while
// the submission looks up an included copy of its body, while its checks read the ledger, or
// between its admission and its checks (also with the reset slowed to outlast the checks).
// Then it follows the answer: known, on disk, included by the next block and again after a
// restart; or refused; never acknowledged and then unknown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAddress } from '../../src/codec/address.js';
import { PREFIX } from '../../src/node/store/keys.js';
import { MemoryStore, type StoreOp } from '../../src/node/store/store.js';
import { pay, register, startTestNode, transfer, waitStatus, type TestConfig, type TestNode } from '../helpers/node-helpers.js';
import { rejection } from '../helpers/helpers.js';

/** A store that runs a hook once, right after the next read of an included body's txid has been taken. */
class BodyReadHookStore extends MemoryStore {
  onBodyRead: (() => void) | undefined;

  override get(key: string): Promise<Uint8Array | undefined> {
    const value = super.get(key);
    const hook = this.onBodyRead;
    if (hook && key.startsWith(PREFIX.body)) {
      this.onBodyRead = undefined;
      hook();
    }
    return value;
  }
}

/**
 * A store whose next write of a pending transaction runs a hook first and then lets 50 turns of
 * the event loop pass before it lands: a reset that does not wait for the write gets through
 * whole in that time (the memory store answers at once).
 */
class PendingWriteHookStore extends MemoryStore {
  onPendingWrite: (() => void) | undefined;

  override async batch(ops: StoreOp[]): Promise<void> {
    const hook = this.onPendingWrite;
    if (hook && ops.some((op) => op.type === 'put' && op.key.startsWith(PREFIX.pending))) {
      this.onPendingWrite = undefined;
      hook();
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    }
    return super.batch(ops);
  }
}

/**
 * A store whose writes, while `slow` is set, each let 100 turns of the event loop pass before they
 * land: a reset that writes outlasts checks that run on the main thread (microtasks only).
 */
class SlowWriteStore extends MemoryStore {
  slow = false;

  override async batch(ops: StoreOp[]): Promise<void> {
    if (this.slow) for (let i = 0; i < 100; i++) await new Promise((r) => setImmediate(r));
    return super.batch(ops);
  }
}

/** The node clock, with a hook run once at its next reading (a submission's checks read it first). */
function hookedClock() {
  const clock = { onRead: undefined as (() => void) | undefined, read: () => Date.now() };
  clock.read = () => {
    const hook = clock.onRead;
    clock.onRead = undefined;
    hook?.();
    return Date.now();
  };
  return clock;
}

const SETTINGS: TestConfig = { instant: false, mineOnDemand: true, difficulty: 0 };

interface Reset {
  name: string;
  /** Marks the state to go back to. */
  mark(node: TestNode): Promise<void>;
  run(node: TestNode): Promise<unknown>;
}

function resets(): Reset[] {
  let height = 0;
  return [
    { name: 'revert', mark: async (node) => void (await node.control.snapshot('base')), run: (node) => node.control.revert('base') },
    { name: 'rollback', mark: async (node) => void (height = node.chain.height), run: (node) => node.control.rollback(height) },
  ];
}

/** Submits through the node's own API object and starts the reset from `arm`'s hook; returns both outcomes. */
async function race(node: TestNode, raw: string, arm: (start: () => void) => void, reset: Reset) {
  let resetDone: Promise<unknown> | undefined;
  arm(() => {
    resetDone = reset.run(node);
  });
  const submitted = await Promise.allSettled([node.chain.submit(Buffer.from(raw, 'base64'))]);
  assert.ok(resetDone, 'the hook started the reset during the submission');
  await resetDone;
  return submitted[0];
}

/** The txid is known, pending on disk, included by the next block, and still there after a restart. */
async function keptThroughRestart(node: TestNode, store: MemoryStore, txid: string, gone: string[]) {
  assert.is((await node.get(`/api/tx/status/${txid}`)).status, 200, 'the acknowledged txid is known');
  assert.ok(await store.get(PREFIX.pending + txid), 'and written ahead');
  for (const old of gone) assert.is((await node.get(`/api/tx/status/${old}`)).status, 404, `${old} was taken back by the reset`);
  await node.control.mine(1);
  assert.is((await waitStatus(node, txid)).ok, true, 'included and successful');
  await node.close();
  const again = await startTestNode(SETTINGS, { store });
  try {
    assert.is((await again.get(`/api/tx/status/${txid}`)).body.res?.ok, true, 'included after a restart as before it');
    for (const old of gone) assert.is((await again.get(`/api/tx/status/${old}`)).status, 404, `${old} stays unknown after a restart`);
  } finally {
    await again.close();
  }
}

/** What is sent twice: a register, and a transfer (kept by the reset's mark only until it). */
const sent: { kind: string; raw(node: TestNode): string }[] = [
  { kind: 'register', raw: () => register(new Uint8Array(32).fill(5), Date.now(), 0) },
  {
    kind: 'transfer',
    raw: (node) => {
      const [a, b] = node.chain.accounts;
      return transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t: Date.now(), payload: [pay(100)] });
    },
  },
];

/** A transfer from a wallet registered in a block after the reset's mark: the reset removes the sender. */
async function fromWalletMadeAfter(node: TestNode, reset: Reset, keyByte: number): Promise<string> {
  await reset.mark(node);
  const key = new Uint8Array(32).fill(keyByte);
  const made = await node.submit(register(key, Date.now(), 0));
  await node.control.mine(1);
  const from = parseAddress((await waitStatus(node, made.body.txid)).address);
  return transfer({ key, from, to: node.chain.accounts[0].address, seq: 1, t: Date.now(), payload: [] });
}

for (const reset of resets()) {
  for (const { kind, raw: make } of sent) {
    test(`a ${kind} whose included copy a ${reset.name} takes back while it is looked up gets a new txid, kept`, async () => {
      const store = new BodyReadHookStore();
      const node = await startTestNode(SETTINGS, { store });
      let closed = false;
      try {
        await reset.mark(node);
        const raw = make(node);
        const first = await node.submit(raw);
        await node.control.mine(1);
        assert.is((await waitStatus(node, first.body.txid)).ok, true);
        const outcome = await race(node, raw, (start) => (store.onBodyRead = start), reset);
        assert.is(outcome.status, 'fulfilled');
        const { txid, duplicate } = (outcome as PromiseFulfilledResult<{ txid: string; duplicate: boolean }>).value;
        assert.is.not(txid, first.body.txid, 'not answered with the txid the reset took back');
        assert.is(duplicate, false);
        closed = true;
        await keptThroughRestart(node, store, txid, [first.body.txid]);
      } finally {
        if (!closed) await node.close();
      }
    });
  }

  test(`a ${reset.name} that starts while a transfer's pending write is on its way waits for it: the answer and the disk agree, also after a restart`, async () => {
    const store = new PendingWriteHookStore();
    const node = await startTestNode(SETTINGS, { store });
    let closed = false;
    try {
      await reset.mark(node);
      const raw = sent[1].raw(node);
      const outcome = await race(node, raw, (start) => (store.onPendingWrite = start), reset);
      assert.is(outcome.status, 'fulfilled', 'acknowledged: the write began before the reset');
      const { txid } = (outcome as PromiseFulfilledResult<{ txid: string }>).value;
      const known = (await node.get(`/api/tx/status/${txid}`)).status === 200;
      const onDisk = (await store.get(PREFIX.pending + txid)) !== undefined;
      assert.is(known, onDisk, `known ${known}, on disk ${onDisk}`);
      closed = true;
      await node.close();
      const again = await startTestNode(SETTINGS, { store });
      try {
        assert.is((await again.get(`/api/tx/status/${txid}`)).status === 200, known, 'a restart changes nothing');
      } finally {
        await again.close();
      }
    } finally {
      if (!closed) await node.close();
    }
  });

  test(`a transfer from a wallet a ${reset.name} removes while the checks read it is refused, as it would be after`, async () => {
    const clock = hookedClock();
    const node = await startTestNode(SETTINGS, { store: new MemoryStore(), clock: clock.read });
    try {
      const raw = await fromWalletMadeAfter(node, reset, 6);
      const outcome = await race(node, raw, (start) => (clock.onRead = start), reset);
      assert.is(outcome.status, 'rejected', 'refused, not acknowledged');
      assert.is(((outcome as PromiseRejectedResult).reason as { code: string }).code, 'SENDER_UNKNOWN');
      assert.is(node.chain.mempool.size, 0);
    } finally {
      await node.close();
    }
  });

  test(`a transfer from a wallet a ${reset.name} removes after its admission, before its checks, is refused`, async () => {
    const node = await startTestNode(SETTINGS, { store: new MemoryStore() });
    try {
      const raw = await fromWalletMadeAfter(node, reset, 7);
      // Started in the same turn: the reset holds the chain before the submission's first await ends.
      const submitted = node.chain.submit(Buffer.from(raw, 'base64'));
      const done = reset.run(node);
      const err = await rejection(submitted);
      await done;
      assert.is(err.code, 'SENDER_UNKNOWN');
      assert.is(node.chain.mempool.size, 0);
    } finally {
      await node.close();
    }
  });

  test(`a transfer from a wallet a ${reset.name} removes, admitted as the ${reset.name} starts and checked before it ends, waits for it and is refused`, async () => {
    // Signatures checked on the main thread: the checks end long before the slowed reset does.
    const store = new SlowWriteStore();
    const node = await startTestNode({ ...SETTINGS, verifyThreads: 0 }, { store });
    try {
      const raw = await fromWalletMadeAfter(node, reset, 8);
      store.slow = true;
      const submitted = node.chain.submit(Buffer.from(raw, 'base64'));
      const done = reset.run(node);
      const err = await rejection(submitted);
      await done;
      store.slow = false;
      assert.is(err.code, 'SENDER_UNKNOWN', 'checked again on the state the reset left');
      assert.is(node.chain.mempool.size, 0);
    } finally {
      await node.close();
    }
  });
}

test.run();
