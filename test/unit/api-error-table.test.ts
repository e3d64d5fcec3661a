// The node's error answers are public contract: a client switches on the API number and the
// HTTP status. Every row of the documented table (docs/reference/errors.md, committed) is
// pinned against the code, name by name, so a number or a status moved by one fails here; the
// specification's own rows (10003 and 10004 with their messages) are pinned from its text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TpkitError, ValidationError, ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import { API_ERRORS, apiErrorSpec, errorResponse } from '../../src/node/http/api-errors.js';
import { rawErrorResponse } from '../../src/node/http/guards.js';
import { ROOT } from '../helpers/doc-pages.js';

interface DocRow {
  code: string;
  status?: number;
  api?: number;
}

/** The rows of the documented table: `| \`CODE\` | meaning | HTTP | API code |`. */
function documentedRows(): DocRow[] {
  const page = readFileSync(join(ROOT, 'docs/reference/errors.md'), 'utf8');
  const rows: DocRow[] = [];
  for (const line of page.split('\n')) {
    const m = /^\| `([A-Z0-9_]+)` \|.*\| (\d*) \| (\d*) \|$/.exec(line);
    if (!m) continue;
    rows.push({ code: m[1], status: m[2] ? Number(m[2]) : undefined, api: m[3] ? Number(m[3]) : undefined });
  }
  return rows;
}

const rows = documentedRows();

test('the documented table lists every error code once, and the code lists every documented one', () => {
  assert.ok(rows.length >= 70, `only ${rows.length} rows parsed from docs/reference/errors.md`);
  const names = rows.map((r) => r.code);
  assert.equal(new Set(names).size, names.length, 'a code is listed twice');
  assert.equal([...names].sort(), Object.keys(ERROR_CODES).sort());
});

test('every answered code has the documented HTTP status and API number', () => {
  const answered = rows.filter((r) => r.status !== undefined);
  assert.ok(answered.length >= 60, `only ${answered.length} answered rows`);
  for (const row of answered) {
    const spec = API_ERRORS[row.code as ErrorCode];
    assert.ok(spec, `${row.code} is documented as answered ${row.status}/${row.api} but has no entry`);
    assert.is(spec!.status, row.status, `${row.code}: HTTP status`);
    assert.is(spec!.code, row.api, `${row.code}: API number`);
    const answer = errorResponse(new ValidationError(row.code as ErrorCode, 'm'));
    assert.is(answer.status, row.status, `${row.code}: answered status`);
    assert.is(answer.body.code, row.api, `${row.code}: answered number`);
    assert.is(answer.body.error, row.code);
  }
  // Nothing answered that the page leaves unanswered.
  const documented = new Set(answered.map((r) => r.code));
  for (const code of Object.keys(API_ERRORS)) assert.ok(documented.has(code), `${code} has an API entry the page does not document`);
});

test('a few rows written out, so the pin does not rest on the page alone', () => {
  const pinned: [ErrorCode, number, number][] = [
    ['WALLET_NOT_FOUND', 404, 10003],
    ['ADDRESS_INVALID', 400, 10004],
    ['ADDRESS_CHECKSUM', 400, 10004],
    ['BLOCK_NOT_FOUND', 404, 10006],
    ['TX_NOT_FOUND', 404, 10007],
    ['MSGPACK_TRUNCATED', 400, 10008],
    ['ROUTE_NOT_FOUND', 404, 10010],
    ['METHOD_NOT_ALLOWED', 405, 10011],
    ['HTTP_MALFORMED', 400, 10012],
    ['REQUEST_ABORTED', 400, 10013],
    ['REQUEST_TIMEOUT', 408, 10014],
    ['STORE_UNAVAILABLE', 503, 10015],
    ['NODE_SHUTTING_DOWN', 503, 10016],
    ['REQUEST_TOO_LARGE', 413, 10037],
    ['TX_TOO_LARGE', 413, 10036],
    ['MEMPOOL_FULL', 503, 10040],
    ['NOT_IMPLEMENTED', 501, 10041],
    ['SUBSCRIPTION_LIMIT', 429, 10051],
    ['HOST_NOT_ALLOWED', 403, 10060],
    ['ORIGIN_NOT_ALLOWED', 403, 10061],
    ['CONTENT_TYPE_UNSUPPORTED', 415, 10062],
    ['WS_CONNECTION_LIMIT', 429, 10063],
    ['NODE_INTERNAL', 500, 10099],
  ];
  for (const [code, status, api] of pinned) assert.equal(apiErrorSpec(code), { status, code: api }, code);
});

test('the API numbers of distinct kinds of failure stay distinct', () => {
  // Codes that share a number are one kind (the address and its checksum, the MessagePack
  // family...); the numbers of these kinds must not collide.
  const kinds: ErrorCode[] = [
    'WALLET_NOT_FOUND',
    'ADDRESS_INVALID',
    'BLOCK_NOT_FOUND',
    'TX_NOT_FOUND',
    'MSGPACK_INVALID',
    'ROUTE_NOT_FOUND',
    'METHOD_NOT_ALLOWED',
    'HTTP_MALFORMED',
    'REQUEST_ABORTED',
    'REQUEST_TIMEOUT',
    'STORE_UNAVAILABLE',
    'NODE_SHUTTING_DOWN',
    'NOT_JSON',
    'MISSING_TX',
    'BAD_HEX',
    'TX_NOT_MAP',
    'TX_BAD_VERSION',
    'BODY_NOT_MAP',
    'BODY_UNKNOWN_KIND',
    'SIG_MISSING',
    'SIG_INVALID',
    'TOO_MANY_SIGNATURES',
    'REGISTER_KEYS_MISMATCH',
    'POW_TOO_LOW',
    'SENDER_UNKNOWN',
    'SENDER_KEY_MISMATCH',
    'TIMESTAMP_OUT_OF_WINDOW',
    'WRONG_CHAIN',
    'TX_TOO_LARGE',
    'REQUEST_TOO_LARGE',
    'TXID_INVALID',
    'BAD_REQUEST_PARAM',
    'MEMPOOL_FULL',
    'NOT_IMPLEMENTED',
    'DEPENDENCY_MISSING',
    'SUBSCRIPTION_INVALID',
    'SUBSCRIPTION_LIMIT',
    'DEV_API_DISABLED',
    'SNAPSHOT_NOT_FOUND',
    'HOST_NOT_ALLOWED',
    'ORIGIN_NOT_ALLOWED',
    'CONTENT_TYPE_UNSUPPORTED',
    'WS_CONNECTION_LIMIT',
    'NODE_INTERNAL',
  ];
  const numbers = kinds.map((k) => apiErrorSpec(k).code);
  assert.equal(new Set(numbers).size, numbers.length);
  assert.not.ok(numbers.includes(10009), 'the number of other bad input is taken by a named kind');
});

test('the specification part 7 answers: result, code and message verbatim', () => {
  const invalid = errorResponse(new ValidationError('ADDRESS_INVALID', 'whatever the codec said', { details: 'd' }));
  assert.equal(invalid, { status: 400, body: { ok: false, result: 'error', code: 10004, msg: 'Invalid address', error: 'ADDRESS_INVALID', details: 'd' } });
  const checksum = errorResponse(new ValidationError('ADDRESS_CHECKSUM', 'checksum'));
  assert.is(checksum.body.msg, 'Invalid address');
  assert.is(checksum.body.result, 'error');
  const missing = errorResponse(new ValidationError('WALLET_NOT_FOUND', 'no wallet AA…'));
  assert.equal(missing, { status: 404, body: { ok: false, result: 'not_found', code: 10003, msg: 'Not found', error: 'WALLET_NOT_FOUND' } });
});

test('result is "not_found" for every 404 and "error" for every other status; msg and field carried', () => {
  for (const [code, spec] of Object.entries(API_ERRORS)) {
    const { body } = errorResponse(new TpkitError(code as ErrorCode, 'the message', { field: 'f' }));
    assert.is(body.result, spec!.status === 404 ? 'not_found' : 'error', code);
    assert.is(body.ok, false);
    assert.is(body.field, 'f');
    assert.not.ok('details' in body, `${code}: no details were given`);
  }
  const plain = errorResponse(new ValidationError('TX_NOT_FOUND', 'No such transaction', { details: 'never accepted' }));
  assert.equal(plain.body, { ok: false, result: 'not_found', code: 10007, msg: 'No such transaction: never accepted', error: 'TX_NOT_FOUND', details: 'never accepted' });
});

test("a library error the table leaves out is the client's input: 400 with 10009; anything else is 500 / 10099", () => {
  const other = errorResponse(new ValidationError('PEM_INVALID', 'not a key'));
  assert.equal(other, { status: 400, body: { ok: false, result: 'error', code: 10009, msg: 'not a key', error: 'PEM_INVALID' } });
  assert.equal(apiErrorSpec('MNEMONIC_WORD'), { status: 400, code: 10009 });
  const crash = errorResponse(new TypeError('x is undefined'));
  assert.equal(crash, { status: 500, body: { ok: false, result: 'error', code: 10099, msg: 'Internal error', error: 'NODE_INTERNAL' } });
});

test('the raw answers written to a socket: status line, reason, headers and length', () => {
  const cases: [ErrorCode, string][] = [
    ['HTTP_MALFORMED', '400 Bad Request'],
    ['HOST_NOT_ALLOWED', '403 Forbidden'],
    ['ROUTE_NOT_FOUND', '404 Not Found'],
    ['METHOD_NOT_ALLOWED', '405 Method Not Allowed'],
    ['REQUEST_TIMEOUT', '408 Request Timeout'],
    ['REQUEST_TOO_LARGE', '413 Payload Too Large'],
    ['WS_CONNECTION_LIMIT', '429 Too Many Requests'],
    ['NODE_SHUTTING_DOWN', '503 Error'],
  ];
  for (const [code, line] of cases) {
    const raw = rawErrorResponse(new ValidationError(code, 'é message'));
    const [head, json] = raw.split('\r\n\r\n');
    const lines = head.split('\r\n');
    assert.is(lines[0], `HTTP/1.1 ${line}`, code);
    assert.ok(lines.includes('content-type: application/json'));
    assert.ok(lines.includes('x-content-type-options: nosniff'));
    assert.ok(lines.includes('connection: close'));
    assert.ok(lines.includes(`content-length: ${Buffer.byteLength(json)}`), `${code}: the length counts bytes`);
    assert.ok(Buffer.byteLength(json) > json.length, 'the message has a two-byte character');
    const body = JSON.parse(json);
    assert.is(body.error, code);
    assert.is(body.code, apiErrorSpec(code).code);
  }
});

test.run();
