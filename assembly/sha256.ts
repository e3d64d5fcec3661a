// SHA-256 (FIPS 180-4) for the BSig digest and general hashing: streaming over INPUT.

import { INPUT, OUTPUT, K256, IV256 } from './layout';

const W: usize = memory.data(64 * 4);
const STATE: usize = memory.data(32);
const BLOCK: usize = memory.data(64);
let blockLength: i32 = 0;
let totalLength: u64 = 0;

function compress256(block: usize): void {
  for (let t = 0; t < 16; t++) store<u32>(W + (<usize>t << 2), bswap<u32>(load<u32>(block + (<usize>t << 2))));
  for (let t = 16; t < 64; t++) {
    const p = W + (<usize>t << 2);
    const w2 = load<u32>(p - 8);
    const w15 = load<u32>(p - 60);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >> 10);
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >> 3);
    store<u32>(p, s1 + load<u32>(p - 28) + s0 + load<u32>(p - 64));
  }
  let a = load<u32>(STATE, 0), b = load<u32>(STATE, 4), c = load<u32>(STATE, 8), d = load<u32>(STATE, 12);
  let e = load<u32>(STATE, 16), f = load<u32>(STATE, 20), g = load<u32>(STATE, 24), h = load<u32>(STATE, 28);
  for (let t = 0; t < 64; t++) {
    const i = <usize>t << 2;
    const t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g)))
      + load<u32>(K256 + i) + load<u32>(W + i);
    const t2 = (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + ((a & b) | (c & (a | b)));
    h = g; g = f; f = e; e = d + t1;
    d = c; c = b; b = a; a = t1 + t2;
  }
  store<u32>(STATE, load<u32>(STATE, 0) + a, 0); store<u32>(STATE, load<u32>(STATE, 4) + b, 4);
  store<u32>(STATE, load<u32>(STATE, 8) + c, 8); store<u32>(STATE, load<u32>(STATE, 12) + d, 12);
  store<u32>(STATE, load<u32>(STATE, 16) + e, 16); store<u32>(STATE, load<u32>(STATE, 20) + f, 20);
  store<u32>(STATE, load<u32>(STATE, 24) + g, 24); store<u32>(STATE, load<u32>(STATE, 28) + h, 28);
}

export function sha256Init(): void {
  memory.copy(STATE, IV256, 32);
  blockLength = 0;
  totalLength = 0;
}

/** Absorbs INPUT[0 .. length). */
export function sha256Update(length: i32): void {
  let src = INPUT;
  let left = length;
  totalLength += <u64>length;
  if (blockLength > 0) {
    const take = min(64 - blockLength, left);
    memory.copy(BLOCK + blockLength, src, take);
    blockLength += take;
    src += take;
    left -= take;
    if (blockLength < 64) return;
    compress256(BLOCK);
    blockLength = 0;
  }
  while (left >= 64) {
    compress256(src);
    src += 64;
    left -= 64;
  }
  if (left > 0) {
    memory.copy(BLOCK, src, left);
    blockLength = left;
  }
}

/** Pads, and writes the 32-byte digest to OUTPUT. */
export function sha256Final(): void {
  store<u8>(BLOCK + blockLength, 0x80);
  memory.fill(BLOCK + blockLength + 1, 0, 63 - blockLength);
  if (blockLength >= 56) {
    compress256(BLOCK);
    memory.fill(BLOCK, 0, 64);
  }
  store<u64>(BLOCK + 56, bswap<u64>(totalLength << 3));
  compress256(BLOCK);
  for (let i: usize = 0; i < 32; i += 4) store<u32>(OUTPUT + i, bswap<u32>(load<u32>(STATE + i)));
  blockLength = 0;
  totalLength = 0;
}
