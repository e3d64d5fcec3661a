// Errors of talking to a node. Each keeps what a caller needs to react: the node's own
// numeric code and message, the transaction id, the failure reason from the block.

import { TpkitError, type TpkitErrorOptions } from '../errors.js';

export interface ApiErrorInfo {
  /** HTTP status of the answer. */
  status: number;
  /** The node's numeric error code (spec part 7), when it sent one. */
  apiCode?: number;
  /** The node's message, verbatim. */
  apiMessage: string;
  /** A tpkit node's stable error name, e.g. 'WALLET_NOT_FOUND'. */
  nodeError?: string;
  /** The request, as `METHOD path`. */
  request: string;
}

/** The node answered with an error (4xx/5xx or `ok: false`). */
export class ApiError extends TpkitError {
  override name = 'ApiError';
  readonly status: number;
  readonly apiCode?: number;
  readonly apiMessage: string;
  readonly nodeError?: string;
  readonly request: string;

  constructor(info: ApiErrorInfo, options: TpkitErrorOptions = {}) {
    const code = info.apiCode === undefined ? '' : ` code ${info.apiCode}`;
    super('API_ERROR', `Node refused ${info.request}`, { details: `HTTP ${info.status}${code}: ${info.apiMessage}`, ...options });
    this.status = info.status;
    this.apiCode = info.apiCode;
    this.apiMessage = info.apiMessage;
    this.nodeError = info.nodeError;
    this.request = info.request;
  }
}

/** The node could not be reached: connection refused, DNS, TLS, reset. */
export class NetworkError extends TpkitError {
  override name = 'NetworkError';
  constructor(details: string, options: TpkitErrorOptions = {}) {
    super('NETWORK_ERROR', 'Node unreachable', { details, ...options });
  }
}

/** A request, or the wait for a transaction, ran out of time. */
export class TimeoutError extends TpkitError {
  override name = 'TimeoutError';
  /** The transaction waited for, when the wait (not a request) ran out of time. */
  readonly txid?: string;

  constructor(details: string, options: TpkitErrorOptions & { txid?: string } = {}) {
    super('TIMEOUT', 'Timed out', { details, ...options });
    this.txid = options.txid;
  }
}

/** The node does not know the transaction: it never accepted it, or the id is mistyped. */
export class UnknownTxError extends TpkitError {
  override name = 'UnknownTxError';
  readonly txid: string;

  constructor(txid: string, options: TpkitErrorOptions = {}) {
    super('TX_NOT_FOUND', 'Unknown transaction', { details: `the node has no transaction ${txid}`, ...options });
    this.txid = txid;
  }
}

/** The transaction made it into a block but failed there (bad_seq, insufficient_fund, …). */
export class TxFailedError extends TpkitError {
  override name = 'TxFailedError';
  readonly txid: string;
  readonly reason: string;

  constructor(txid: string, reason: string) {
    super('TX_FAILED', 'Transaction failed', { details: `${txid}: ${reason}` });
    this.txid = txid;
    this.reason = reason;
  }
}

/**
 * The URL answers, but not as a ThePower node: an HTML page or other text where the API
 * answers JSON (a static file server, a web app's dev server, a wrong port).
 */
export class NotANodeError extends TpkitError {
  override name = 'NotANodeError';
  /** The origin that answered. */
  readonly origin: string;

  constructor(origin: string, details: string, options: TpkitErrorOptions = {}) {
    super('BAD_RESPONSE', `${origin} is not a ThePower node`, { details, ...options });
    this.origin = origin;
  }
}
