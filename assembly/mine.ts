// Register-body mining (R2): SHA-512 over the body, with the body's last eight bytes a
// big-endian nonce patched in place. The host stores the body once (mineInit) and then
// asks for ranges of nonces (mineSearch); everything per nonce happens in a kernel.
//
// Only the nonce bytes that share the body's last message word vary inside a kernel
// call (up to 4 bytes: a "segment" of 2^8..2^32 nonces). Per segment the higher nonce
// bytes are fixed, so the state after the rounds that precede that word (MID), the
// other fifteen words and the chaining value are computed once here.

import { INPUT, INPUT_CAPACITY, OUTPUT, K512, IV512 } from './layout';
import { compress512, schedule512, rounds512, load64be, store64be } from './sha512';
import {
  BODY, WBUF, KW, MID, CV, KW2, WBUFV, KWV, MIDV, CVV, KW2V, KV,
  setWord, setZeroMask, setTwoBlocks, twoBlocks, searchLanes, setSearchLanes, searchMem, setSearchMem,
} from './mine-state';
import { searchScalar1, searchScalar2 } from './kernel-scalar.generated';
import { searchSimd1, searchSimd2 } from './kernel-simd.generated';
import { searchHybrid1, searchHybrid2 } from './kernel-hybrid.generated';
import { searchMem1, searchMem2 } from './kernel-memsched.generated';

const SCRATCH_W: usize = memory.data(80 * 8);
/** Chaining value after the blocks that hold no nonce byte: constant for a body. */
const PREFIX_CV: usize = memory.data(64);
const HASH_STATE: usize = memory.data(64);

let bodyLength: i32 = 0;
let blockCount: i32 = 0;
/** First block holding a nonce byte, and the block holding the body's last word. */
let firstNonceBlock: i32 = 0;
let varyingBlock: i32 = 0;
let segmentBits: u64 = 0;
let segmentReady: bool = false;
let segmentHigh: u64 = 0;

/**
 * Takes INPUT[0 .. length) as the body to mine (its last 8 bytes are the nonce).
 * Returns 0, or -1 when the length is outside 8 .. INPUT_CAPACITY.
 */
export function mineInit(length: i32): i32 {
  if (length < 8 || length > INPUT_CAPACITY) return -1;
  bodyLength = length;
  blockCount = (length + 17 + 127) >> 7;
  const padded = blockCount << 7;
  memory.copy(BODY, INPUT, length);
  store<u8>(BODY + length, 0x80);
  memory.fill(BODY + length + 1, 0, padded - length - 1);
  store64be(BODY + padded - 8, <u64>length << 3);

  const lastByte = length - 1;
  const wordInBody = lastByte >> 3;
  const bytesInWord = (lastByte & 7) + 1;
  const varyingBytes = min(bytesInWord, 4);
  segmentBits = <u64>(varyingBytes << 3);
  varyingBlock = wordInBody >> 4;
  firstNonceBlock = (length - 8) >> 7;
  const index = wordInBody & 15;
  setWord(index, 0, <u64>(56 - ((lastByte & 7) << 3)));

  memory.copy(PREFIX_CV, IV512, 64);
  for (let i = 0; i < firstNonceBlock; i++) compress512(PREFIX_CV, BODY + (<usize>i << 7));

  const two = varyingBlock + 1 < blockCount;
  setTwoBlocks(two);
  if (two) {
    // The trailing block is padding only: its whole schedule is constant.
    schedule512(BODY + (<usize>(varyingBlock + 1) << 7), SCRATCH_W);
    for (let t = 0; t < 80; t++) {
      const kw = load<u64>(K512 + (<usize>t << 3)) + load<u64>(SCRATCH_W + (<usize>t << 3));
      store<u64>(KW2 + (<usize>t << 3), kw);
      if (ASC_FEATURE_SIMD) v128.store(KW2V + (<usize>t << 4), i64x2.splat(kw));
    }
  }
  if (ASC_FEATURE_SIMD) {
    for (let t = 0; t < 80; t++) v128.store(KV + (<usize>t << 4), i64x2.splat(load<u64>(K512 + (<usize>t << 3))));
  }
  segmentReady = false;
  return 0;
}

/** Fixes the nonce bytes above the segment and precomputes what no nonce in it changes. */
function prepareSegment(high: u64): void {
  store64be(BODY + bodyLength - 8, high);
  memory.copy(CV, PREFIX_CV, 64);
  for (let i = firstNonceBlock; i < varyingBlock; i++) compress512(CV, BODY + (<usize>i << 7));
  const block = BODY + (<usize>varyingBlock << 7);
  for (let t = 0; t < 16; t++) {
    const w = load64be(block + (<usize>t << 3));
    const kw = w + load<u64>(K512 + (<usize>t << 3));
    store<u64>(WBUF + (<usize>t << 3), w);
    store<u64>(KW + (<usize>t << 3), kw);
  }
  const index = (((bodyLength - 1) >> 3) & 15);
  // The varying bytes of `high` are zero, so this word is the base the kernel ORs into.
  setWord(index, load<u64>(WBUF + (<usize>index << 3)), <u64>(56 - (((bodyLength - 1) & 7) << 3)));
  memory.copy(MID, CV, 64);
  rounds512(MID, WBUF, 0, index);
  if (ASC_FEATURE_SIMD) {
    for (let t = 0; t < 16; t++) {
      const w = i64x2.splat(load<u64>(WBUF + (<usize>t << 3)));
      const kw = i64x2.splat(load<u64>(KW + (<usize>t << 3)));
      v128.store(WBUFV + (<usize>t << 4), w);
      v128.store(KWV + (<usize>t << 4), kw);
    }
    for (let i = 0; i < 8; i++) {
      v128.store(MIDV + (<usize>i << 4), i64x2.splat(load<u64>(MID + (<usize>i << 3))));
      v128.store(CVV + (<usize>i << 4), i64x2.splat(load<u64>(CV + (<usize>i << 3))));
    }
  }
  segmentHigh = high;
  segmentReady = true;
}

/** Full SHA-512 of the body with `nonce` patched in, to OUTPUT; returns its leading zero bits. */
function hashNonce(nonce: u64): i32 {
  store64be(BODY + bodyLength - 8, nonce);
  memory.copy(HASH_STATE, IV512, 64);
  for (let i = 0; i < blockCount; i++) compress512(HASH_STATE, BODY + (<usize>i << 7));
  let bits = 0;
  for (let i = 0; i < 8; i++) {
    const word = load<u64>(HASH_STATE + (<usize>i << 3));
    store64be(OUTPUT + (<usize>i << 3), word);
    if (bits == i << 6) bits += <i32>clz<u64>(word);
  }
  store64be(BODY + bodyLength - 8, segmentHigh);
  return bits;
}

/**
 * Searches nonces start .. start + count - 1 in order, start = high·2^32 + low, for the
 * first whose hash has at least `difficulty` leading zero bits. Returns its offset from
 * start (its hash is then at OUTPUT) or -1. count must be below 2^31.
 */
export function mineSearch(high: u32, low: u32, count: i32, difficulty: i32): i32 {
  if (count <= 0) return -1;
  const start = (<u64>high << 32) | <u64>low;
  const end = start + <u64>count;
  if (end < start) return -2;
  // Difficulty above 64 passes the kernel's first-word test only when H0 == 0 and is
  // then settled by hashNonce.
  setZeroMask(difficulty >= 64 ? ~(<u64>0) : ~(~(<u64>0) >> <u64>difficulty));
  const segmentSize = <u64>1 << segmentBits;
  let cursor = start;
  while (cursor < end) {
    const high = cursor & ~(segmentSize - 1);
    const last = min(end, high + segmentSize);
    if (!segmentReady || high != segmentHigh) prepareSegment(high);
    let from = cursor - high;
    const to = last - high;
    while (from < to) {
      let found: i64;
      if (ASC_FEATURE_SIMD && searchLanes == 2) {
        found = twoBlocks ? searchSimd2(from, to) : searchSimd1(from, to);
      } else if (ASC_FEATURE_SIMD) {
        found = twoBlocks ? searchHybrid2(from, to) : searchHybrid1(from, to);
      } else if (searchMem) {
        found = twoBlocks ? searchMem2(from, to) : searchMem1(from, to);
      } else {
        found = twoBlocks ? searchScalar2(from, to) : searchScalar1(from, to);
      }
      if (found < 0) break;
      const nonce = high + <u64>found;
      if (hashNonce(nonce) >= difficulty) return <i32>(nonce - start);
      from = <u64>found + 1;
    }
    cursor = last;
  }
  return -1;
}

/**
 * Chooses the kernel mineSearch runs: 2 nonces per compression (the i64x2 kernel, SIMD
 * binary only) or 1 (the scalar kernel, or the hybrid one in the SIMD binary). Returns
 * the lanes now in use.
 */
export function mineLanes(lanes: i32): i32 {
  setSearchLanes(ASC_FEATURE_SIMD && lanes == 2 ? 2 : 1);
  return searchLanes;
}

/**
 * Chooses, in the scalar binary, the memsched kernel (on = 1: the message schedule in memory,
 * what JavaScriptCore runs fastest) or the scalar one (on = 0). Returns 1 when the memsched
 * kernel is now in use; the SIMD binary has none and returns 0.
 */
export function mineMemSchedule(on: i32): i32 {
  setSearchMem(!ASC_FEATURE_SIMD && on == 1);
  return searchMem ? 1 : 0;
}

/** SHA-512 of the body with this nonce, to OUTPUT; returns its leading zero bits. */
export function mineHash(high: u32, low: u32): i32 {
  if (!segmentReady) prepareSegment(0);
  return hashNonce((<u64>high << 32) | <u64>low);
}
