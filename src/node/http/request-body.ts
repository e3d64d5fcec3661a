// Reading a POST body within a size limit. An oversized body is read on and thrown away up
// to a bound, so the client, which may only read the answer once its upload is done, gets
// the 413 instead of a reset; past the bound the connection is closed. A client that hangs
// up mid-upload is REQUEST_ABORTED, an expected event rather than a failure.

import type http from 'node:http';
import { ValidationError } from '../../errors.js';

/** Bytes of an oversized body read and discarded before the connection is closed. */
export const DISCARD_BOUND = 16 * 1024 * 1024;

export interface BodyTooLarge {
  error: ValidationError;
  /** The rest of the body was not read: close the connection after the answer. */
  close: boolean;
}

function tooLarge(limit: number, got: string): ValidationError {
  return new ValidationError('REQUEST_TOO_LARGE', 'Request body too large', { details: `limit ${limit} bytes, got ${got}` });
}

export function aborted(): ValidationError {
  return new ValidationError('REQUEST_ABORTED', 'Request aborted', { details: 'the client closed the connection before the body was complete' });
}

/**
 * Resolves with the body, or rejects with REQUEST_ABORTED, or with a BodyTooLarge once the
 * oversized body has been discarded (or the bound reached).
 */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let oversized = Number.isFinite(declared) && declared > limit;
    let settled = false;
    const settle = (result: Uint8Array | BodyTooLarge | ValidationError) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (result instanceof Uint8Array) resolve(result);
      else reject(result);
    };
    const rejectTooLarge = (close: boolean) => {
      const got = Number.isFinite(declared) ? String(declared) : `more than ${limit}`;
      settle({ error: tooLarge(limit, got), close });
      if (close) req.pause();
      else req.resume(); // nothing left to read; let the parser finish the request
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (!oversized && size > limit) {
        oversized = true;
        chunks.length = 0;
      }
      if (oversized) {
        if (size > limit + DISCARD_BOUND) rejectTooLarge(true);
        return;
      }
      chunks.push(chunk);
    };
    if (oversized && declared > limit + DISCARD_BOUND) {
      rejectTooLarge(true);
      return;
    }
    req.on('data', onData);
    req.on('end', () => {
      if (oversized) rejectTooLarge(false);
      else settle(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.on('error', () => settle(aborted()));
    req.on('close', () => {
      if (!req.complete) settle(aborted());
    });
  });
}

export function isBodyTooLarge(value: unknown): value is BodyTooLarge {
  return typeof value === 'object' && value !== null && 'error' in value && 'close' in value;
}
