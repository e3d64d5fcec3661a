// Hash rates and counts print with one unit style in every command: a space before the unit,
// the SI prefix joined to it ("585 H/s", "731.77 kH/s"), never "585H/s".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRate, formatUnit } from '../../src/cli/progress.js';

test('rates below a thousand and above keep the same space before the unit', () => {
  assert.is(formatRate(585), '585 H/s');
  assert.is(formatRate(731_770), '731.77 kH/s');
  assert.is(formatRate(8_800_000, 1), '8.8 MH/s');
  assert.is(formatRate(0), '0 H/s');
});

test('counts with another unit follow the same rule', () => {
  assert.is(formatUnit(24_680, 'H', 1), '24.7 kH');
  assert.is(formatUnit(999, 'H', 1), '999 H');
});

test.run();
