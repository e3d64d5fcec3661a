// The event filter of eth_getLogs (logs.ts): an address or a list of them, topics by position
// (null for any, one topic, or alternatives), at most four positions; each refusal names its
// field. And an event as a block stores it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../src/errors.js';
import { matchesLog, parseLogFilter, storedLog, type StoredLog } from '../../src/node/evm/logs.js';

const A = 'aa'.repeat(20);
const B = 'bb'.repeat(20);
const t = (b: number) => b.toString(16).padStart(2, '0').repeat(32);
const event: StoredLog = storedLog(
  { txid: 'T1', txIndex: 2, logIndex: 5, caller: B },
  { address: A, topics: [new Uint8Array(32).fill(0xab), new Uint8Array(32).fill(2)], data: new Uint8Array([0, 0xff]) },
);

function refusal(input: { address?: unknown; topics?: unknown }): string {
  try {
    parseLogFilter(input);
    return 'accepted';
  } catch (err) {
    assert.instance(err, ValidationError);
    const e = err as ValidationError;
    return `${e.code} ${e.field}: ${e.details}`;
  }
}

test('an event as stored: where it came from, its address, topics and data in lowercase hex', () => {
  assert.equal(event, { txid: 'T1', txIndex: 2, logIndex: 5, caller: B, address: A, topics: [t(0xab), t(2)], data: '00ff' });
});

test('addresses: none or null is any; one, or a list in any of the three forms', () => {
  assert.ok(matchesLog(parseLogFilter({ address: null }), event));
  assert.ok(matchesLog(parseLogFilter({ address: undefined, topics: null }), event));
  assert.ok(matchesLog(parseLogFilter({ address: '0x' + A.toUpperCase() }), event));
  assert.ok(matchesLog(parseLogFilter({ address: ['0x' + B, '0x' + A] }), event));
  assert.not.ok(matchesLog(parseLogFilter({ address: ['0x' + B] }), event));
  assert.not.ok(matchesLog(parseLogFilter({ address: [] }), event), 'an empty list matches nothing');
  assert.is(refusal({ address: ['0x' + A, 'x'] }).split(':')[0], 'BAD_REQUEST_PARAM address[1]');
  assert.is(refusal({ address: 5 }), 'BAD_REQUEST_PARAM address[0]: expected 0x and 40 hex digits, 0x and 16 hex digits, or a ThePower address, got 5');
});

test("topics by position: null is any, a topic in any case, alternatives; a position past the event's topics never matches", () => {
  const match = (topics: unknown[]) => matchesLog(parseLogFilter({ topics }), event);
  assert.ok(match([]));
  assert.ok(match([null, null]));
  assert.ok(match(['0x' + t(0xab).toUpperCase()]));
  assert.ok(match([null, ['0x' + t(9), '0x' + t(2)]]));
  assert.not.ok(match([null, ['0x' + t(9)]]));
  assert.not.ok(match(['0x' + t(2)]), 'the right topic at the wrong position');
  assert.ok(match([null, null, null]), 'null positions past the end still match');
  assert.not.ok(match([null, null, '0x' + t(2)]));
  assert.not.ok(match([null, null, ['0x' + t(2), '0x' + t(0xab)]]));
});

test('topics: at most four positions, each 0x and 64 hex digits', () => {
  assert.is(refusal({ topics: [null, null, null, null] }), 'accepted');
  assert.is(refusal({ topics: [null, null, null, null, null] }), 'BAD_REQUEST_PARAM topics: expected an array of at most 4 entries');
  assert.is(refusal({ topics: '0x' + t(1) }), 'BAD_REQUEST_PARAM topics: expected an array of at most 4 entries');
  assert.is(refusal({ topics: [null, '0x' + t(1).slice(2)] }), `BAD_REQUEST_PARAM topics[1]: expected 0x and 64 hex digits, got "0x${t(1).slice(2)}"`);
  assert.is(refusal({ topics: [['0x' + t(1), 7]] }), 'BAD_REQUEST_PARAM topics[0]: expected 0x and 64 hex digits, got 7');
  assert.is(refusal({ topics: [t(1)] }), `BAD_REQUEST_PARAM topics[0]: expected 0x and 64 hex digits, got "${t(1)}"`);
});

test.run();
