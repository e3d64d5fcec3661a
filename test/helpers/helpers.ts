// Small helpers the test files share.
import * as assert from 'uvu/assert';
import { TpkitError } from '../../src/errors.js';

/** A seeded PRNG in [0, 1), so a failing random case can be replayed from its seed. */
export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The TpkitError fn throws; fails the test when it throws nothing or something else. */
export function thrownError(fn: () => unknown): TpkitError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, TpkitError, `expected a TpkitError, got ${String(err)}`);
    return err as TpkitError;
  }
  assert.unreachable('expected an error');
  throw new Error('unreachable');
}

/** The code of the TpkitError fn throws, or 'accepted' when it throws nothing. */
export function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.instance(err, TpkitError, `expected a TpkitError, got ${String(err)}`);
    return (err as TpkitError).code;
  }
  return 'accepted';
}

/** The TpkitError a promise rejects with; fails the test when it resolves or rejects with something else. */
export async function rejection(promise: Promise<unknown>): Promise<TpkitError> {
  try {
    await promise;
  } catch (err) {
    assert.instance(err, TpkitError, `expected a TpkitError, got ${String(err)}`);
    return err as TpkitError;
  }
  assert.unreachable('expected a rejection');
  throw new Error('unreachable');
}
