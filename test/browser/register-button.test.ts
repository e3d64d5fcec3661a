// The plain-page example for other wallets (examples/register-button: no bundler, an import
// map onto tpkit's self-contained browser build) in Chromium and Firefox: the key a wallet
// holds as ethers or viem do (0x-hex) is registered at the node's difficulty 16, and Cancel
// stops the mining with ABORTED and nothing sent.
import { cpSync, mkdtempSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { openEngine, type Engine, type EngineName } from '../helpers/browsers.js';
import { startExampleServer, type ExampleServer } from '../helpers/example-server.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let site: string;
let server: ExampleServer;
let node: TestNode;
let strict: TestNode;

test.before(async () => {
  // The example as a wallet project has it: its two files and tpkit installed beside them.
  site = mkdtempSync(join(tmpdir(), 'tpkit-register-button-'));
  cpSync(join(ROOT, 'examples', 'register-button'), site, { recursive: true });
  mkdirSync(join(site, 'node_modules'));
  symlinkSync(ROOT, join(site, 'node_modules', 'tpkit'));
  server = await startExampleServer();
  server.serve(site);
  node = await startTestNode({ difficulty: 16 });
  strict = await startTestNode({ difficulty: 26 });
});

test.after(async () => {
  await server?.close();
  await node?.close();
  await strict?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

const page = (target: TestNode, key: Uint8Array, extra: Record<string, string> = {}) =>
  `${server.url}/?${new URLSearchParams({ node: target.url, key: '0x' + bytesToHex(key), auto: '1', report: server.reportUrl, ...extra })}`;

for (const name of ['chromium', 'firefox'] as EngineName[]) {
  test(`${name}: the button registers a 0x-hex key at difficulty 16, and Cancel aborts a long mining`, async () => {
    const engine: Engine = await openEngine(name);
    try {
      const key = new Uint8Array(32).fill(name === 'chromium' ? 21 : 22);
      const [report] = (await Promise.all([server.nextReport(), engine.open(page(node, key))])) as [Record<string, unknown>, void];
      assert.is(report.error, undefined, String(report.message));
      assert.is(report.difficulty, 16);
      const wallet = (await node.get(`/api/address/${report.address}`)).body;
      assert.is(String(wallet.info.pubkey).toLowerCase().replace(/^0x/, ''), bytesToHex(publicKeyOf(key)));
      assert.equal(engine.failedRequests(), []);

      const height = strict.chain.height;
      const [cancelled] = (await Promise.all([server.nextReport(), engine.open(page(strict, new Uint8Array(32).fill(23), { cancel: '1' }))])) as [Record<string, unknown>, void];
      assert.is(cancelled.error, 'ABORTED', String(cancelled.message));
      assert.is(strict.chain.height, height, 'nothing was sent');
    } finally {
      await engine.close();
    }
  });
}

test.run();
