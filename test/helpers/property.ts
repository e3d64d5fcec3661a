// Checks over many inputs: a seeded generator, so a failing case names its seed and index and
// runs again the same; and the one check that every failure is a TpkitError with a known code.
import * as assert from 'uvu/assert';
import { ERROR_CODES, TpkitError } from '../../src/errors.js';
import { generator } from '../../src/node/dev/faults.js';

export type Random = () => number;

/** mulberry32 (the node's fault draw uses the same): the same seed gives the same cases. */
export const seeded = (seed: number): Random => generator(seed);

/** A whole number in [low, high]. */
export const int = (next: Random, low: number, high: number): number => low + Math.floor(next() * (high - low + 1));

/** One of the items. */
export const pick = <T>(next: Random, items: readonly T[]): T => items[Math.floor(next() * items.length)];

/** `count` random bytes. */
export function bytes(next: Random, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.floor(next() * 256);
  return out;
}

/** Runs `check` on `count` generated cases; a failure is reported with the seed and case index. */
export async function forAll<T>(
  label: string,
  { count, seed }: { count: number; seed: number },
  make: (next: Random, i: number) => T,
  check: (value: T, i: number) => void | Promise<void>,
): Promise<void> {
  const next = seeded(seed);
  for (let i = 0; i < count; i++) {
    const value = make(next, i);
    try {
      await check(value, i);
    } catch (err) {
      if (err instanceof Error) err.message = `${label} (seed ${seed}, case ${i}): ${err.message}`;
      throw err;
    }
  }
}

/** What `run` threw: a TpkitError with a code from the one table, or the check fails. */
export async function typedFailure(label: string, run: () => unknown): Promise<TpkitError | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    assert.instance(err, TpkitError, `${label}: ${String(err)}`);
    const code = (err as TpkitError).code;
    assert.ok(Object.hasOwn(ERROR_CODES, code), `${label}: code ${String(code)} is not in src/errors.ts`);
    return err as TpkitError;
  }
}
