// The one place that turns an error into an HTTP answer. Every TpkitError code a request can
// raise has an HTTP status and a numeric API code here; `error` in the body repeats the
// TpkitError code so a client can tell apart errors that share a number.
// Numbers the specification fixes: 10003 (no such wallet) and 10004 (invalid address);
// 10006 and 10008 follow the reference node's use (block not found, undecodable tx).

import { TpkitError, type ErrorCode } from '../../errors.js';
import type { JsonValue } from '../base/json.js';

export interface ApiErrorSpec {
  status: number;
  code: number;
}

/** HTTP status and API number for every code; docs/reference/errors.md is generated from this. */
export const API_ERRORS: Partial<Record<ErrorCode, ApiErrorSpec>> = {
  WALLET_NOT_FOUND: { status: 404, code: 10003 },
  ADDRESS_INVALID: { status: 400, code: 10004 },
  ADDRESS_CHECKSUM: { status: 400, code: 10004 },
  BLOCK_NOT_FOUND: { status: 404, code: 10006 },
  TX_NOT_FOUND: { status: 404, code: 10007 },
  MSGPACK_TRUNCATED: { status: 400, code: 10008 },
  MSGPACK_INVALID: { status: 400, code: 10008 },
  MSGPACK_TRAILING: { status: 400, code: 10008 },
  MSGPACK_LIMIT: { status: 400, code: 10008 },
  ROUTE_NOT_FOUND: { status: 404, code: 10010 },
  METHOD_NOT_ALLOWED: { status: 405, code: 10011 },
  NOT_IMPLEMENTED: { status: 501, code: 10041 },
  DEPENDENCY_MISSING: { status: 501, code: 10042 },
  HTTP_MALFORMED: { status: 400, code: 10012 },
  REQUEST_ABORTED: { status: 400, code: 10013 },
  REQUEST_TIMEOUT: { status: 408, code: 10014 },
  STORE_UNAVAILABLE: { status: 503, code: 10015 },
  NODE_SHUTTING_DOWN: { status: 503, code: 10016 },
  NOT_JSON: { status: 400, code: 10020 },
  MISSING_TX: { status: 400, code: 10021 },
  BAD_BASE64: { status: 400, code: 10022 },
  BAD_HEX: { status: 400, code: 10022 },
  BAD_INPUT_ENCODING: { status: 400, code: 10022 },
  TX_NOT_MAP: { status: 400, code: 10023 },
  TX_MISSING_KEY: { status: 400, code: 10023 },
  TX_BAD_FIELD: { status: 400, code: 10023 },
  TX_BAD_VERSION: { status: 400, code: 10024 },
  BODY_NOT_MAP: { status: 400, code: 10025 },
  BODY_MISSING_FIELD: { status: 400, code: 10025 },
  BODY_BAD_FIELD: { status: 400, code: 10025 },
  BODY_FLOAT_AMOUNT: { status: 400, code: 10025 },
  BODY_BAD_PAYLOAD: { status: 400, code: 10025 },
  BODY_UNKNOWN_KIND: { status: 400, code: 10026 },
  KIND_UNSUPPORTED: { status: 400, code: 10026 },
  SIG_MISSING: { status: 400, code: 10027 },
  BSIG_MALFORMED: { status: 400, code: 10028 },
  BSIG_MISSING_FIELD: { status: 400, code: 10028 },
  BSIG_BAD_DER: { status: 400, code: 10028 },
  SIG_INVALID: { status: 400, code: 10028 },
  KEY_INVALID: { status: 400, code: 10028 },
  TOO_MANY_SIGNATURES: { status: 400, code: 10029 },
  REGISTER_KEYS_MISMATCH: { status: 400, code: 10030 },
  POW_TOO_LOW: { status: 400, code: 10031 },
  SENDER_UNKNOWN: { status: 400, code: 10032 },
  SENDER_KEY_MISMATCH: { status: 400, code: 10033 },
  TIMESTAMP_OUT_OF_WINDOW: { status: 400, code: 10034 },
  WRONG_CHAIN: { status: 400, code: 10035 },
  TX_TOO_LARGE: { status: 413, code: 10036 },
  REQUEST_TOO_LARGE: { status: 413, code: 10037 },
  TXID_INVALID: { status: 400, code: 10038 },
  BAD_REQUEST_PARAM: { status: 400, code: 10039 },
  INVALID_ARGUMENT: { status: 400, code: 10039 },
  MEMPOOL_FULL: { status: 503, code: 10040 },
  SUBSCRIPTION_INVALID: { status: 400, code: 10050 },
  SUBSCRIPTION_LIMIT: { status: 429, code: 10051 },
  DEV_API_DISABLED: { status: 403, code: 10052 },
  SNAPSHOT_NOT_FOUND: { status: 404, code: 10053 },
  HOST_NOT_ALLOWED: { status: 403, code: 10060 },
  ORIGIN_NOT_ALLOWED: { status: 403, code: 10061 },
  CONTENT_TYPE_UNSUPPORTED: { status: 415, code: 10062 },
  WS_CONNECTION_LIMIT: { status: 429, code: 10063 },
  EVM_TIMEOUT: { status: 504, code: 10064 },
  EVM_BUSY: { status: 503, code: 10065 },
  ABORTED: { status: 400, code: 10066 },
  NODE_INTERNAL: { status: 500, code: 10099 },
};

/** Any other TpkitError a request raises is still the client's input: a 400 with this number. */
const OTHER_BAD_INPUT: ApiErrorSpec = { status: 400, code: 10009 };
const INTERNAL: ApiErrorSpec = API_ERRORS.NODE_INTERNAL!;

/** Spec part 7 messages, kept verbatim where the specification gives them. */
const SPEC_MESSAGES: Partial<Record<ErrorCode, string>> = {
  WALLET_NOT_FOUND: 'Not found',
  ADDRESS_INVALID: 'Invalid address',
  ADDRESS_CHECKSUM: 'Invalid address',
};

export interface ApiErrorResponse {
  status: number;
  body: { [key: string]: JsonValue };
}

export function apiErrorSpec(code: ErrorCode): ApiErrorSpec {
  return API_ERRORS[code] ?? OTHER_BAD_INPUT;
}

/** `{ok:false, result, code, msg, error, details?, field?}`; `result` is "not_found" for 404s, "error" otherwise. */
export function errorResponse(err: unknown): ApiErrorResponse {
  if (!(err instanceof TpkitError)) {
    return {
      status: INTERNAL.status,
      body: { ok: false, result: 'error', code: INTERNAL.code, msg: 'Internal error', error: 'NODE_INTERNAL' },
    };
  }
  const spec = apiErrorSpec(err.code);
  const body: { [key: string]: JsonValue } = {
    ok: false,
    result: spec.status === 404 ? 'not_found' : 'error',
    code: spec.code,
    // The spec's own messages stay verbatim; the rest carry their details, since SDKs show only msg.
    msg: SPEC_MESSAGES[err.code] ?? err.message,
    error: err.code,
  };
  if (err.details) body.details = err.details;
  if (err.field) body.field = err.field;
  return { status: spec.status, body };
}
