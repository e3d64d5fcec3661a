// The advice line under a CLI error names what to do for that very error: a timeout names
// the transaction to look up only when there is one, a node refusal gives no empty
// "the node refused" line, and a server that is not a node is called so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, NetworkError, NotANodeError, TimeoutError } from '../../src/client/index.js';
import { adviceFor, exitCodeFor } from '../../src/cli/wallet-common.js';
import { TpkitError } from '../../src/errors.js';

test('a timeout waiting for a transaction names its txid; a request that timed out names none', () => {
  const waiting = adviceFor(new TimeoutError('FSM3T3336HfXWf-tpkit not included within 60000 ms', { txid: 'FSM3T3336HfXWf-tpkit' }));
  assert.match(waiting ?? '', /`tpkit status FSM3T3336HfXWf-tpkit`/);
  const request = adviceFor(new TimeoutError('GET /api/address/AA100000001677721780 got no answer from http://127.0.0.1:43280 within 15000 ms'));
  assert.ok(request);
  assert.not.match(request, /TXID|tpkit status/);
});

test('exit codes as the CLI guide documents them: 3 for a node not reached or not answering in time, 2 for usage, 130 for Ctrl-C', () => {
  const exit = (code: string) => exitCodeFor(new TpkitError(code as never, 'x'));
  assert.is(exitCodeFor(new TimeoutError('GET /api/node/status got no answer within 15000 ms')), 3, 'a request that timed out');
  assert.is(exitCodeFor(new TimeoutError('not included within 60000 ms', { txid: 'FSM3T3336HfXWf-tpkit' })), 3, 'a wait that timed out');
  assert.is(exitCodeFor(new NetworkError('connect ECONNREFUSED')), 3);
  for (const code of ['INVALID_ARGUMENT', 'CONFIG_INVALID', 'ADDRESS_INVALID', 'ADDRESS_CHECKSUM', 'TXID_INVALID']) assert.is(exit(code), 2, code);
  assert.is(exit('ABORTED'), 130);
  for (const code of ['TX_FAILED', 'API_ERROR', 'PRECHECK_FAILED', 'KEYFILE_PASSPHRASE', 'BAD_RESPONSE']) assert.is(exit(code), 1, code);
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
