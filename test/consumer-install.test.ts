// A wallet project installs tpkit as npm would deliver it: the packed tarball into a fresh
// project. It gets no native module (classic-level and secp256k1 are optional peers of the
// node), imports the codec and the WASM miner with `import` and with `require()`, type-checks
// under `strict` with `skipLibCheck: false`, and can still start an in-memory node.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tpkit-consumer-'));
const project = join(work, 'wallet');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

/** Every file under `dir` whose name matches. */
function find(dir: string, match: (name: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) find(path, match, out);
    else if (match(entry.name)) out.push(path);
  }
  return out;
}

test.before(() => {
  // dist/ is built by `npm test`; pack it as published, without running the build again.
  const packed = npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', work], ROOT).trim().split('\n').pop()!;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'wallet', private: true, type: 'module', dependencies: { tpkit: `file:../${packed}` } }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], project);
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test('the install holds no native module: no .node binary, no binding.gyp, no classic-level or secp256k1', () => {
  const modules = join(project, 'node_modules');
  assert.equal(find(modules, (name) => name.endsWith('.node') || name === 'binding.gyp'), []);
  const top = readdirSync(modules);
  assert.ok(top.includes('tpkit'));
  assert.not.ok(top.includes('classic-level'));
  assert.not.ok(top.includes('secp256k1'));
});

test('import: decode a transaction and mine a registration with the WASM kernels', () => {
  writeFileSync(
    join(project, 'use.mjs'),
    `import { decodeTx, decodeBody, generateSecretKey, publicKeyOf, mineRegister, powBits, closeSharedMinerPool, signTx, verifyTx } from 'tpkit';
const key = generateSecretKey();
const mined = await mineRegister({ publicKeys: [publicKeyOf(key)], difficulty: 10 });
const tx = signTx(mined.body, key);
const body = decodeBody(decodeTx(tx).body);
console.log(JSON.stringify({ kind: body.kind, bits: powBits(mined.body), kernel: mined.kernel, valid: verifyTx(tx).valid }));
await closeSharedMinerPool();
`,
  );
  const result = JSON.parse(execFileSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.is(result.kind, 'register');
  assert.ok(result.bits >= 10);
  assert.ok(['hybrid', 'simd', 'scalar'].includes(result.kernel), `a WASM kernel mined: ${result.kernel}`);
  assert.ok(result.valid);
});

test('require(): the package loads from CommonJS on Node >= 20.19', () => {
  const [major, minor] = process.versions.node.split('.').map(Number);
  assert.ok(major > 20 || (major === 20 && minor >= 19), `this test runs on Node ${process.versions.node}; require(esm) needs 20.19`);
  writeFileSync(join(project, 'use.cjs'), `const { addressToText, makeAddress } = require('tpkit');\nconsole.log(addressToText(makeAddress({ group: 10, block: 1, wallet: 1 })));\n`);
  assert.is(execFileSync(process.execPath, ['use.cjs'], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(), 'AA100000001677721780');
});

test('the types compile in a strict consumer with skipLibCheck: false', () => {
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], noEmit: true, types: ['node'] }, files: ['app.ts'] }),
  );
  writeFileSync(
    join(project, 'app.ts'),
    `import { createClient, mineRegister, decodeTx, generateSecretKey, publicKeyOf, type TxStatus, type MiningProgress } from 'tpkit';
import { sharedWebMinerPool } from 'tpkit/browser';
import { startNode, type RunningNode } from 'tpkit/node';
export async function run(): Promise<TxStatus | null> {
  const node: RunningNode = await startNode({ difficulty: 4 });
  const client = createClient({ baseUrl: node.url });
  const mined = await mineRegister({ publicKeys: [publicKeyOf(generateSecretKey())], difficulty: 4, onProgress: (p: MiningProgress) => void p.hashRate });
  decodeTx(mined.body);
  void sharedWebMinerPool;
  await node.close();
  return client.getTxStatus('x');
}
`,
  );
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
  } catch (err) {
    assert.unreachable(`tsc: ${(err as { stdout?: string }).stdout}`);
  }
});

test('tpkit/node without the native peers: an in-memory node starts, verifies with @noble/curves and answers', () => {
  writeFileSync(
    join(project, 'node.mjs'),
    `import { startNode } from 'tpkit/node';
const node = await startNode({ difficulty: 0 });
const status = await (await fetch(node.url + '/api/node/status')).json();
console.log(JSON.stringify({ height: status.status.blockchain.header.height }));
await node.close();
`,
  );
  const result = JSON.parse(execFileSync(process.execPath, ['node.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.is(result.height, 1);
});

test.run();
