// The event answer of a block full of events (GET logs_height/{h}), asked for by readers that
// never read and readers that read slowly: a real `tpkit node` process sends each a little at a
// time instead of holding its whole answer, so its RSS grows by far less than the readers'
// answers; it answers /api/node/status and other readers throughout, and disconnects each
// stalled reader at the stall limit (one log line each). Bounds only, no times.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { get } from 'node:http';
import { createClient } from '../../src/client/client.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { node, readerNodeDuring, rssMb, stalledAndSlowReaders } from '../helpers/reader-node.js';

const STALLED = 16;
const SLOW = 4;
const STALL_MS = 3000;
/** Transactions of 10,000 events each (the most one may emit): 7 of them fill the 3·10^7 block gas limit. */
const TXS = 7;
const EVENTS = 10_000;

readerNodeDuring(test, STALL_MS);

const mine = async () =>
  (await (await fetch(`${node.url}/api/dev/mine`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).json()).blocks as { hash: string; height: number }[];

/** GET /api/node/status on a connection of its own: its status code. */
function statusOnce(): Promise<number> {
  const { hostname, port } = new URL(node.url);
  return new Promise((resolve, reject) => {
    const req = get({ host: hostname, port: Number(port), path: '/api/node/status', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

test(`a block of ${TXS * EVENTS} events: ${STALLED} stalled and ${SLOW} slow readers of its logs; RSS grows by far less than their answers, status answers, each stalled reader disconnected`, async () => {
  const accounts = (await (await fetch(`${node.url}/api/dev/accounts`)).json()).accounts as { address: string; secret_key: string }[];
  const [owner, caller] = accounts.map((a) => ({ address: a.address, secretKey: Buffer.from(a.secret_key, 'hex') }));
  const client = createClient({ baseUrl: node.url });
  // Runtime: n = calldata word 0; while n: LOG0(0, 0), n -= 1. Init code: CODECOPY it, RETURN it.
  const runtime = '5f355b80156012575f5fa060019003600256' + '5b00';
  await deployContract({ client, ...owner, from: owner.address, code: `0x6014600c60003960146000f3${runtime}`, wait: false });
  await mine();
  const data = `0x${EVENTS.toString(16).padStart(64, '0')}`;
  const seq = await client.getSeq(caller.address);
  for (let i = 1; i <= TXS; i++) await sendContractCall({ client, ...caller, from: caller.address, to: owner.address, data, gas: 4_250_000n, seq: seq + BigInt(i), wait: false });
  const [block] = await mine();
  const path = `/api/logs_height/${block.height}`;
  const full = Buffer.from(await (await fetch(node.url + path)).arrayBuffer());
  const answer = JSON.parse(full.toString('utf8'));
  assert.equal([answer.log.height, answer.log.logs.length, answer.events.length], [block.height, TXS * EVENTS, TXS * EVENTS], 'every event of the block');
  const answerMb = full.byteLength / 2 ** 20;
  const base = rssMb(node.proc.pid!);
  console.log(`  ${TXS * EVENTS} events: the answer ${answerMb.toFixed(1)} MiB, node RSS before the readers ${base.toFixed(0)} MB`);

  const readers = stalledAndSlowReaders(node.url, path, STALLED, SLOW);
  const { stalled } = readers;
  let peak = 0;
  try {
    for (let i = 0; i < 12; i++) {
      await new Promise((r) => setTimeout(r, 500));
      peak = Math.max(peak, rssMb(node.proc.pid!));
      // A fresh connection each time: the question is whether the node answers, not whether a
      // kept-alive socket survives.
      const status = await statusOnce().catch((err: Error) => {
        throw new Error(`status: ${err.message}; the node's log: ${node.stderr().slice(-1500)}`);
      });
      assert.is(status, 200);
    }
    // Another reader of the same block gets the whole answer while the others stall.
    assert.ok(Buffer.from(await (await fetch(node.url + path)).arrayBuffer()).equals(full), 'the same bytes for a reader beside the stalled ones');
    const deadline = Date.now() + 60_000;
    const count = () => (node.stderr().match(/took nothing for 3000 ms of the answer/g) ?? []).length;
    while (count() < STALLED && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.is(count(), STALLED, node.stderr().slice(-2000));
    for (const r of stalled) assert.ok(r.received() < full.byteLength, 'a stalled reader never got the whole answer');
  } finally {
    readers.close();
  }
  const grown = peak - base;
  // Held whole, each of the 20 answers stays in the node, less what the kernel's socket buffers took.
  const bound = 3 * answerMb;
  console.log(`  node RSS peak ${peak.toFixed(0)} MB: grown ${grown.toFixed(0)} MB for ${STALLED + SLOW} readers of ${answerMb.toFixed(1)} MiB (bound ${bound.toFixed(0)} MB)`);
  assert.ok(grown < bound, `RSS grew ${grown.toFixed(0)} MB`);
});

test.run();
