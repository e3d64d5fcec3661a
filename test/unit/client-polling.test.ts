// The client's waits on a virtual clock: waitForTx's growing pauses, its timeout, abort during
// a pause or a poll, the documented defaults, and no listener left on the caller's signal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getEventListeners } from 'node:events';
import { rejection } from '../helpers/helpers.js';
import { ADDR, TXID, json, never, scripted } from '../helpers/scripted-client.js';

/**
 * Runs `fn` on a virtual clock: Date.now() moves only when a timer fires, by that timer's delay,
 * and timers fire at once. The waits a function asks for are then exact, whatever the load.
 * Timers of `realFrom` ms or more (each request's own time limit, cleared when it answers) stay real.
 */
async function onVirtualClock<T>(fn: (now: () => number) => Promise<T>, realFrom = 10_000): Promise<T> {
  const realNow = Date.now;
  const realSetTimeout = globalThis.setTimeout;
  let now = realNow();
  Date.now = () => now;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) =>
    ms >= realFrom
      ? realSetTimeout(callback, ms, ...args)
      : realSetTimeout(() => {
          now += ms;
          callback(...args);
        }, 0)) as typeof setTimeout;
  try {
    return await fn(() => now);
  } finally {
    Date.now = realNow;
    globalThis.setTimeout = realSetTimeout;
  }
}

test('waitForTx polls with growing intervals until included', async () => {
  await onVirtualClock(async (now) => {
    let n = 0;
    const times: number[] = [];
    const { client } = scripted(() => {
      times.push(now());
      return json(++n < 4 ? '{"res":null,"ok":true}' : '{"res":{"ok":true,"res":"ok","block":"AA"},"ok":true}');
    });
    const polls: number[] = [];
    const status = await client.waitForTx(TXID, { onPoll: (a) => polls.push(a) });
    assert.ok(status.ok);
    assert.equal(polls, [1, 2, 3, 4]);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.equal(gaps, [150, 225, 337.5], 'each wait 1.5 times the one before');
  });
});

test('waitForTx gives up at its timeout, not later: the last poll is at the limit', async () => {
  // 151: the first pause (150 ms) leaves 1 ms, still waited for and looked at once more.
  for (const timeoutMs of [151, 300, 1000, 5000]) {
    await onVirtualClock(async (now) => {
      const times: number[] = [];
      const { client } = scripted(() => (times.push(now()), json('{"res":null,"ok":true}')));
      const started = now();
      const timeout = await rejection(client.waitForTx(TXID, { timeoutMs }));
      assert.is(timeout.code, 'TIMEOUT');
      assert.match(timeout.message, new RegExp(TXID));
      assert.is(now() - started, timeoutMs, `gave up ${now() - started} ms after the start, limit ${timeoutMs}`);
      assert.is(times[times.length - 1] - started, timeoutMs, 'one last look at the limit');
    });
  }
});

test('waitForTx: abort ends the wait during a pause, without another poll', async () => {
  const controller = new AbortController();
  let polls = 0;
  const pending = scripted(() => {
    // Abort once the first answer is in, so the wait is in its first pause.
    if (++polls === 1) setTimeout(() => controller.abort(), 0);
    return json('{"res":null,"ok":true}');
  }).client;
  const seen: number[] = [];
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  const aborted = await rejection(pending.waitForTx(TXID, { signal: controller.signal, timeoutMs: 3_600_000, onPoll: (a) => seen.push(a) }));
  assert.is(aborted.code, 'ABORTED');
  assert.is(timers(), before, 'the aborted pause leaves no timer behind');
  assert.equal(seen, [1], 'no poll after the abort');
  assert.is(polls, 1);
});

test('the documented defaults: a request gives up after 15 s, waitForTx after 60 s', async () => {
  await onVirtualClock(async (now) => {
    const { client } = scripted(never);
    const started = now();
    const silent = await rejection(client.getSeq(ADDR));
    assert.is(silent.code, 'TIMEOUT');
    assert.match(silent.message, /within 15000 ms$/);
    assert.is(now() - started, 15_000);
  }, Infinity);
  await onVirtualClock(async (now) => {
    const { client } = scripted(() => json('{"res":null,"ok":true}'));
    const started = now();
    const late = await rejection(client.waitForTx(TXID));
    assert.is(late.code, 'TIMEOUT');
    assert.match(late.message, /not included within 60000 ms$/);
    assert.is(now() - started, 60_000);
  });
});

test('waitForTx: the pauses grow 1.5 times from 150 ms and stay at 2 s (docs/guide/client.md)', async () => {
  await onVirtualClock(async (now) => {
    let n = 0;
    const times: number[] = [];
    const { client } = scripted(() => (times.push(now()), json(++n < 11 ? '{"res":null,"ok":true}' : '{"res":{"ok":true,"res":"ok","block":"AA"},"ok":true}')));
    assert.ok((await client.waitForTx(TXID)).ok);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.equal(gaps, [150, 225, 337.5, 506.25, 759.375, 1139.0625, 1708.59375, 2000, 2000, 2000]);
  });
});

test('waitForTx: a signal aborted while a poll is answered ends the wait at once, with no pause and no other poll', async () => {
  await onVirtualClock(async (now) => {
    const controller = new AbortController();
    const { client } = scripted(() => {
      controller.abort();
      return json('{"res":null,"ok":true}');
    });
    const seen: number[] = [];
    const started = now();
    const aborted = await rejection(client.waitForTx(TXID, { signal: controller.signal, onPoll: (a) => seen.push(a) }));
    assert.is(aborted.code, 'ABORTED');
    assert.equal(seen, [1]);
    assert.is(now() - started, 0, 'no pause waited');
  });
});

test("waitForTx leaves no listener on the caller's signal once it returns, however many pauses it took", async () => {
  const controller = new AbortController();
  await onVirtualClock(async () => {
    let n = 0;
    const { client } = scripted(() => json(++n < 5 ? '{"res":null,"ok":true}' : '{"res":{"ok":true,"res":"ok","block":"AA"},"ok":true}'));
    assert.ok((await client.waitForTx(TXID, { signal: controller.signal })).ok);
    assert.is(n, 5);
  });
  assert.is(getEventListeners(controller.signal, 'abort').length, 0);
});

test.run();
