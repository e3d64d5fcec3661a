// The browser build's shape (dist/browser, built by scripts/build-browser.mjs): minified
// scripts with their source maps, the WASM binaries as .wasm files equal to the ones the
// Node entry embeds, and no WASM inside either script. Also the SIMD probe module.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bytesToBase64 } from '../src/bytes.js';
import { SCALAR_WASM_BASE64 } from '../src/wasm/scalar.generated.js';
import { SIMD_WASM_BASE64 } from '../src/wasm/simd.generated.js';
import { probeSimd, simdProbeBytes } from '../src/wasm/simd-probe.js';

const dist = fileURLToPath(new URL('../browser/', import.meta.url));
const read = (name: string) => readFileSync(dist + name);
const EMBEDDED = { scalar: SCALAR_WASM_BASE64, simd: SIMD_WASM_BASE64 };

test('the .wasm files beside the bundle are the binaries the Node entry embeds', () => {
  for (const flavor of ['scalar', 'simd'] as const) {
    const file = read(`tpkit-${flavor}.wasm`);
    assert.ok(WebAssembly.validate(file), `tpkit-${flavor}.wasm validates`);
    assert.is(bytesToBase64(file), EMBEDDED[flavor], `tpkit-${flavor}.wasm`);
  }
});

test('no script carries a WASM binary, and each is minified with a source map beside it', () => {
  const scripts = readdirSync(dist).filter((name) => name.endsWith('.js'));
  assert.ok(scripts.includes('tpkit.js') && scripts.includes('miner-worker.js'), scripts.join(', '));
  for (const name of scripts) {
    const script = read(name).toString('utf8');
    // The binaries' base64 starts with the magic number and version: AGFzbQEAAAA.
    assert.not.ok(script.includes('AGFzbQEAAAA'), `${name} holds no base64 WASM`);
    for (const flavor of ['scalar', 'simd'] as const) assert.not.ok(script.includes(EMBEDDED[flavor].slice(0, 64)), `${name}: ${flavor}`);
    // Minified: no indented lines (template literals may still hold a few line breaks).
    const indented = script.split('\n').filter((l) => /^\s+\S/.test(l)).length;
    assert.is(indented, 0, `${name} has ${indented} indented lines`);
    assert.ok(script.trimEnd().endsWith(`//# sourceMappingURL=${name}.map`), `${name} links its map`);
    const map = JSON.parse(read(`${name}.map`).toString('utf8')) as { sources: string[] };
    assert.ok(map.sources.length > 0, `${name}.map names its sources`);
  }
});

test('the worker script stands alone: it imports nothing', () => {
  const worker = read('miner-worker.js').toString('utf8');
  assert.not.match(worker, /\bimport\s*[({"'*]|\bfrom\s*["']/);
});

test('the SIMD probe: a valid module exactly when this engine has SIMD, and it agrees with the real binary', () => {
  const probe = simdProbeBytes();
  assert.ok(probe.length < 64, `${probe.length} bytes`);
  assert.is(probeSimd(), WebAssembly.validate(read('tpkit-simd.wasm')));
  assert.is(probeSimd(), WebAssembly.validate(probe));
  assert.ok(probe.includes(0xfd), 'the probe holds a SIMD (0xfd-prefixed) instruction');
});

test.run();
