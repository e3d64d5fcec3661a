// A wallet project installs tpkit as npm would deliver it: the packed tarball into a fresh
// project. It gets no native module it loads (classic-level and secp256k1 are optional peers
// of the node; piscina's optional @napi-rs/nice ships prebuilt and is never loaded), imports
// the codec and the WASM miner with `import` and with `require()`, type-checks under `strict`
// with `skipLibCheck: false`, and can still start an in-memory node. A second project
// installed with --omit=optional mines as well.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tpkit-consumer-'));
const project = join(work, 'wallet');
const lean = join(work, 'wallet-no-optional');
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
  mkdirSync(lean);
  writeFileSync(join(lean, 'package.json'), JSON.stringify({ name: 'wallet-no-optional', private: true, type: 'module', dependencies: { tpkit: `file:../${packed}` } }));
  npm(['install', '--omit=optional', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], lean);
});

/** Records every native module a process (and its worker threads) loads, to `log`. */
function dlopenRecorder(dir: string): { preload: string; log: string } {
  const preload = join(dir, 'record-dlopen.cjs');
  const log = join(dir, 'dlopen.log');
  writeFileSync(
    preload,
    `const { appendFileSync } = require('node:fs');
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  appendFileSync(${JSON.stringify(log)}, filename + '\\n');
  return dlopen.call(this, module, filename, ...rest);
};
`,
  );
  return { preload, log };
}

test.after(() => rmSync(work, { recursive: true, force: true }));

test('the install builds nothing: no binding.gyp, no classic-level or secp256k1; the only .node files are @napi-rs/nice prebuilds', () => {
  const modules = join(project, 'node_modules');
  assert.equal(
    find(modules, (name) => name === 'binding.gyp'),
    [],
  );
  const binaries = find(modules, (name) => name.endsWith('.node'));
  for (const file of binaries) assert.ok(file.includes(join('node_modules', '@napi-rs', 'nice')), file);
  const top = readdirSync(modules);
  assert.ok(top.includes('tpkit'));
  assert.not.ok(top.includes('classic-level'));
  assert.not.ok(top.includes('secp256k1'));
  // The EVM is the node's optional peer too: a wallet installs none of it.
  assert.not.ok(top.includes('@ethereumjs'));
  assert.equal(
    find(modules, (name) => name === 'package.json').filter((f) => f.includes('@ethereumjs')),
    [],
  );
});

test('--omit=optional: no native file at all, and the miner still mines on its worker threads', () => {
  assert.equal(
    find(join(lean, 'node_modules'), (name) => name.endsWith('.node')),
    [],
  );
  writeFileSync(
    join(lean, 'mine.mjs'),
    `import { mineRegister, createMinerPool } from 'tpkit/mine';
const pool = createMinerPool(2);
await pool.warm();
const mined = await mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], difficulty: 12, pool, callingThread: false });
console.log(JSON.stringify({ bits: mined.bits, onPool: mined.hashes - mined.callingThreadHashes }));
await pool.destroy();
`,
  );
  const result = JSON.parse(execFileSync(process.execPath, ['mine.mjs'], { cwd: lean, encoding: 'utf8' }));
  assert.ok(result.bits >= 12);
  assert.ok(result.onPool > 0, "the pool's threads did the hashing");
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
  // Every native module loaded, in the process and its worker threads, is recorded: none is.
  const { preload, log } = dlopenRecorder(work);
  const result = JSON.parse(execFileSync(process.execPath, ['--require', preload, 'use.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.not.ok(existsSync(log), `native modules loaded: ${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
  assert.is(result.kind, 'register');
  assert.ok(result.bits >= 10);
  assert.ok(['hybrid', 'simd', 'scalar', 'memsched'].includes(result.kernel), `a WASM kernel mined: ${result.kernel}`);
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
    JSON.stringify({
      compilerOptions: { strict: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], noEmit: true, types: ['node'] },
      files: ['app.ts'],
    }),
  );
  writeFileSync(
    join(project, 'app.ts'),
    `import { createClient, mineRegister, decodeTx, generateSecretKey, publicKeyOf, type TxStatus, type MiningProgress } from 'tpkit';
import { sharedWebMinerPool } from 'tpkit/browser';
import { setKernelSource, type KernelSource } from 'tpkit/browser/lean';
import { mnemonicToSecretKey, type WalletExport } from 'tpkit/browser/keys';
import { startNode, type RunningNode } from 'tpkit/node';
export async function run(): Promise<TxStatus | null> {
  const node: RunningNode = await startNode({ difficulty: 4 });
  const client = createClient({ baseUrl: node.url });
  const mined = await mineRegister({ publicKeys: [publicKeyOf(generateSecretKey())], difficulty: 4, onProgress: (p: MiningProgress) => void p.hashRate });
  decodeTx(mined.body);
  void sharedWebMinerPool;
  const fromCdn: KernelSource = (flavor) => WebAssembly.compileStreaming(fetch('https://cdn.example/tpkit-' + flavor + '.wasm'));
  setKernelSource(fromCdn);
  const opened: Pick<WalletExport, 'secretKey'> = { secretKey: mnemonicToSecretKey('x', { block: 1, group: 10 }) };
  void opened;
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

test('tpkit/node without the native peers and the EVM: an in-memory node starts, verifies with @noble/curves and answers; contracts ask for the EVM packages', () => {
  writeFileSync(
    join(project, 'node.mjs'),
    `import { startNode } from 'tpkit/node';
const node = await startNode({ difficulty: 0 });
const status = await (await fetch(node.url + '/api/node/status')).json();
const call = await fetch(node.url + '/api/execute/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ call: '0x0', args: ['0x'], to: '0x8001400001000001' }) });
console.log(JSON.stringify({ height: status.status.blockchain.header.height, contracts: (await call.json()).error, status: call.status }));
await node.close();
`,
  );
  const result = JSON.parse(execFileSync(process.execPath, ['node.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.is(result.height, 1);
  assert.is(result.contracts, 'DEPENDENCY_MISSING', 'a contract request says which packages the EVM needs');
  assert.is(result.status, 501, 'not the request at fault: this node cannot do it');
});

test.run();
