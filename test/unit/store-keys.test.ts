// The store's key schema is an on-disk format: a ledger directory written by one version is
// read by the next. Heights are 12 lowercase hex digits (so block, log and undo keys sort by
// height), hashes uppercase, wallet addresses lowercase.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  bodyKey,
  CLOCK_KEY,
  codeKey,
  evmAccountKey,
  evmUndoKey,
  hashKey,
  heightKey,
  logsKey,
  META_KEY,
  pendingKey,
  receiptKey,
  statusKey,
  storageKey,
  txKey,
  walletKey,
} from '../../src/node/store/keys.js';

test('each key as the schema spells it', () => {
  assert.is(META_KEY, 'meta');
  assert.is(CLOCK_KEY, 'dev:clock');
  assert.is(heightKey(0), 'b:000000000000');
  assert.is(heightKey(0xabc123), 'b:000000abc123');
  assert.is(heightKey(2 ** 40 + 17), 'b:010000000011');
  assert.is(logsKey(26), 'l:00000000001a');
  assert.is(evmUndoKey(2 ** 32), 'ev:000100000000');
  assert.is(hashKey('00ff0a'), 'h:00FF0A');
  assert.is(walletKey('8000AB'), 'w:8000ab');
  assert.is(txKey('AbC-n'), 'x:AbC-n');
  assert.is(statusKey('AbC-n'), 's:AbC-n');
  assert.is(pendingKey('AbC-n'), 'p:AbC-n');
  assert.is(bodyKey('beef'), 'd:beef');
  assert.is(codeKey('11'.repeat(20)), 'c:' + '11'.repeat(20));
  assert.is(storageKey('22'.repeat(20), '0'.repeat(64)), `k:${'22'.repeat(20)}:${'0'.repeat(64)}`);
  assert.is(evmAccountKey('33'.repeat(20)), 'e:' + '33'.repeat(20));
  assert.is(receiptKey('0xab'), 'r:0xab');
});

test('height keys sort as their heights do', () => {
  const heights = [0, 9, 10, 15, 16, 255, 256, 4095, 4096, 65_535, 1_000_000, 2 ** 47];
  for (const key of [heightKey, logsKey, evmUndoKey]) {
    const keys = heights.map(key);
    assert.equal([...keys].sort(), keys);
    assert.equal(
      keys.map((k) => parseInt(k.slice(k.indexOf(':') + 1), 16)),
      heights,
      'and read back as hex',
    );
  }
});

test.run();
