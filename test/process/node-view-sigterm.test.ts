// SIGTERM ends a `tpkit node` process while a contract view of an endless loop runs: the view
// runs on the EVM thread, so the main thread hears the signal, stops the thread, answers the
// view's request and exits. The view is known to run by the node's own debug line, not by time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText } from '../../src/codec/address.js';
import { createClient } from '../../src/client/client.js';
import { deployContract } from '../../src/client/contract.js';
import { evmKey } from '../../src/node/evm/address.js';
import { devAccounts } from '../../src/node/ledger/genesis.js';
import { testConfig } from '../helpers/node-helpers.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';

// JUMPDEST, PUSH1 0, JUMP (an endless loop) as runtime code: PUSH4 it, MSTORE, RETURN its 4 bytes.
const spinner = '0x635b600056' + '600052' + '6004' + '601c' + 'f3';
const [owner] = devAccounts(testConfig({ accounts: 1 }));
let child: NodeProcess | undefined;

test.after(async () => {
  child?.proc.kill('SIGKILL');
  await child?.exited;
});

test('SIGTERM while a view of an endless loop runs: the node answers the view and exits 0', async () => {
  // The largest gas cap and an hour's view bound: only the signal can end this view.
  child = await spawnNode(['--memory', '--port', '0', '--instant', '--difficulty', '0', '--accounts', '1', '--view-gas-cap', String(2 ** 31), '--view-timeout', '3600000', '--log-level', 'debug']);
  const node = child;
  const client = createClient({ baseUrl: node.url });
  await deployContract({ client, secretKey: owner.secretKey, from: addressToText(owner.address), code: spinner });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: '0x' + evmKey(owner.address), gas: '0xffffffffffffffff' }, 'latest'] });
  const call = fetch(node.url + '/api/jsonrpc', { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(
    (r) => r.json() as Promise<{ error?: { message: string } }>,
    (err: Error) => ({ error: { message: `no answer: ${err.message}` } }),
  );
  const running = () => /view of \S+ running/.test(node.stdout() + node.stderr());
  for (let i = 0; i < 6000 && !running(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(running(), 'the node says the view runs');
  const exitCode = new Promise<number | null>((resolve) => node.proc.once('exit', (code) => resolve(code)));
  node.proc.kill('SIGTERM');
  assert.is(await exitCode, 0);
  const answer = await call;
  assert.ok(answer.error, 'the view was not answered as a result');
  child = undefined;
});

test.run();
