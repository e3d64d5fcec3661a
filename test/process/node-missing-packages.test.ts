// `tpkit node` without its optional peer packages, as a project that did not install them runs
// it: the packages are made unresolvable in the node's process (a module hook refuses their
// names, as a missing package is refused), never uninstalled. Without secp256k1 it verifies
// with @noble/curves and says so; without classic-level a data dir is DEPENDENCY_MISSING with
// the install advice; without the EVM packages a contract request is 501 DEPENDENCY_MISSING, a
// contract transaction already pending fails in its block as evm_unavailable, and once the
// packages are there the next request works without a restart.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/index.js';
import { deployContract } from '../../src/client/contract.js';
import { transfer } from '../../src/client/transfer.js';
import { runTpkit } from '../helpers/cli-run.js';
import { within } from '../helpers/helpers.js';
import { startTestNode } from '../helpers/node-helpers.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';

const work = mkdtempSync(join(tmpdir(), 'tpkit-missing-'));

/**
 * `node --import` arguments under which the packages named (or under a name ending in "/") do
 * not resolve, for import() and require() alike, until the file `installed` exists.
 */
function without(names: string[], installed = join(work, 'never')): string[] {
  const refused = `(specifier) => !existsSync(${JSON.stringify(installed)}) && ${JSON.stringify(names)}.some((n) => (n.endsWith('/') ? specifier.startsWith(n) : specifier === n || specifier.startsWith(n + '/')))`;
  const hooks = join(work, `hooks-${names.length}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    hooks,
    `import { existsSync } from 'node:fs';
const refused = ${refused};
export async function resolve(specifier, context, next) {
  if (refused(specifier)) throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
}
`,
  );
  const preload = `${hooks}.preload.mjs`;
  writeFileSync(
    preload,
    `import Module, { register } from 'node:module';
import { existsSync } from 'node:fs';
const refused = ${refused};
register(${JSON.stringify(pathToFileURL(hooks).href)});
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (refused(request)) throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' });
  return resolveFilename.call(this, request, ...rest);
};
`,
  );
  return ['--import', pathToFileURL(preload).href];
}

/** Resolves once the process has written text matching `pattern` to stderr. */
async function stderrShows(node: NodeProcess, pattern: RegExp, what: string): Promise<void> {
  const seen = async () => {
    while (!pattern.test(node.stderr())) await new Promise((r) => setTimeout(r, 20));
  };
  await within(seen(), 20_000, `${what} (stderr so far: ${node.stderr()})`);
}

test.after(() => rmSync(work, { recursive: true, force: true }));

test('without secp256k1: the node says once that it verifies with @noble/curves, and a signed transfer still goes through', async () => {
  const node = await spawnNode(['--memory', '--port', '0', '--instant'], { nodeArgs: without(['secp256k1']) });
  try {
    const warning = /signatures are verified with @noble\/curves: secp256k1 \(libsecp256k1\) is not installed; npm install secp256k1 makes verification about 20 times faster/;
    await stderrShows(node, warning, 'the warning');
    assert.is(node.stderr().split(warning).length - 1, 1, 'said once');
    const client = createClient({ baseUrl: node.url });
    const [a, b] = await client.dev.accounts();
    const sent = await transfer({ client, secretKey: a.secretKey, from: a.address, to: b.address, currency: 'SK', amount: 5n, timeoutMs: 20_000 });
    assert.ok(sent.status?.ok, JSON.stringify(sent.status));
  } finally {
    await node.stop();
  }
});

test('without classic-level: a data dir is DEPENDENCY_MISSING with the advice, and nothing is written', async () => {
  const dir = join(work, 'no-level');
  const run = await runTpkit(['node', '--data-dir', dir, '--port', '0'], { nodeArgs: without(['classic-level']) });
  assert.is(run.code, 1, run.err);
  assert.match(run.err, 'The node needs classic-level to keep a data directory: install it next to tpkit (npm install classic-level), or run the node with --memory [DEPENDENCY_MISSING]');
  assert.not.ok(existsSync(join(dir, 'ledger')), 'no ledger folder made');
});

test('without the EVM packages: contract requests are 501, a pending deploy fails in its block as evm_unavailable; installed later, the next request works', async () => {
  const dir = join(work, 'no-evm');
  // A deploy accepted while the packages were there, still pending when the node stopped.
  const before = await startTestNode({ memory: false, dataDir: dir, instant: false, mineOnDemand: true, accounts: 1 });
  let txid: string;
  try {
    const client = createClient({ baseUrl: before.url });
    const [owner] = await client.dev.accounts();
    txid = (await deployContract({ client, secretKey: owner.secretKey, from: owner.address, code: '0x00', wait: false })).txid;
  } finally {
    await before.close();
  }
  const installed = join(work, 'evm-installed');
  const node = await spawnNode(['--data-dir', dir, '--port', '0', '--mine-on-demand'], { nodeArgs: without(['@ethereumjs/'], installed) });
  try {
    const client = createClient({ baseUrl: node.url });
    const [owner] = await client.dev.accounts();
    const call = () =>
      fetch(`${node.url}/api/execute/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ call: '0x0', args: ['0x'], to: owner.address }) });
    const refused = await call();
    const answer = (await refused.json()) as { error: string; code: number; details: string };
    assert.equal([refused.status, answer.error, answer.code], [501, 'DEPENDENCY_MISSING', 10042]);
    assert.is(answer.details, 'install them next to tpkit: npm install @ethereumjs/evm @ethereumjs/common @ethereumjs/util @ethereumjs/tx');

    await client.dev.mine(1);
    const status = await client.getTxStatus(txid);
    assert.equal(status && !status.ok ? status.reason : status, 'evm_unavailable');
    await stderrShows(node, new RegExp(`${txid}: the EVM failed: The node needs the EVM packages to run contracts`), 'the failure logged');

    writeFileSync(installed, '');
    const served = await call();
    assert.is(served.status, 200, await served.clone().text());
    assert.is(((await served.json()) as { result: string }).result, 'return', 'a view of a wallet without code returns nothing');
  } finally {
    await node.stop();
  }
});

test.run();
