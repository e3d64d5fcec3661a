// The advice line under a CLI error names what to do for that very error: a timeout names
// the transaction to look up only when there is one, a node refusal gives no empty
// "the node refused" line, and a server that is not a node is called so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, NetworkError, NotANodeError, TimeoutError } from '../../src/client/index.js';
import { adviceFor } from '../../src/cli/wallet-common.js';

test('a timeout waiting for a transaction names its txid; a request that timed out names none', () => {
  const waiting = adviceFor(new TimeoutError('FSM3T3336HfXWf-tpkit not included within 60000 ms', { txid: 'FSM3T3336HfXWf-tpkit' }));
  assert.match(waiting ?? '', /`tpkit status FSM3T3336HfXWf-tpkit`/);
  const request = adviceFor(new TimeoutError('GET /api/address/AA100000001677721780 got no answer from http://127.0.0.1:43280 within 15000 ms'));
  assert.ok(request);
  assert.not.match(request, /TXID|tpkit status/);
});

test('a refusal the advice cannot add to has no advice line; known reasons get theirs', () => {
  const refused = (nodeError: string, request = 'POST /api/dev/revert') => adviceFor(new ApiError({ status: 400, apiMessage: 'x', nodeError, request }));
  assert.is(refused('SOMETHING_ELSE'), undefined);
  assert.match(refused('SNAPSHOT_NOT_FOUND') ?? '', /tpkit dev snapshot --list/);
  assert.match(refused('BAD_REQUEST_PARAM') ?? '', /tpkit dev --help/);
  assert.is(refused('BAD_REQUEST_PARAM', 'GET /api/blockn/x'), undefined);
  assert.match(refused('DEV_API_DISABLED') ?? '', /--no-dev-api[^]*--dev-api/);
});

test('an untrusted certificate is told how to trust the development one, not asked whether the node runs', () => {
  // as fetch fails on such a node: a TypeError whose cause is the TLS error with its code
  const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  const advice = adviceFor(new NetworkError('GET /api/node/status to https://127.0.0.1:43380: self-signed certificate', { cause: new TypeError('fetch failed', { cause: tls }) }));
  assert.match(advice ?? '', /NODE_EXTRA_CA_CERTS=DATA_DIR\/tls\/dev-cert\.pem/);
  assert.not.match(advice ?? '', /running\?/);
});

test('a server that is not a node is told to check --node', () => {
  assert.match(adviceFor(new NotANodeError('http://127.0.0.1:8080', 'GET /api/settings: HTTP 404, an HTML page instead of JSON')) ?? '', /check --node/);
});

test.run();
