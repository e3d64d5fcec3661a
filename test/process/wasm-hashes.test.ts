// hash.ts's SHA-256 on the WASM module once loaded, noble before; importing the library
// compiles nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { sha256 } from '../../src/hash.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { TpkitError } from '../../src/errors.js';
import { disableWasmHashes, enableWasmHashes, enableWasmHashesSync, wasmHashes } from '../../src/wasm/hashes.js';
import { vectors } from '../helpers/vectors.js';

test('importing the miner, the hashes and the CLI modules instantiates no WebAssembly', () => {
  const modules = [
    'src/hash.js',
    'src/wasm/kernel.js',
    'src/wasm/hashes.js',
    'src/pow/kernel.js',
    'src/pow/calibrate.js',
    'src/pow/mine-body.js',
    'src/pow/search.js',
    'src/pow/pool.node.js',
    'src/cli/bench.js',
  ].map((m) => new URL(`../../${m}`, import.meta.url).href);
  const script = `
    const counts = { module: 0, instance: 0, compile: 0, instantiate: 0 };
    const wrap = (C, key) => new Proxy(C, { construct(t, a) { counts[key]++; return Reflect.construct(t, a); } });
    WebAssembly.Module = wrap(WebAssembly.Module, 'module');
    WebAssembly.Instance = wrap(WebAssembly.Instance, 'instance');
    const compile = WebAssembly.compile, instantiate = WebAssembly.instantiate;
    WebAssembly.compile = (...a) => { counts.compile++; return compile(...a); };
    WebAssembly.instantiate = (...a) => { counts.instantiate++; return instantiate(...a); };
    for (const m of ${JSON.stringify(modules)}) await import(m);
    console.log(JSON.stringify(counts));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
  });
  assert.equal(JSON.parse(out), { module: 0, instance: 0, compile: 0, instantiate: 0 });
});

test('sha256 uses noble until WASM is enabled, then the WASM module; same digests', async () => {
  disableWasmHashes();
  assert.is(wasmHashes(), undefined);
  const inputs = [0, 1, 55, 56, 63, 64, 65, 120, 250, 1000, 40_000].map((n) => randomBytes(n));
  const before = inputs.map((d) => bytesToHex(sha256(d)));
  assert.ok(await enableWasmHashes());
  assert.ok(wasmHashes() !== undefined);
  inputs.forEach((d, i) => {
    assert.is(bytesToHex(sha256(d)), before[i]);
    assert.is(before[i], createHash('sha256').update(d).digest('hex'));
  });
  const keys = vectors.keys_hash.public_keys.map((k) => hexToBytes(k));
  assert.is(bytesToHex(keysHash(keys), true), vectors.keys_hash.h);
  assert.throws(
    () => sha256('abc' as never),
    (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
  );
  disableWasmHashes();
  assert.ok(enableWasmHashesSync());
  assert.is(bytesToHex(sha256(inputs[3])), before[3]);
  disableWasmHashes();
});

test.run();
