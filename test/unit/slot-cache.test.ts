// The cache of contract storage slots over many random reads, fills and writes, against a model:
// never more than its limit, the least recently used dropped first, a written value always the
// one read next, and a value read before a write never kept over it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SlotCache, type CachedSlot } from '../../src/node/evm/slot-cache.js';
import { mulberry32 } from '../helpers/helpers.js';

const value = (n: number): CachedSlot => (n === 0 ? null : new Uint8Array([n]));

test('random reads, fills and writes: within the limit, least recently used out first, never a stale value', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const random = mulberry32(seed);
    const limit = seed % 5 === 0 ? 0 : 1 + Math.floor(random() * 8);
    const cache = new SlotCache(limit);
    const committed = new Map<string, CachedSlot>();
    const order: string[] = []; // the model's recency, oldest first
    const touch = (key: string) => {
      const at = order.indexOf(key);
      if (at >= 0) order.splice(at, 1);
      order.push(key);
      while (order.length > limit) order.shift();
    };
    for (let step = 0; step < 300; step++) {
      const key = `k${Math.floor(random() * 12)}`;
      const pick = random();
      if (pick < 0.4) {
        const got = cache.get(key);
        const want = order.includes(key) ? (committed.get(key) ?? null) : undefined;
        assert.equal(got, want, `seed ${seed} step ${step}: get ${key}`);
        if (got !== undefined) touch(key);
      } else if (pick < 0.7) {
        // A store read: it began before or after the last write.
        const stale = random() < 0.3;
        const readAt = stale ? cache.version - 1 : cache.version;
        cache.fill(key, committed.get(key) ?? null, readAt);
        if (!stale) touch(key);
      } else {
        const n = Math.floor(random() * 3);
        committed.set(key, value(n));
        cache.write([[key, value(n)]]);
        if (limit > 0) touch(key);
      }
      assert.ok(cache.size <= limit, `seed ${seed}: ${cache.size} slots held over the limit ${limit}`);
      assert.is(cache.size, order.length, `seed ${seed} step ${step}: the entries held`);
    }
  }
});

test('a read that began before a write is not kept: the next reader goes to the store', () => {
  const cache = new SlotCache(10);
  const readAt = cache.version;
  cache.write([['a', value(2)]]);
  cache.fill('b', value(1), readAt);
  assert.is(cache.get('b'), undefined, 'b was read while a block was applied: not kept');
  assert.equal(cache.get('a'), value(2));
  cache.fill('a', value(1), readAt);
  assert.equal(cache.get('a'), value(2), 'an old read never overwrites a written value');
});

test('a slot written back to zero is cached as empty, not as missing', () => {
  const cache = new SlotCache(4);
  cache.write([['a', value(5)]]);
  cache.write([['a', null]]);
  assert.is(cache.get('a'), null);
});

test.run();
