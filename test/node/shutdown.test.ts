// A node that is shutting down refuses new work with its own code, NODE_SHUTTING_DOWN (503),
// not as if its mempool were full: a client can tell "try another node" from "try later".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ERROR_CODES, ValidationError } from '../../src/errors.js';
import { defaultConfig } from '../../src/node/config/config.js';
import { API_ERRORS, errorResponse } from '../../src/node/http/api-errors.js';
import { Chain } from '../../src/node/ledger/chain.js';
import { MemoryStore } from '../../src/node/store/store.js';

async function codeOf(work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

test('after close(), a submission, a mined block and a dev operation answer NODE_SHUTTING_DOWN', async () => {
  const chain = await Chain.open({ ...defaultConfig(), memory: true, verifyThreads: 0, difficulty: 0, mineOnDemand: true }, new MemoryStore());
  assert.is(await codeOf(() => chain.mineBlock()), undefined, 'a live chain mines');
  await chain.close();
  assert.is(await codeOf(() => chain.submit(new Uint8Array([0x80]))), 'NODE_SHUTTING_DOWN');
  assert.is(await codeOf(() => chain.mineBlock()), 'NODE_SHUTTING_DOWN');
  assert.is(await codeOf(() => chain.exclusive(async () => undefined)), 'NODE_SHUTTING_DOWN');
});

test('NODE_SHUTTING_DOWN is in the error table: 503 with its own API number', () => {
  assert.ok(ERROR_CODES.NODE_SHUTTING_DOWN);
  const spec = API_ERRORS.NODE_SHUTTING_DOWN!;
  assert.is(spec.status, 503);
  const numbers = Object.entries(API_ERRORS)
    .filter(([code]) => code !== 'NODE_SHUTTING_DOWN')
    .map(([, s]) => s!.code);
  assert.not.ok(numbers.includes(spec.code), 'no other code shares its number');
  assert.is(errorResponse(new ValidationError('NODE_SHUTTING_DOWN', 'The node is shutting down')).status, 503);
});

test.run();
