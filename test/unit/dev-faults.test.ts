// Fault rules as docs/guide/dev-controls.md ("Fault rules") gives them: each field's bound at
// both ends, the defaults (status 503, code NODE_INTERNAL, seed 1), at most 100 rules held,
// paths matched by segment with `*`, the first rule that fires deciding, counts and seeded
// probabilities, and the error answer a rule gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { FaultInjector, parseFaultRule } from '../../src/node/dev/faults.js';
import { thrownError } from '../helpers/helpers.js';

const refused = (input: unknown) => {
  const err = thrownError(() => parseFaultRule(input));
  return { code: err.code, field: err.field };
};

test('a rule is an object with a path below /api, never the development endpoints', () => {
  for (const bad of [null, 'tx/new', [], 5]) assert.equal(refused(bad), { code: 'BAD_REQUEST_PARAM', field: 'rule' });
  assert.equal(parseFaultRule({ path: '/api/tx/new/', action: 'drop' }), { path: 'tx/new', action: 'drop' });
  assert.equal(parseFaultRule({ path: 'address/*/seq', action: 'drop', method: 'GET' }), { path: 'address/*/seq', action: 'drop', method: 'GET' });
  for (const path of ['', '/', 'tx//new', 'tx/new?x=1', 5]) assert.equal(refused({ path, action: 'drop' }), { code: 'BAD_REQUEST_PARAM', field: 'path' }, String(path));
  for (const path of ['dev', 'dev/faults', '/api/dev/mine']) assert.equal(refused({ path, action: 'drop' }), { code: 'BAD_REQUEST_PARAM', field: 'path' }, path);
  assert.equal(parseFaultRule({ path: 'devices', action: 'drop' }).path, 'devices');
  assert.equal(refused({ path: 'tx/new', action: 'drop', method: 'PUT' }), { code: 'BAD_REQUEST_PARAM', field: 'method' });
  for (const action of ['explode', undefined, 1]) assert.equal(refused({ path: 'tx/new', action }), { code: 'BAD_REQUEST_PARAM', field: 'action' });
});

test('hold applies to tx/new (also as */new or tx/*) only', () => {
  for (const path of ['tx/new', '*/new', 'tx/*']) assert.is(parseFaultRule({ path, action: 'hold' }).action, 'hold', path);
  for (const path of ['tx/status', 'tx', 'tx/new/x', 'address']) assert.equal(refused({ path, action: 'hold' }), { code: 'BAD_REQUEST_PARAM', field: 'action' }, path);
});

test('error: status 400 to 599 (default 503), a code (default NODE_INTERNAL), a message of up to 200 characters', () => {
  assert.equal(parseFaultRule({ path: 'tx/new', action: 'error' }), { path: 'tx/new', action: 'error', status: 503, code: 'NODE_INTERNAL' });
  for (const status of [400, 599]) assert.is(parseFaultRule({ path: 'a', action: 'error', status }).status, status);
  for (const status of [399, 600, 500.5, '503']) assert.equal(refused({ path: 'a', action: 'error', status }), { code: 'BAD_REQUEST_PARAM', field: 'status' }, String(status));
  assert.is(parseFaultRule({ path: 'a', action: 'error', code: 'A' + 'B'.repeat(63) }).code, 'A' + 'B'.repeat(63));
  assert.is(parseFaultRule({ path: 'a', action: 'error', code: 'E' }).code, 'E', 'one letter is a code');
  for (const code of ['A' + 'B'.repeat(64), 'mempool_full', '1A', '', 7]) assert.equal(refused({ path: 'a', action: 'error', code }), { code: 'BAD_REQUEST_PARAM', field: 'code' }, String(code));
  assert.is(parseFaultRule({ path: 'a', action: 'error', message: 'm'.repeat(200) }).message, 'm'.repeat(200));
  for (const message of ['m'.repeat(201), 5]) assert.equal(refused({ path: 'a', action: 'error', message }), { code: 'BAD_REQUEST_PARAM', field: 'message' });
  // Fields of another action are not taken over.
  assert.equal(parseFaultRule({ path: 'a', action: 'drop', status: 500, code: 'X', delayMs: 5 }), { path: 'a', action: 'drop' });
});

test('delay: delayMs 1 to 600000 and required', () => {
  for (const delayMs of [1, 600_000]) assert.is(parseFaultRule({ path: 'a', action: 'delay', delayMs }).delayMs, delayMs);
  for (const delayMs of [0, 600_001, undefined, 2.5]) assert.equal(refused({ path: 'a', action: 'delay', delayMs }), { code: 'BAD_REQUEST_PARAM', field: 'delayMs' }, String(delayMs));
});

test('count 1 to 10^9, probability 0 to 1, seed 0 to 2^32 - 1', () => {
  const rule = (more: object) => parseFaultRule({ path: 'a', action: 'drop', ...more });
  for (const count of [1, 1_000_000_000]) assert.is(rule({ count }).count, count);
  for (const count of [0, 1_000_000_001]) assert.equal(refused({ path: 'a', action: 'drop', count }), { code: 'BAD_REQUEST_PARAM', field: 'count' });
  for (const probability of [0, 1, 0.25]) assert.is(rule({ probability }).probability, probability);
  for (const probability of [-0.01, 1.01, Number.NaN, '0.5']) assert.equal(refused({ path: 'a', action: 'drop', probability }), { code: 'BAD_REQUEST_PARAM', field: 'probability' });
  for (const seed of [0, 2 ** 32 - 1]) assert.is(rule({ seed }).seed, seed);
  for (const seed of [-1, 2 ** 32]) assert.equal(refused({ path: 'a', action: 'drop', seed }), { code: 'BAD_REQUEST_PARAM', field: 'seed' });
  assert.equal(rule({}), { path: 'a', action: 'drop' }, 'no count, probability or seed unless given');
});

test('a node holds 100 rules: 100 fit, the 101st is refused and a batch that does not fit adds none; ids keep counting after a clear', () => {
  const faults = new FaultInjector();
  const drop = { path: 'a', action: 'drop' as const };
  const first = faults.addAll(Array.from({ length: 99 }, () => drop));
  assert.equal(
    first.map((f) => f.id),
    Array.from({ length: 99 }, (_, i) => i + 1),
  );
  assert.equal(first[0], { path: 'a', action: 'drop', id: 1, fired: 0 });
  assert.is(thrownError(() => faults.addAll([drop, drop])).code, 'BAD_REQUEST_PARAM');
  assert.is(faults.list().length, 99);
  assert.is(faults.add(drop).id, 100);
  assert.is(thrownError(() => faults.add(drop)).code, 'BAD_REQUEST_PARAM');
  assert.is(faults.clear([1, 2, 77, 5000]), 3);
  assert.is(faults.list().length, 97);
  assert.not.ok(faults.list().some((f) => [1, 2, 77].includes(f.id)));
  assert.is(faults.clear(), 97);
  assert.equal(faults.list(), []);
  assert.is(faults.add(drop).id, 101);
  // list() hands out copies: changing one changes nothing held.
  faults.list()[0].fired = 50;
  assert.is(faults.list()[0].fired, 0);
});

interface Answer {
  passed: boolean;
  status?: number;
  body?: Record<string, unknown>;
  dropped: boolean;
}

/** A request of `method url` through the injector: passed on, answered, or its socket destroyed. */
function send(faults: FaultInjector, method: string, url: string): Answer {
  const answer: Answer = { passed: false, dropped: false };
  const socket = Object.assign(new EventEmitter(), { destroy: () => (answer.dropped = true) });
  const req = { method, url, headers: {}, socket } as unknown as http.IncomingMessage;
  faults.intercept(
    req,
    () => (answer.passed = true),
    (status, json) => {
      answer.status = status;
      answer.body = JSON.parse(json);
    },
  );
  return answer;
}

test('paths match by segment, `*` for one, the paths below too; the method when given; .json and .bin suffixes and queries ignored', () => {
  const faults = new FaultInjector();
  faults.add(parseFaultRule({ path: 'address/*/seq', action: 'drop', method: 'GET' }));
  assert.is(send(faults, 'GET', '/api/address/AA1/seq').dropped, true);
  assert.is(send(faults, 'GET', '/api/address/AA1/seq.json?x=1').dropped, true);
  assert.is(send(faults, 'GET', '/api/address/AA1/seq.bin').dropped, true);
  assert.is(send(faults, 'POST', '/api/address/AA1/seq').passed, true);
  assert.is(send(faults, 'GET', '/api/address/AA1').passed, true);
  assert.is(send(faults, 'GET', '/api/address/AA1/code').passed, true);
  faults.clear();
  faults.add(parseFaultRule({ path: 'tx', action: 'error', status: 404, code: 'TX_NOT_FOUND' }));
  assert.is(send(faults, 'GET', '/api/tx/status/X.bin').status, 404);
  assert.is(send(faults, 'GET', '/api/txs').passed, true);
  faults.clear();
  faults.add(parseFaultRule({ path: 'address/*', action: 'drop' }));
  assert.is(send(faults, 'GET', '/api/address').passed, true, 'a * stands for one segment that is there');
  assert.is(send(faults, 'GET', '/api/address/AA1').dropped, true);
  faults.clear();
  faults.add(parseFaultRule({ path: '*', action: 'drop' }));
  assert.is(send(faults, 'GET', '/api/dev/faults').passed, true, 'the development endpoints are never faulted');
  assert.is(send(faults, 'GET', '/api/node/status').dropped, true);
});

test('the first rule that fires decides; a rule with a count stops after it; a seeded probability fires the same requests each time', () => {
  const faults = new FaultInjector();
  faults.addAll([parseFaultRule({ path: 'settings', action: 'error', status: 500, count: 2 }), parseFaultRule({ path: 'settings', action: 'drop' })]);
  const seen = [1, 2, 3].map(() => send(faults, 'GET', '/api/settings'));
  assert.equal(
    seen.map((a) => [a.status, a.dropped]),
    [
      [500, false],
      [500, false],
      [undefined, true],
    ],
  );
  assert.equal(
    faults.list().map((f) => f.fired),
    [2, 1],
  );

  const pattern = (seed?: number) => {
    const f = new FaultInjector();
    f.add(parseFaultRule({ path: 'a', action: 'drop', probability: 0.5, ...(seed === undefined ? {} : { seed }) }));
    return Array.from({ length: 40 }, () => (send(f, 'GET', '/api/a').dropped ? 1 : 0)).join('');
  };
  assert.is(pattern(9), pattern(9));
  assert.is(pattern(), pattern(1), 'the default seed is 1');
  assert.is.not(pattern(1), pattern(2));
  const fired = [...pattern(9)].filter((c) => c === '1').length;
  assert.ok(fired > 5 && fired < 35, `about half of 40 fire: ${fired}`);
  const never = new FaultInjector();
  never.add(parseFaultRule({ path: 'a', action: 'drop', probability: 0 }));
  assert.ok(Array.from({ length: 20 }, () => send(never, 'GET', '/api/a').passed).every(Boolean));
  assert.is(never.list()[0].fired, 0);
  // Seed 2463401483 draws exactly 0 first: probability 0 still never fires on it.
  const zero = new FaultInjector();
  zero.add(parseFaultRule({ path: 'a', action: 'drop', probability: 0, seed: 2463401483 }));
  assert.is(send(zero, 'GET', '/api/a').passed, true);
});

test('an error rule answers the API number of its code (10099 for a code the node does not know), its message, and its id', () => {
  const faults = new FaultInjector();
  faults.addAll([
    parseFaultRule({ path: 'a', action: 'error', code: 'MEMPOOL_FULL', count: 1 }),
    parseFaultRule({ path: 'a', action: 'error', status: 404, code: 'MY_OWN', message: 'gone', count: 1 }),
    parseFaultRule({ path: 'a', action: 'error', count: 1 }),
  ]);
  const full = send(faults, 'POST', '/api/a');
  assert.is(full.status, 503);
  assert.equal(full.body, { ok: false, result: 'error', code: 10040, msg: full.body!.msg, error: 'MEMPOOL_FULL', details: 'injected by fault rule 1' });
  assert.type(full.body!.msg, 'string');
  const own = send(faults, 'POST', '/api/a');
  assert.is(own.status, 404);
  assert.equal(own.body, { ok: false, result: 'not_found', code: 10099, msg: 'gone', error: 'MY_OWN', details: 'injected by fault rule 2' });
  const internal = send(faults, 'POST', '/api/a');
  assert.is(internal.status, 503);
  assert.is(internal.body!.code, 10099);
  assert.is(internal.body!.error, 'NODE_INTERNAL');
});

test('a delayed request goes on after its delay; one whose client left, or a closing node, never runs it', async () => {
  const faults = new FaultInjector();
  faults.add(parseFaultRule({ path: 'a', action: 'delay', delayMs: 20 }));
  const request = () => {
    const socket = Object.assign(new EventEmitter(), { destroyed: 0, destroy: () => (socket.destroyed += 1) });
    const state = { ran: false };
    faults.intercept(
      { method: 'GET', url: '/api/a', headers: {}, socket } as unknown as http.IncomingMessage,
      () => (state.ran = true),
      () => {},
    );
    return { socket, state };
  };
  const waits = request();
  assert.is(waits.state.ran, false);
  await new Promise((r) => setTimeout(r, 200));
  assert.is(waits.state.ran, true);
  const left = request();
  left.socket.emit('close');
  const closing = request();
  faults.close();
  assert.is(closing.socket.destroyed, 1, 'the node closing ends the held request');
  faults.close();
  assert.is(closing.socket.destroyed, 1, 'a second close finds nothing held');
  assert.is(left.socket.destroyed, 0);
  await new Promise((r) => setTimeout(r, 200));
  assert.is(left.state.ran, false);
  assert.is(closing.state.ran, false);
});

test.run();
