// Contracts that try to stop the node, on in-process nodes: a view of an endless loop with all
// the gas an Ethereum client may ask for is stopped at the view time bound with geth's error
// while /api/node/status answers; a view whose client hangs up is stopped (running) or dropped
// (queued); and heavy transactions are spread over blocks by the block gas limit. Everything is
// observed by events (the view thread's load and stops, the blocks made), never by timing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/client.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';
import { evmKey } from '../../src/node/evm/address.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

// JUMPDEST, PUSH1 0, JUMP: loops until its gas runs out. Init code: PUSH4 runtime, MSTORE, RETURN the last 4 bytes.
const spinner = '0x635b600056' + '600052' + '6004' + '601c' + 'f3';

/** A view thread's counters, as the chain's EVM part exposes them. */
const viewThread = async (node: TestNode) => (await node.chain.evm()).view;

/** Waits for `cond` by polling the event loop; gives up (fails) only after a minute. */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

function ethCall(node: TestNode, to: string, signal?: AbortSignal): Promise<{ error?: { code: number; message: string }; result?: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: '0x' + to, gas: '0xffffffffffffffff', data: '0x' }, 'latest'] });
  return fetch(node.url + '/api/jsonrpc', { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) }).then((r) => r.json());
}

// Init code that leaves a runtime of one STOP: a call costs the 21,000 a call costs and no more.
const stopper = '0x6000600053' + '60016000f3';

async function deploySpinner(node: TestNode, code = spinner, at = 0): Promise<string> {
  const client = createClient({ baseUrl: node.url });
  const owner = node.chain.accounts[at];
  const sent = deployContract({ client, secretKey: owner.secretKey, from: owner.address, code });
  if (node.chain.config.mineOnDemand) {
    await until(() => node.chain.mempool.size > 0, 'the deploy is pending');
    await node.chain.mineBlock();
  }
  await sent;
  return evmKey(owner.address);
}

let quick: TestNode;
let patient: TestNode;

test.before(async () => {
  // Gas cap as high as the settings allow: the loop outlasts any time bound on any machine.
  quick = await startTestNode({ accounts: 1, limits: { viewGasCap: 2 ** 31, viewTimeoutMs: 1000 } });
  patient = await startTestNode({ accounts: 6, instant: false, mineOnDemand: true, limits: { viewGasCap: 2 ** 31, viewTimeoutMs: 3_600_000, blockGasLimit: 2_500_000 } });
});
test.after(async () => {
  await quick?.close();
  await patient?.close();
});

test("eth_call of an endless loop with gas 2^64 - 1: /api/node/status answers while it runs; it ends with geth's timeout error", async () => {
  const to = await deploySpinner(quick);
  const view = await viewThread(quick);
  let settled = false;
  const call = ethCall(quick, to).finally(() => (settled = true));
  await until(() => view.load === 1, 'the view is running');
  const status = await quick.get('/api/node/status');
  assert.is(status.status, 200);
  assert.ok(!settled && view.load === 1, 'the view still runs while the status answered');
  const answer = await call;
  assert.equal(answer.error, { code: -32000, message: 'execution aborted (timeout = 1s)' });
  assert.is(view.stopped, 1, 'its thread was terminated');
  // A fresh thread answers the next view.
  const again = await quick.post('/api/execute/call', JSON.stringify({ to: '0x' + to, call: '0x0', args: ['0x'], gas: 30_000 }));
  assert.equal([again.status, again.body.result, again.body.error], [200, 'error', 'out_of_gas']);
});

test('a view whose client hangs up is stopped when running and dropped when queued', async () => {
  const to = await deploySpinner(patient);
  const view = await viewThread(patient);
  const first = new AbortController();
  const second = new AbortController();
  const calls = [ethCall(patient, to, first.signal).catch(() => 'hung up'), ethCall(patient, to, second.signal).catch(() => 'hung up')];
  await until(() => view.load === 2, 'one view runs, one waits');
  second.abort();
  await until(() => view.load === 1, 'the queued view is dropped');
  assert.is(view.stopped, 0, 'dropping a queued view stops no thread');
  first.abort();
  await until(() => view.load === 0, 'the running view is stopped');
  assert.is(view.stopped, 1, "the running view's thread was terminated");
  assert.equal(await Promise.all(calls), ['hung up', 'hung up']);
});

test('the block gas limit spreads heavy transactions over blocks: 2 of 10^6 gas fit 2.5 * 10^6, the rest wait', async () => {
  const to = patient.chain.accounts[0].address;
  const client = createClient({ baseUrl: patient.url });
  const senders = patient.chain.accounts.slice(1, 5);
  const txids = await Promise.all(senders.map((a) => sendContractCall({ client, secretKey: a.secretKey, from: a.address, to, data: '0x', gas: 1_000_000n, wait: false }).then((s) => s.txid)));
  assert.is(patient.chain.mempool.size, 4);
  const sizes: number[] = [];
  while (patient.chain.mempool.size > 0) sizes.push((await patient.chain.mineBlock()).txs.length);
  assert.equal(sizes, [2, 2]);
  for (const txid of txids) assert.ok((await patient.chain.statusJson(txid)) !== null);
});

test('the block counts the gas transactions used, as geth does: three cheap calls leave room for a fourth of 10^6', async () => {
  const cheap = patient.chain.accounts[5].address;
  await deploySpinner(patient, stopper, 5);
  const heavy = patient.chain.accounts[0].address;
  const client = createClient({ baseUrl: patient.url });
  const senders = patient.chain.accounts.slice(1, 5);
  // One at a time, so the mempool holds them in this order: three that use ~21,000 of the 10^6 they buy, then a loop that uses it all.
  const txids: string[] = [];
  for (const [i, a] of senders.entries()) {
    txids.push((await sendContractCall({ client, secretKey: a.secretKey, from: a.address, to: i < 3 ? cheap : heavy, data: '0x', gas: 1_000_000n, wait: false })).txid);
  }
  const block = await patient.chain.mineBlock();
  assert.equal(block.txs, txids, 'all four in one block: 3 * 21,000 + 10^6 used of 2.5 * 10^6');
  const statuses = await Promise.all(txids.map(async (txid) => JSON.parse((await patient.chain.statusJson(txid))!) as { res: string }));
  assert.equal(
    statuses.map((s) => s.res),
    ['ok', 'ok', 'ok', 'insufficient_gas'],
  );
});

test.run();
