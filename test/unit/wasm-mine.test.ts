// The mining kernels: WASM scalar, two-lane SIMD, hybrid and the JS fallback give the same first
// qualifying nonce for the same range, and every answer holds under node:crypto.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { hexToBytes } from '../../src/bytes.js';
import { TpkitError } from '../../src/errors.js';
import { leadingZeroBits } from '../../src/pow/bits.js';
import { createKernel, type KernelName, type MiningKernel } from '../../src/pow/kernel.js';
import { loadWasmSync } from '../../src/wasm/kernel.js';
import { vectors } from '../helpers/vectors.js';

const NAMES: KernelName[] = ['scalar', 'simd', 'hybrid', 'js'];
/** The answer every kernel must give. */
const all = (answer: number) => NAMES.map(() => answer);

function nodeBits(body: Uint8Array, nonce: bigint): number {
  const copy = Buffer.from(body);
  copy.writeBigUInt64BE(nonce, copy.length - 8);
  return leadingZeroBits(createHash('sha512').update(copy).digest());
}

function searchAll(kernels: MiningKernel[], start: bigint, count: number, difficulty: number): number[] {
  return kernels.map((k) => k.search(start, count, difficulty));
}

function kernelsFor(body: Uint8Array): MiningKernel[] {
  return NAMES.map((name) => {
    const kernel = createKernel(name);
    kernel.init(body);
    return kernel;
  });
}

// Lengths 9..140 put the nonce at every offset mod 8 and cover the one-block limit
// (111/112) and the block edge (127/128/129); the longer ones add a precomputed prefix
// and, at 240..255 mod 128, a padding-only last block.
const LENGTHS = [...Array.from({ length: 132 }, (_, i) => i + 9), 200, 239, 240, 247, 255, 256, 257, 300, 1000, 2000];

test('same first nonce from scalar, SIMD, hybrid and JS for every nonce offset and block layout', () => {
  let found = 0;
  for (const length of LENGTHS) {
    const body = randomBytes(length);
    const kernels = kernelsFor(body);
    // Starts just before 2^8, 2^16, 2^32 and 2^40 boundaries: the search crosses the
    // segment edge of every varying-byte width (1, 2 and 4 bytes).
    const boundary = [1n << 8n, 1n << 16n, 1n << 32n, 0x1234n << 40n][length % 4];
    const start = boundary - BigInt(1 + (length % 37));
    const difficulty = 4 + (length % 3);
    const answers = searchAll(kernels, start, 160, difficulty);
    assert.equal(answers, all(answers[NAMES.indexOf('js')]), `length ${length}`);
    const offset = answers[0];
    if (offset >= 0) {
      found++;
      assert.ok(nodeBits(body, start + BigInt(offset)) >= difficulty, `length ${length}`);
      for (let i = 0; i < offset; i++) assert.ok(nodeBits(body, start + BigInt(i)) < difficulty);
    }
  }
  assert.ok(found > LENGTHS.length * 0.8, `found ${found} of ${LENGTHS.length}`);
});

test('range ends are exact for both SIMD lanes: count = offset + 1 finds it, count = offset does not', () => {
  for (const length of [66, 67, 111, 120, 250]) {
    const body = randomBytes(length);
    const kernels = kernelsFor(body);
    for (let trial = 0; trial < 6; trial++) {
      const start = BigInt(trial * 1000 + length);
      const [offset] = searchAll(kernels, start, 2000, 7);
      assert.ok(offset >= 0);
      assert.equal(searchAll(kernels, start, offset + 1, 7), all(offset));
      const before = offset === 0 ? all(-1) : searchAll(kernels, start, offset, 7);
      assert.equal(before, all(-1), `length ${length} offset ${offset}`);
      // Starting at the answer itself (odd or even) finds it at offset 0.
      assert.equal(searchAll(kernels, start + BigInt(offset), 1, 7), all(0));
    }
  }
});

test('the difficulty is a bit-exact bound, including above one byte boundary', () => {
  const body = randomBytes(70);
  const kernels = kernelsFor(body);
  const [offset] = searchAll(kernels, 0n, 5000, 9);
  assert.ok(offset >= 0);
  const bits = nodeBits(body, BigInt(offset));
  assert.equal(searchAll(kernels, BigInt(offset), 1, bits), all(0));
  assert.equal(searchAll(kernels, BigInt(offset), 1, bits + 1), all(-1));
  assert.equal(searchAll(kernels, 0n, 50, 0), all(0));
  // Above 64 bits the first hash word alone cannot decide; nothing qualifies here.
  assert.equal(searchAll(kernels, 0n, 300, 65), all(-1));
  assert.equal(searchAll(kernels, 0n, 300, 512), all(-1));
});

test('published register body: its own nonce bytes give exactly its 17 bits', () => {
  const body = hexToBytes(vectors.register_tx.body_hex);
  const nonce = Buffer.from(body).readBigUInt64BE(body.length - 8);
  for (const kernel of kernelsFor(body)) {
    assert.is(kernel.search(nonce, 1, vectors.register_tx.pow_bits), 0, kernel.name);
    assert.is(kernel.search(nonce, 1, vectors.register_tx.pow_bits + 1), -1, kernel.name);
  }
  for (const flavor of ['scalar', 'simd'] as const) {
    const wasm = loadWasmSync(flavor);
    wasm.mineInit(body);
    assert.is(leadingZeroBits(wasm.mineHash(nonce)), vectors.register_tx.pow_bits);
    assert.is(Buffer.from(wasm.mineHash(nonce)).toString('hex'), createHash('sha512').update(body).digest('hex'));
  }
});

test('the last nonce below 2^64 is searchable; bad arguments throw typed errors', () => {
  const body = randomBytes(66);
  for (const kernel of kernelsFor(body)) {
    assert.ok(kernel.search((1n << 64n) - 1001n, 1000, 0) === 0, kernel.name);
    const bad: [bigint, number, number][] = [
      [-1n, 10, 1],
      [(1n << 64n) - 5n, 10, 1],
      [0n, -1, 1],
      [0n, 2 ** 31, 1],
      [0n, 1.5, 1],
      [0n, 10, -1],
      [0n, 10, 513],
      [0n, 10, 2.5],
    ];
    for (const [start, count, difficulty] of bad) {
      assert.throws(
        () => kernel.search(start, count, difficulty),
        (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
      );
    }
    assert.is(kernel.search(0n, 0, 1), -1);
    assert.throws(
      () => kernel.init(new Uint8Array(7)),
      (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
    );
  }
  const fresh = createKernel('scalar');
  assert.throws(
    () => fresh.search(0n, 1, 1),
    (e: unknown) => e instanceof TpkitError && e.code === 'INVALID_ARGUMENT',
  );
  const wasm = loadWasmSync('scalar');
  assert.throws(() => wasm.mineInit(new Uint8Array(wasm.inputCapacity + 1)), /expected 8 to/);
});

test.run();
