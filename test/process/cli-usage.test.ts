// The real binary against a real node: the --node forms people type, an https:// URL for a
// plain-HTTP node, a settings path the node lacks, and the exit code the binary itself sets.
// The usage errors run in process: test/unit/cli-usage.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText } from '../../src/codec/address.js';
import { runTpkit } from '../helpers/cli-run.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;

const tpkit = (...args: string[]) => runTpkit(args, { env: { TPKIT_NODE: '' } });

test.before(async () => {
  node = await startTestNode();
});

test.after(async () => {
  await node.close();
});

test('--node takes host:port (http on loopback), localhost, [::1], a trailing /api; errors name the flag', async () => {
  const port = new URL(node.url).port;
  const dev = addressToText(node.chain.accounts[0].address);
  for (const form of [`127.0.0.1:${port}`, `localhost:${port}`, `${node.url}/api`, `${node.url}/api/`, `${node.url}/`]) {
    const r = await tpkit('balance', dev, '--node', form);
    assert.is(r.code, 0, `${form}: ${r.err}`);
    assert.match(r.out, /balance  1000000000000000 SK/);
  }
  // IPv6 loopback in brackets: http too
  const v6 = await startTestNode({ host: '::1' });
  try {
    const r = await tpkit('balance', dev, '--node', `[::1]:${new URL(v6.url).port}/api`);
    assert.is(r.code, 0, r.err);
    assert.match(r.out, /balance  1000000000000000 SK/);
  } finally {
    await v6.close();
  }
  // another host without a scheme is https, never plain http
  const remote = await tpkit('balance', dev, '--node', 'nosuchhost.invalid:1');
  assert.is(remote.code, 3);
  assert.match(remote.err, /to https:\/\/nosuchhost\.invalid:1:/);
  const bad = await tpkit('balance', dev, '--node', 'ftp://example.com');
  assert.is(bad.code, 2);
  assert.match(bad.err, /^tpkit balance: --node must be an http:\/\/ or https:\/\/ URL/);
  assert.not.match(bad.err, /baseUrl/);
});

test('--node https:// against the plain-HTTP node says to use http://, not "is the node running?"', async () => {
  const dev = addressToText(node.chain.accounts[0].address);
  const port = new URL(node.url).port;
  const r = await tpkit('balance', dev, '--node', `https://127.0.0.1:${port}`);
  assert.is(r.code, 3);
  assert.match(r.err, new RegExp(`the server answers plain HTTP, not TLS; use http://127\\.0\\.0\\.1:${port}`));
  assert.match(r.err, /give its URL with http:\/\//);
  assert.not.match(r.err, /wrong version number|is `tpkit node` running/);
});

test('settings of a path the node does not have says so besides the empty answer', async () => {
  const r = await tpkit('settings', 'current.regster.diff', '--node', node.url);
  assert.is(r.code, 0);
  assert.is(r.out.trim(), '{}');
  assert.match(r.err, /^note: the node has no settings at current\.regster\.diff/);
  const found = await tpkit('settings', 'current.register.diff', '--node', node.url);
  assert.is(found.err, '');
});

test('the binary exits with the code dispatch answers: 2 for an unknown command, 0 for --version', async () => {
  assert.is((await tpkit('sned')).code, 2);
  assert.is((await tpkit('--version')).code, 0);
});

test.run();
