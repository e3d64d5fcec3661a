// Property: the dev clock lands exactly where it is told, whatever offset it had, and every move
// is announced to watchers. On a node whose system clock is fixed by the test, random sequences
// of setTime (by offset and to a moment), mining with an interval and the system clock moving on
// keep `now` exact to the millisecond, and each move of the clock sends one reset with that time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChainReset } from '../../src/node/ledger/chain.js';
import { startTestNode } from '../helpers/node-helpers.js';
import { mulberry32 } from '../helpers/helpers.js';

const YEAR = 365 * 86_400_000;

test('setTime by offset or to a moment, mining with an interval, the system clock moving: now is exact and each move announced', async () => {
  let system = 1_800_000_000_000;
  const node = await startTestNode({ blockTime: 0, accounts: 1, difficulty: 0 }, { clock: () => system });
  const resets: ChainReset[] = [];
  node.chain.onReset((r) => resets.push(r));
  const random = mulberry32(0xc10c);
  let offset = 0;
  try {
    for (let step = 0; step < 40; step++) {
      const seen = resets.length;
      const roll = random();
      if (roll < 0.3) {
        offset = Math.floor((random() - 0.5) * 2 * YEAR);
        const r = await node.control.setTime({ offsetMs: offset });
        assert.is(r.now, system + offset, `step ${step}: setTime by offset`);
      } else if (roll < 0.6) {
        const at = system + Math.floor((random() - 0.5) * 2 * YEAR);
        const r = await node.control.setTime({ setMs: at });
        offset = at - system;
        assert.is(node.chain.now(), at, `step ${step}: setTime to a moment with the offset ${r.clockOffsetMs} before`);
        assert.is(r.clockOffsetMs, offset, `step ${step}: the offset after setMs`);
      } else if (roll < 0.85) {
        const blocks = 1 + Math.floor(random() * 3);
        const interval = 1 + Math.floor(random() * 86_400_000);
        const before = node.chain.now();
        await node.control.mine(blocks, interval);
        offset += blocks * interval;
        assert.is(node.chain.now(), before + blocks * interval, `step ${step}: ${blocks} blocks ${interval} ms apart`);
      } else {
        system += Math.floor(random() * 10_000);
        assert.is(node.chain.now(), system + offset, `step ${step}: the system clock moved; the offset stays`);
        assert.is(resets.length, seen, `step ${step}: the system clock's own move is not a reset`);
        continue;
      }
      const told = resets.slice(seen);
      assert.is(told.length, 1, `step ${step}: one announcement for the move, got ${told.map((r) => r.event).join(', ')}`);
      assert.equal([told[0].event, told[0].now, told[0].clockOffsetMs], ['clock', system + offset, offset], `step ${step}: what watchers are told`);
    }
  } finally {
    await node.close();
  }
});

test.run();
