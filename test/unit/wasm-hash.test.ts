// Both WASM binaries' SHA-256 and SHA-512 against NIST vectors and node:crypto.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { bytesToHex } from '../../src/bytes.js';
import { TpkitError } from '../../src/errors.js';
import { loadWasm, loadWasmSync, simdSupported, type WasmFlavor } from '../../src/wasm/kernel.js';

// FIPS 180-2 appendix examples (and the one-million-'a' message).
const NIST = [
  {
    message: 'abc',
    sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    sha512: 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
  },
  {
    message: '',
    sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    sha512: 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
  },
  {
    message: 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
    sha256: '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  },
  {
    message: 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
    sha512: '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909',
  },
  {
    message: 'a'.repeat(1_000_000),
    sha256: 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    sha512: 'e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b',
  },
];

const encoder = new TextEncoder();
const nodeHash = (algorithm: string, data: Uint8Array) => createHash(algorithm).update(data).digest('hex');

test('Node accepts the SIMD binary (so both flavors are tested here)', () => {
  assert.ok(simdSupported());
});

for (const flavor of ['scalar', 'simd'] as WasmFlavor[]) {
  test(`${flavor}: NIST vectors`, () => {
    const wasm = loadWasmSync(flavor);
    assert.is(wasm.flavor, flavor);
    assert.is(wasm.maxLanes, flavor === 'simd' ? 2 : 1);
    assert.is(wasm.lanes, 1, 'one nonce per compression until useLanes(2)');
    if (flavor === 'simd') {
      wasm.useLanes(2);
      assert.is(wasm.lanes, 2);
    }
    for (const bad of flavor === 'simd' ? [0, 3, 1.5] : [2, 0]) {
      assert.throws(
        () => wasm.useLanes(bad as 1 | 2),
        (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
      );
    }
    for (const v of NIST) {
      const data = encoder.encode(v.message);
      if (v.sha256) assert.is(bytesToHex(wasm.sha256(data)), v.sha256, `sha256 of ${data.length} bytes`);
      if (v.sha512) assert.is(bytesToHex(wasm.sha512(data)), v.sha512, `sha512 of ${data.length} bytes`);
    }
  });

  test(`${flavor}: every length 0..300 (padding edges 55/56/63/64 and 111/112/127/128) equals node:crypto`, () => {
    const wasm = loadWasmSync(flavor);
    for (let length = 0; length <= 300; length++) {
      const data = randomBytes(length);
      assert.is(bytesToHex(wasm.sha512(data)), nodeHash('sha512', data), `sha512, ${length} bytes`);
      assert.is(bytesToHex(wasm.sha256(data)), nodeHash('sha256', data), `sha256, ${length} bytes`);
    }
  });

  test(`${flavor}: inputs larger than the input buffer are streamed`, () => {
    const wasm = loadWasmSync(flavor);
    for (const length of [wasm.inputCapacity - 1, wasm.inputCapacity, wasm.inputCapacity + 1, 3 * wasm.inputCapacity + 77]) {
      const data = randomBytes(length);
      assert.is(bytesToHex(wasm.sha512(data)), nodeHash('sha512', data), `sha512, ${length} bytes`);
      assert.is(bytesToHex(wasm.sha256(data)), nodeHash('sha256', data), `sha256, ${length} bytes`);
    }
  });

  test(`${flavor}: the async loader gives an equivalent instance`, async () => {
    const wasm = await loadWasm(flavor);
    const data = randomBytes(200);
    assert.is(bytesToHex(wasm.sha512(data)), nodeHash('sha512', data));
  });
}

test.run();
