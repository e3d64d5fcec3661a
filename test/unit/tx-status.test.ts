// The status JSON GET /api/tx/status serves as stored: ok with the block (and a register's
// address), a contract call's return data, a created contract; failed with the reason, the fee
// it would have cost when that is the reason, a revert's reason; refused at a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createdStatus, failedStatus, okStatus, refusedStatus, retvalStatus } from '../../src/node/ledger/tx-status.js';

const BLOCK = 'AB'.repeat(32);

test('included and successful: the block; a register also its address, as res and as address', () => {
  assert.equal(JSON.parse(okStatus(BLOCK)), { ok: true, res: 'ok', block: BLOCK });
  assert.equal(JSON.parse(okStatus(BLOCK, 'AA100000005033074989')), { ok: true, res: 'AA100000005033074989', address: 'AA100000005033074989', block: BLOCK });
  assert.equal(JSON.parse(retvalStatus(BLOCK, new Uint8Array([0, 1, 0xff]))), { ok: true, res: 'ok', retval: '0x0001ff', block: BLOCK });
  assert.equal(JSON.parse(createdStatus(BLOCK, '12'.repeat(20))), { ok: true, res: '0x' + '12'.repeat(20), address: '0x' + '12'.repeat(20), block: BLOCK });
});

test('included and failed: the reason; the cost only when given; the revert reason only when given', () => {
  assert.equal(JSON.parse(failedStatus(BLOCK, 'bad_seq')), { error: true, res: 'bad_seq', block: BLOCK });
  assert.equal(JSON.parse(failedStatus(BLOCK, 'insufficient_fee', 123n)), { error: true, res: 'insufficient_fee', cost: 123, block: BLOCK });
  assert.equal(JSON.parse(failedStatus(BLOCK, 'insufficient_fee', 0n)), { error: true, res: 'insufficient_fee', cost: 0, block: BLOCK });
  assert.equal(JSON.parse(failedStatus(BLOCK, 'revert', undefined, 'Token: "low"')), { error: true, res: 'revert', revert: 'Token: "low"', block: BLOCK });
  assert.equal(JSON.parse(failedStatus(BLOCK, 'revert', undefined, '')), { error: true, res: 'revert', revert: '', block: BLOCK });
  assert.equal(JSON.parse(refusedStatus('tx_too_large')), { error: true, res: 'tx_too_large' });
});

test.run();
