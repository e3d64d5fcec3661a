// Small helpers the test files share.
import type { Callback, Test } from 'uvu';
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

/**
 * Settles as `promise` does, or rejects naming `what` after `ms`. A test that would wait for
 * ever fails in seconds and by name: without a pending timer the event loop empties and uvu
 * only says "Exiting early", and with one a hang lasts until the file's time limit.
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** A uvu suite whose every test and hook fails by name after `ms` (see `within`). */
export function withDeadlines<C>(inner: Test<C>, ms: number): Test<C> {
  const bound =
    (what: string, handler: Callback<C>): Callback<C> =>
    (context) =>
      within(
        Promise.resolve().then(() => handler(context)),
        ms,
        what,
      );
  const hook = (register: (h: Callback<C>) => void, what: string) => (handler: Callback<C>) => register(bound(what, handler));
  const wrapped = ((name: string, handler: Callback<C>) => inner(name, bound(`test "${name}"`, handler))) as Test<C>;
  wrapped.only = (name, handler) => inner.only(name, bound(`test "${name}"`, handler));
  wrapped.skip = inner.skip;
  wrapped.before = Object.assign(hook(inner.before, 'before'), { each: hook(inner.before.each, 'before.each') });
  wrapped.after = Object.assign(hook(inner.after, 'after'), { each: hook(inner.after.each, 'after.each') });
  wrapped.run = () => inner.run();
  return wrapped;
}
