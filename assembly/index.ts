// The module's numbers-only ABI, identical in the scalar and the SIMD binary (the SIMD
// binary is this file compiled with `--enable simd`). The host writes bytes at
// inputPointer(), calls an entry with lengths and numbers, and reads outputPointer().

import { INPUT, INPUT_CAPACITY, OUTPUT } from './layout';

export { sha256Init, sha256Update, sha256Final } from './sha256';
export { sha512Init, sha512Update, sha512Final } from './sha512';
export { mineInit, mineSearch, mineHash, mineLanes, mineMemSchedule } from './mine';

export function inputPointer(): usize {
  return INPUT;
}

export function inputCapacity(): i32 {
  return INPUT_CAPACITY;
}

export function outputPointer(): usize {
  return OUTPUT;
}

/** Most nonces per compression this binary's kernels take: 2 in the SIMD binary. */
export function simdLanes(): i32 {
  return ASC_FEATURE_SIMD ? 2 : 1;
}
