// The JS kernel's SHA-512 (src/pow/sha512-nonce.ts), which keeps a body's padded blocks and
// precomputed rounds between nonces: the same digests as node:crypto for bodies of every
// length around the block edges (the nonce inside one block, across two, padding spilling
// into a block of its own), for random nonces, for the high half going back and forth, and
// for the published proof-of-work vectors; the JS kernel built on it finds the same nonces
// as the scalar WASM kernel.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../src/bytes.js';
import { ArgumentError } from '../../src/errors.js';
import { leadingZeroBits } from '../../src/pow/bits.js';
import { createKernel } from '../../src/pow/kernel.js';
import { createJsKernel } from '../../src/pow/kernel-js.js';
import { NonceHasher } from '../../src/pow/sha512-nonce.js';
import { vectors } from '../helpers/vectors.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** node:crypto's SHA-512 of `body` with nonce high:low in its last 8 bytes. */
function expected(body: Uint8Array, high: number, low: number): string {
  const copy = Buffer.from(body);
  copy.writeUInt32BE(high, copy.length - 8);
  copy.writeUInt32BE(low, copy.length - 4);
  return createHash('sha512').update(copy).digest('hex');
}

test("every body length from 8 to 400 bytes, random nonces: node:crypto's digest", () => {
  for (let length = 8; length <= 400; length++) {
    const body = new Uint8Array(randomBytes(length));
    const hasher = new NonceHasher(body);
    for (let k = 0; k < 4; k++) {
      const high = k === 0 ? 0 : randomInt(0, 2 ** 32);
      const low = k === 1 ? 0xffffffff : randomInt(0, 2 ** 32);
      assert.is(hex(hasher.digest(high, low)), expected(body, high, low), `length ${length}, nonce ${high}:${low}`);
    }
  }
});

test('the high half going back and forth redoes the precomputed part each time', () => {
  // 230 bytes: the nonce in the second block; 124: the nonce across the first block's edge.
  for (const length of [66, 124, 230]) {
    const body = new Uint8Array(randomBytes(length));
    const hasher = new NonceHasher(body);
    for (const [high, low] of [
      [1, 5],
      [2, 5],
      [1, 5],
      [1, 6],
      [0xffffffff, 0],
      [1, 5],
    ]) {
      assert.is(hex(hasher.digest(high, low)), expected(body, high, low), `length ${length}, nonce ${high}:${low}`);
    }
  }
});

test('zeroBits counts as far as asked, and exactly', () => {
  const body = new Uint8Array(randomBytes(90));
  const hasher = new NonceHasher(body);
  for (let low = 0; low < 3000; low++) {
    const bits = leadingZeroBits(hexToBytes(expected(body, 7, low)));
    assert.is(hasher.zeroBits(7, low, 512), bits);
    assert.is(hasher.zeroBits(7, low, 1) >= 1, bits >= 1);
  }
});

test('the published proof-of-work vectors', () => {
  const cases = [...vectors.pow, { body_hex: vectors.register_tx.body_hex, sha512_prefix: '', bits: vectors.register_tx.pow_bits }];
  for (const { body_hex, sha512_prefix, bits } of cases) {
    const body = hexToBytes(body_hex);
    const view = new DataView(body.buffer, body.byteOffset);
    const digest = new NonceHasher(body).digest(view.getUint32(body.length - 8), view.getUint32(body.length - 4));
    assert.ok(hex(digest).startsWith(sha512_prefix.toLowerCase()), body_hex);
    assert.is(leadingZeroBits(digest), bits);
  }
});

test('the JS kernel finds the nonces the scalar WASM kernel finds, across a high-half step', () => {
  const js = createJsKernel((b) => new NonceHasher(b), ArgumentError);
  const wasm = createKernel('scalar');
  for (const length of [66, 127, 200]) {
    const body = new Uint8Array(randomBytes(length));
    js.init(body);
    wasm.init(body);
    for (const start of [0n, 123_456n, (1n << 32n) - 1500n]) {
      assert.is(js.search(start, 3000, 8), wasm.search(start, 3000, 8), `length ${length} from ${start}`);
    }
  }
});

test.run();
