// SHA-512 (FIPS 180-4): a compact rolled compression for streaming hashing and for the
// mining set-up work that runs once per nonce segment. The per-nonce hot loops are the
// unrolled kernels in kernel-*.generated.ts.

import { INPUT, OUTPUT, K512, IV512 } from './layout';

/** Message schedule scratch of the rolled compression: 80 words. */
const W: usize = memory.data(80 * 8);
/** Streaming state: chaining value, partial block, byte counts. */
const STATE: usize = memory.data(64);
const BLOCK: usize = memory.data(128);
let blockLength: i32 = 0;
let totalLength: u64 = 0;

// @ts-ignore: decorator
@inline export function load64be(ptr: usize): u64 {
  return bswap<u64>(load<u64>(ptr));
}

// @ts-ignore: decorator
@inline export function store64be(ptr: usize, value: u64): void {
  store<u64>(ptr, bswap<u64>(value));
}

/** Expands one 128-byte block into the 80-word message schedule at `w`. */
export function schedule512(block: usize, w: usize): void {
  for (let t = 0; t < 16; t++) store<u64>(w + (<usize>t << 3), load64be(block + (<usize>t << 3)));
  for (let t = 16; t < 80; t++) {
    const p = w + (<usize>t << 3);
    const w2 = load<u64>(p - 16);
    const w15 = load<u64>(p - 120);
    const s1 = rotr<u64>(w2, 19) ^ rotr<u64>(w2, 61) ^ (w2 >> 6);
    const s0 = rotr<u64>(w15, 1) ^ rotr<u64>(w15, 8) ^ (w15 >> 7);
    store<u64>(p, s1 + load<u64>(p - 56) + s0 + load<u64>(p - 128));
  }
}

/** Runs rounds [from, to) on the eight working words at `state` with schedule `w`. */
export function rounds512(state: usize, w: usize, from: i32, to: i32): void {
  let a = load<u64>(state, 0), b = load<u64>(state, 8), c = load<u64>(state, 16), d = load<u64>(state, 24);
  let e = load<u64>(state, 32), f = load<u64>(state, 40), g = load<u64>(state, 48), h = load<u64>(state, 56);
  for (let t = from; t < to; t++) {
    const t1 = h + (rotr<u64>(e, 14) ^ rotr<u64>(e, 18) ^ rotr<u64>(e, 41)) + (g ^ (e & (f ^ g)))
      + load<u64>(K512 + (<usize>t << 3)) + load<u64>(w + (<usize>t << 3));
    const t2 = (rotr<u64>(a, 28) ^ rotr<u64>(a, 34) ^ rotr<u64>(a, 39)) + ((a & b) | (c & (a | b)));
    h = g; g = f; f = e; e = d + t1;
    d = c; c = b; b = a; a = t1 + t2;
  }
  store<u64>(state, a, 0); store<u64>(state, b, 8); store<u64>(state, c, 16); store<u64>(state, d, 24);
  store<u64>(state, e, 32); store<u64>(state, f, 40); store<u64>(state, g, 48); store<u64>(state, h, 56);
}

const WORK: usize = memory.data(64);

/** One compression: the chaining value at `state` absorbs the 128-byte block at `block`. */
export function compress512(state: usize, block: usize): void {
  schedule512(block, W);
  memory.copy(WORK, state, 64);
  rounds512(WORK, W, 0, 80);
  for (let i: usize = 0; i < 64; i += 8) store<u64>(state + i, load<u64>(state + i) + load<u64>(WORK + i));
}

export function sha512Init(): void {
  memory.copy(STATE, IV512, 64);
  blockLength = 0;
  totalLength = 0;
}

/** Absorbs INPUT[0 .. length). */
export function sha512Update(length: i32): void {
  let src = INPUT;
  let left = length;
  totalLength += <u64>length;
  if (blockLength > 0) {
    const take = min(128 - blockLength, left);
    memory.copy(BLOCK + blockLength, src, take);
    blockLength += take;
    src += take;
    left -= take;
    if (blockLength < 128) return;
    compress512(STATE, BLOCK);
    blockLength = 0;
  }
  while (left >= 128) {
    compress512(STATE, src);
    src += 128;
    left -= 128;
  }
  if (left > 0) {
    memory.copy(BLOCK, src, left);
    blockLength = left;
  }
}

/** Pads, and writes the 64-byte digest to OUTPUT. */
export function sha512Final(): void {
  store<u8>(BLOCK + blockLength, 0x80);
  memory.fill(BLOCK + blockLength + 1, 0, 127 - blockLength);
  if (blockLength >= 112) {
    compress512(STATE, BLOCK);
    memory.fill(BLOCK, 0, 128);
  }
  store64be(BLOCK + 112, totalLength >> 61);
  store64be(BLOCK + 120, totalLength << 3);
  compress512(STATE, BLOCK);
  for (let i: usize = 0; i < 64; i += 8) store64be(OUTPUT + i, load<u64>(STATE + i));
  blockLength = 0;
  totalLength = 0;
}
