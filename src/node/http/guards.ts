// Answers for what never reaches a route: malformed HTTP, CONNECT, a missing Host header,
// headers or bodies that do not arrive in time. Each is a JSON error with a code like any
// other answer, written straight to the socket where Node's parser has given up on it.

import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { ValidationError } from '../../errors.js';
import { errorResponse } from './api-errors.js';
import { toJson } from '../base/json.js';
import type { Logger } from '../base/log.js';

/** How long a client may take, and idle, before its socket is closed (milliseconds). */
export interface HttpTimeouts {
  /** From connecting (or the previous answer) to the end of the request headers. */
  headers: number;
  /** From connecting to the end of the request body. */
  request: number;
  /** Between requests on a kept-alive connection. */
  keepAlive: number;
  /** How often the server looks for connections past the first two limits. */
  checkEvery: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headers: 15_000, request: 25_000, keepAlive: 10_000, checkEvery: 1_000 };

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
};

/** A complete HTTP/1.1 answer as raw text, closing the connection. */
export function rawErrorResponse(err: ValidationError): string {
  const { status, body } = errorResponse(err);
  const json = toJson(body);
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
    'content-type: application/json\r\nx-content-type-options: nosniff\r\n' +
    `content-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`
  );
}

/** Node's parser rejected the bytes, or a timeout fired: answer in JSON where the socket still takes it. */
export function onClientError(logger: Logger) {
  return (err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const answer = timeout
      ? new ValidationError('REQUEST_TIMEOUT', 'Request timeout', { details: 'the request headers or body did not arrive in time' })
      : new ValidationError('HTTP_MALFORMED', 'Malformed HTTP request', { details: `${err.code ?? 'parse error'}: ${err.message}` });
    logger.debug(`${timeout ? 'request timeout' : `malformed request (${err.code})`} from ${(socket as { remoteAddress?: string }).remoteAddress ?? '?'}`);
    socket.end(rawErrorResponse(answer));
  };
}

/** CONNECT asks the node to be a proxy, which it never is. */
export function onConnect(req: http.IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end(rawErrorResponse(new ValidationError('METHOD_NOT_ALLOWED', 'CONNECT is not allowed', { details: 'this node is not a proxy' })));
  req.destroy();
}

/** HTTP/1.1 requires a Host header (RFC 9112 3.2); the check Node would answer with an empty 400. */
export function missingHost(req: http.IncomingMessage): ValidationError | undefined {
  if (req.httpVersion !== '1.1' || req.headers.host !== undefined) return undefined;
  return new ValidationError('HTTP_MALFORMED', 'Missing Host header', { details: 'an HTTP/1.1 request must carry a Host header' });
}
