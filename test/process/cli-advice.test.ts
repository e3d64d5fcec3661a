// Refusals as a newcomer meets them, from the real binary: a mistyped address, the
// development controls, a node behind a self-signed certificate, a node whose clock is hours
// away, and a URL that is a web server rather than a node. Each names the reason and what to do.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { addressToText } from '../../src/codec/address.js';
import { createClient, NotANodeError, registerWallet } from '../../src/client/index.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { runTpkit } from '../helpers/cli-run.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
let site: Server;
let siteUrl = '';

test.before(async () => {
  node = await startTestNode();
  // A static file server: every unknown path is a 404 page in HTML.
  site = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<!DOCTYPE html><html><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});

test.after(async () => {
  await node.close();
  await new Promise((resolve) => site.close(resolve));
});

test('a node that takes the request and never answers: the CLI stops at its time limit with exit 3 and [TIMEOUT]', async () => {
  const held: import('node:http').ServerResponse[] = [];
  const silent = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const run = await runTpkit(['balance', 'AA100000001677721780', '--node', url]);
    assert.is(run.code, 3, run.err);
    assert.match(run.err, /\[TIMEOUT\]\n {2}the node did not answer in time/);
    assert.ok(held.length >= 1, 'the request reached the server');
  } finally {
    for (const res of held) res.destroy();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('tpkit address of a bad address ends with an advice line', async () => {
  const run = await runTpkit(['address', 'AA10000000167772178']);
  assert.is(run.code, 1);
  assert.match(run.err, /\[ADDRESS_INVALID\]\n {2}copy the address again: a public one is 20 characters/);
  const swapped = await runTpkit(['address', 'AA100000001677721708']);
  assert.match(swapped.err, /\[ADDRESS_CHECKSUM\]\n {2}a character is mistyped or two are swapped/);
});

test('tpkit dev: --clear alone clears every fault; a refusal names its reason, not "the node refused"', async () => {
  const dev = (...args: string[]) => runTpkit(['dev', ...args, '--node', node.url]);
  assert.is((await dev('faults', '--add', '{"path":"address","action":"error","status":503,"count":5}')).code, 0);
  assert.is((await dev('faults', '--add', '{"path":"tx/new","action":"drop","count":1}')).code, 0);
  const cleared = await dev('faults', '--clear');
  assert.is(cleared.code, 0, cleared.err);
  assert.match(cleared.out, /^no faults$/m);
  const missing = await dev('revert', 'nope');
  assert.is(missing.code, 1);
  assert.match(missing.err, /No such snapshot: "nope"[^]*\n {2}`tpkit dev snapshot --list` shows the snapshots/);
  const tooMany = await dev('mine', '--blocks', '500');
  assert.match(tooMany.err, /expected 1 to 100, got 500[^]*\n {2}`tpkit dev --help` shows what each action takes/);
  for (const run of [missing, tooMany]) assert.not.match(run.err, /the node refused the request/);
});

test('a node with a self-signed certificate: the advice names NODE_EXTRA_CA_CERTS, and following it works', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tpkit-advice-tls-'));
  const tlsNode = await startTestNode({ memory: false, dataDir, tls: { selfSigned: true } });
  try {
    const url = tlsNode.url;
    assert.match(url, /^https:/);
    const untrusted = await runTpkit(['accounts', '--node', url]);
    assert.is(untrusted.code, 3);
    assert.match(untrusted.err, /self-signed certificate[^]*\n {2}.*NODE_EXTRA_CA_CERTS=DATA_DIR\/tls\/dev-cert\.pem/);
    assert.not.match(untrusted.err, /running\?/);
    const trusted = await runTpkit(['accounts', '--node', url], { env: { NODE_EXTRA_CA_CERTS: join(dataDir, 'tls', 'dev-cert.pem') } });
    assert.is(trusted.code, 0, trusted.err);
  } finally {
    await tlsNode.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a node whose clock is two hours ahead of this machine's: the send is refused and the advice is to set the clock", async () => {
  const skewed = await startTestNode({ accounts: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-advice-clock-'));
  try {
    const env = { TPKIT_PASSPHRASE: 'a passphrase for tests' };
    const keyFile = join(dir, 'dev.key');
    const [from, to] = skewed.chain.accounts;
    const imported = await runTpkit(['keygen', '--import', '--out', keyFile], { env, stdin: `${bytesToHex(from.secretKey)}\n` });
    assert.is(imported.code, 0, imported.err);
    const moved = await runTpkit(['dev', 'time', '--offset', String(2 * 3_600_000), '--node', skewed.url]);
    assert.is(moved.code, 0, moved.err);
    const height = skewed.chain.height;
    const send = await runTpkit(['send', '--key', keyFile, '--from', addressToText(from.address), '--to', addressToText(to.address), '--amount', '1', '--currency', 'SK', '--node', skewed.url], {
      env,
    });
    assert.is(send.code, 1, send.err);
    // the node's reason with the gap it measured, then the advice for this very refusal
    assert.match(
      send.err,
      /timestamp outside the accepted window: t = \d+ is -72\d\d s from the node clock \d+; the limit is ±3600 s \[API_ERROR\]\n {2}this machine's clock is an hour or more away from the node's; set it right\.\n$/,
    );
    assert.is(skewed.chain.height, height, 'nothing was added to the chain');
  } finally {
    await skewed.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a web server where a node was expected: "not a ThePower node", never its HTML', async () => {
  const run = await runTpkit(['balance', 'AA100000001677721780', '--node', siteUrl]);
  assert.is(run.code, 1);
  assert.match(run.err, /is not a ThePower node: GET \/api\/address\/AA100000001677721780: HTTP 404, an HTML page instead of JSON \("Not Found The requested URL/);
  assert.match(run.err, /check --node/);
  assert.not.match(run.err, /[<>]/);
});

test('registerWallet against a web server stops at the settings with NotANodeError: nothing mined or submitted', async () => {
  let mined = false;
  const err = await registerWallet({ client: createClient({ baseUrl: siteUrl }), secretKeys: generateSecretKey(), onStage: (stage) => (mined ||= stage === 'mining') }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, NotANodeError);
  assert.is((err as NotANodeError).code, 'BAD_RESPONSE');
  assert.not.match((err as Error).message, /</);
  assert.is(mined, false);
});

test.run();
