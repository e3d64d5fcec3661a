// tpkit/tssdk in a Vite app (examples/tssdk-vite), built from the packed package: Vite takes
// the export's browser build, the page mines the register transaction in Web Workers at the
// node's difficulty 16 and sends it, and the node registers the WIF's key.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { secretKeyToWif } from '../../src/keys/wif.js';
import { openEngine, type Engine } from '../helpers/browsers.js';
import { installExamples, PROJECT, run } from '../helpers/examples.js';
import { startExampleServer, type ExampleServer } from '../helpers/example-server.js';
import { startTestNode, waitStatus, type TestNode } from '../helpers/node-helpers.js';

const APP = join(PROJECT, 'tssdk-vite');
let server: ExampleServer | undefined;
let engine: Engine | undefined;
let node: TestNode | undefined;
let setupError: unknown;

test.before(async () => {
  try {
    installExamples();
    run(join(PROJECT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], APP);
    server = await startExampleServer();
    engine = await openEngine('chromium');
    node = await startTestNode({ difficulty: 16 });
  } catch (err) {
    setupError = err;
  }
});

test.after(async () => {
  await engine?.close();
  await server?.close();
  await node?.close();
});

test('Vite builds tpkit/tssdk from its browser build: no Node module in the output', () => {
  if (setupError) throw setupError;
  const assets = join(APP, 'dist', 'assets');
  const code = readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .join('\n');
  assert.ok(code.includes('tpkit/tssdk: the Node worker pool is not in the browser build'), 'the browser build of the entry');
  assert.not.ok(/worker_threads/.test(code), 'no worker_threads');
});

test('the built page reads difficulty 16, mines in Web Workers only, and the node registers the key', async () => {
  if (setupError) throw setupError;
  const key = new Uint8Array(32).fill(9);
  server!.serve(join(APP, 'dist'));
  const query = new URLSearchParams({ node: node!.url, wif: secretKeyToWif(key), report: server!.reportUrl, workersOnly: '1' });
  const [report] = (await Promise.all([server!.nextReport(), engine!.open(`${server!.url}/?${query}`)])) as [Record<string, unknown>, void];
  assert.is(report.error, undefined, String(report.error));
  assert.is(report.difficulty, 16);
  assert.ok((report.bits as number) >= 16);
  assert.is(report.poolFailure, null, 'the workers started');
  assert.is(report.callingThreadHashes, 0, "workersOnly: the page's thread did not hash");
  assert.ok((report.hashes as number) > 0, 'the workers found it');
  const status = await waitStatus(node!, report.txid as string, 30_000);
  assert.is(status.ok, true, JSON.stringify(status));
  const wallet = (await node!.get(`/api/address/${status.res}`)).body;
  assert.is(String(wallet.info.pubkey).toLowerCase().replace(/^0x/, ''), bytesToHex(publicKeyOf(key)));
  assert.equal(engine!.failedRequests(), []);
});

test.run();
