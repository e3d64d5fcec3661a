// Durability: a clean restart keeps the chain and the pending transactions; a SIGKILL at any
// moment of a transaction stream loses no reported inclusion and leaves no half-applied block.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { recordHash, type BlockRecord } from '../../src/node/ledger/block.js';
import { devAccounts } from '../../src/node/ledger/genesis.js';
import { fee, pay, startTestNode, testConfig, transfer, waitStatus } from '../helpers/node-helpers.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tpkit-node-'));
}

test('clean restart: same head, wallets, and the pending transactions come back', async () => {
  const dir = tempDir();
  const overrides = { memory: false, dataDir: dir, instant: false, blockTime: 3_600_000, accounts: 2 };
  let node = await startTestNode(overrides);
  try {
    const [a, b] = node.chain.accounts;
    const t = Date.now();
    const first = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 1, t, payload: [pay(10), fee(5)] }));
    await node.chain.settle();
    const included = await waitStatus(node, first.body.txid);
    const pending = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 2, t: t + 1, payload: [pay(20), fee(5)] }));
    const head = node.chain.height;
    const hash = (await node.get('/api/block/last')).body.block.hash;
    await node.close();

    node = await startTestNode(overrides);
    assert.is(node.chain.height, head);
    assert.is((await node.get('/api/block/last')).body.block.hash, hash);
    assert.equal(await waitStatus(node, first.body.txid), included);
    assert.equal((await node.get(`/api/tx/status/${pending.body.txid}`)).body.res, null, 'still pending');
    assert.is(node.chain.mempool.size, 1);
    // a new txid after the restart still sorts after the restored one
    const later = await node.submit(transfer({ key: a.secretKey, from: a.address, to: b.address, seq: 3, t: t + 2, payload: [pay(30), fee(5)] }));
    await node.chain.settle();
    assert.is((await waitStatus(node, pending.body.txid)).res, 'ok');
    assert.is((await waitStatus(node, later.body.txid)).res, 'ok', 'applied after seq 2');
    assert.is((await node.get(`/api/address/${addressToText(b.address)}`)).body.info.amount.SK, 1_000_000_000_000_060);
    await node.close();

    // genesis parameters stay those of the data directory: the development accounts too
    node = await startTestNode({ ...overrides, accounts: 5 });
    assert.is(node.chain.accounts.length, 2);
    await node.close();

    // the data directory belongs to chain 1: asking for another chain is refused
    let refused: unknown;
    try {
      node = await startTestNode({ ...overrides, chain: 7 });
    } catch (err) {
      refused = err;
    }
    assert.is((refused as { code?: string }).code, 'CONFIG_INVALID');
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function startChild(dir: string): Promise<NodeProcess> {
  // Balances below 2^53: the test reads them as JSON numbers.
  return spawnNode(['--data-dir', dir, '--port', '0', '--instant', '--difficulty', '0', '--accounts', '4', '--balance', 'SK:1000000000000000', '--log-level', 'warn']);
}

async function getJson(url: string): Promise<any> {
  return (await fetch(url)).json();
}

test('SIGKILL during a transaction stream: every reported inclusion survives, balances add up', async () => {
  const dir = tempDir();
  const senders = devAccounts({ ...testConfig(), accounts: 4 });
  const sinks = Array.from({ length: 5 }, (_, i) => makeAddress({ group: 10, block: 1, wallet: 100 + i }));
  const total = 4n * 1_000_000_000_000_000n;
  const seqs = senders.map(() => 0);
  let t = Date.now();
  try {
    // Kill once a random number of inclusions has been reported, plus a random delay: the
    // moment lands anywhere in the stream, whatever the machine's load.
    for (const killAfterReported of [5 + Math.floor(Math.random() * 40), 1 + Math.floor(Math.random() * 10)]) {
      const child = await startChild(dir);
      const reported = new Map<string, string>(); // txid -> block reported by the status endpoint
      const submitted: string[] = [];
      let stop = false;
      // four senders, each with its own strictly increasing seq
      const streams = senders.map(async (a, i) => {
        while (!stop) {
          const seq = ++seqs[i];
          const to = sinks[seq % sinks.length];
          const tx = transfer({ key: a.secretKey, from: a.address, to, seq, t: ++t, payload: [pay(1 + (seq % 7)), fee(3)] });
          try {
            const res = await fetch(`${child.url}/api/tx/new`, { method: 'POST', body: JSON.stringify({ tx }) });
            const body = (await res.json()) as { txid?: string };
            if (body.txid) submitted.push(body.txid);
          } catch {
            break; // killed
          }
        }
      });
      const poller = (async () => {
        while (!stop) {
          for (const txid of submitted.slice(-20)) {
            try {
              const { res } = await getJson(`${child.url}/api/tx/status/${txid}`);
              if (res) reported.set(txid, res.block);
            } catch {
              return;
            }
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const deadline = Date.now() + 20_000;
      while (reported.size < killAfterReported && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, Math.random() * 30));
      child.proc.kill('SIGKILL');
      stop = true;
      await Promise.all([...streams, poller]);
      await child.exited;
      if (process.env.TPKIT_DEBUG) console.log({ killAfterReported, submitted: submitted.length, reported: reported.size });
      assert.ok(reported.size > 0, `some inclusions were reported before the kill (${submitted.length} submitted)`);

      const again = await startChild(dir);
      try {
        for (const [txid, block] of reported) {
          const { res } = await getJson(`${again.url}/api/tx/status/${txid}`);
          assert.ok(res, `${txid} still included`);
          assert.is(res.block, block, `${txid} in the same block`);
        }
        // every block is whole: its hash covers its header, its parent is the block before,
        // and each of its transactions has a status naming it
        const last = (await getJson(`${again.url}/api/block/last`)).block;
        let parent = '0'.repeat(64);
        for (let h = 0; h <= last.header.height; h++) {
          const { blockhash } = await getJson(`${again.url}/api/blockhash/${h}`);
          const block = (await getJson(`${again.url}/api/blockinfo/${blockhash}`)).block;
          const record: BlockRecord = { ...block, txs: block.txs_ids, registered: {}, bals: {} };
          assert.is(recordHash(record), block.hash, `block ${h} hash`);
          assert.is(block.header.parent, parent, `block ${h} parent`);
          parent = block.hash;
          for (const txid of block.txs_ids.slice(0, 3)) {
            const { res } = await getJson(`${again.url}/api/tx/status/${txid}`);
            assert.is(res.block, block.hash);
          }
        }
        // continue each stream after the seq the restarted node holds
        for (const [i, a] of senders.entries()) {
          const info = (await getJson(`${again.url}/api/address/${addressToText(a.address)}`)).info;
          seqs[i] = Math.max(seqs[i], info.seq);
        }
        let sum = 0n;
        const feeAddress = makeAddress({ group: 10, block: 1, wallet: 5 });
        for (const address of [...senders.map((a) => a.address), ...sinks, feeAddress]) {
          const body = await getJson(`${again.url}/api/address/${addressToText(address)}`);
          if (body.ok) sum += BigInt(body.info.amount.SK ?? 0);
        }
        assert.is(sum, total, 'SK is conserved');
      } finally {
        again.proc.kill('SIGTERM');
        await again.exited;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
