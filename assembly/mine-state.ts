// State shared by the mining set-up (mine.ts) and the unrolled kernels: everything a
// kernel needs per nonce is precomputed here once per nonce segment.

import { INPUT_CAPACITY } from './layout';

/** The body followed by its SHA-512 padding (at most one extra block). */
export const BODY: usize = memory.data(INPUT_CAPACITY + 256);
/** Message words W[0..16) of the block that holds the varying nonce word. */
export const WBUF: usize = memory.data(16 * 8);
/** K[t] + W[t] for t < 16 of that block (entry `wordIndex` is rewritten per nonce). */
export const KW: usize = memory.data(16 * 8);
/** Working words a..h after the rounds that precede the varying word. */
export const MID: usize = memory.data(8 * 8);
/** Chaining value entering the varying block. */
export const CV: usize = memory.data(8 * 8);
/** K[t] + W[t] for t >= 16 of the varying block, written per nonce by the hybrid kernel. */
export const KWS: usize = memory.data(80 * 8, 16);
/** W[0..80) of the varying block, written per nonce by the memsched kernel. */
export const WS: usize = memory.data(80 * 8);
/** K[t] + W[t] of the trailing padding-only block, when the body's last word is not in the last block. */
export const KW2: usize = memory.data(80 * 8);

// The same data splatted to both i64x2 lanes, for the SIMD kernel.
export const WBUFV: usize = memory.data(16 * 16);
export const KWV: usize = memory.data(16 * 16);
export const MIDV: usize = memory.data(8 * 16);
export const CVV: usize = memory.data(8 * 16);
export const KW2V: usize = memory.data(80 * 16);
export const KV: usize = memory.data(80 * 16);

/** Index (0..15) of the varying message word inside its block. */
export let wordIndex: i32 = 0;
/** The varying word with the varying nonce bytes zeroed. */
export let wordBase: u64 = 0;
/** Left shift that moves the varying nonce bytes to their place in the word. */
export let wordShift: u64 = 0;
/** The hash's first word must satisfy (H0 & mask) == 0. */
export let zeroMask: u64 = 0;
/** A padding-only block follows the varying block. */
export let twoBlocks: bool = false;
/** Nonces per compression in mineSearch: 2 runs the i64x2 kernel, 1 the scalar or hybrid one. */
export let searchLanes: i32 = 1;
/** The scalar binary's mineSearch runs the memsched kernel instead of the scalar one. */
export let searchMem: bool = false;

export function setWord(index: i32, base: u64, shift: u64): void {
  wordIndex = index;
  wordBase = base;
  wordShift = shift;
}

export function setZeroMask(mask: u64): void {
  zeroMask = mask;
}

export function setSearchLanes(lanes: i32): void {
  searchLanes = lanes;
}

export function setSearchMem(value: bool): void {
  searchMem = value;
}

export function setTwoBlocks(value: bool): void {
  twoBlocks = value;
}
