// The node clock's txids: the time part is the acceptance time while the clock moves on, and
// strictly increasing by the least step when it stands still or is moved back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeTxid } from '../../src/codec/txid.js';
import { NodeClock } from '../../src/node/ledger/clock.js';

test('txids carry the acceptance time, and one more nanosecond when the clock stands still or goes back', () => {
  let now = 1_700_000_000_000;
  const clock = new NodeClock(() => now, 7, 'tpkit');
  const first = clock.issueTxid(3);
  assert.is(first.timeNs, 1_700_000_000_000_000_000n);
  const parts = decodeTxid(first.txid);
  assert.equal([parts.chain, parts.height, parts.timeNs, parts.node], [7, 3, first.timeNs, 'tpkit']);
  assert.is(clock.issueTxid(3).timeNs, first.timeNs + 1n, 'the same millisecond');
  now += 5;
  assert.is(clock.issueTxid(4).timeNs, 1_700_000_000_005_000_000n, 'the clock moved on: its time again');
  now -= 60_000;
  assert.is(clock.issueTxid(4).timeNs, 1_700_000_000_005_000_001n, 'moved back: still after the last');
  clock.offsetMs = 120_000;
  assert.is(clock.issueTxid(5).timeNs, 1_700_000_060_005_000_000n, 'the dev offset counts');
  assert.is(clock.now(), now + 120_000);
});

test.run();
