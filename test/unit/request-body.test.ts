// A request body read within its limit: the bytes of an oversized body read so far are let go
// the moment the limit is passed, while the rest is read on and thrown away for the 413, so an
// upload far over the limit holds no more memory than one at the limit. Checked with the
// garbage collector: a chunk nothing else holds must be collectable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type http from 'node:http';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isBodyTooLarge, readBody } from '../../src/node/http/request-body.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const LIMIT = 64 * 1024;

/** An incoming request without Content-Length (a chunked upload), fed by the test. */
function upload() {
  const stream = new Readable({ read() {} });
  const req = Object.assign(stream, { headers: {}, complete: false }) as unknown as http.IncomingMessage & Readable;
  return {
    req,
    send: (chunk: Buffer) => stream.push(chunk),
    /** Sends a chunk the test keeps no hold of; only a weak reference comes back. */
    sendUnheld: (size: number, fill: number) => {
      const chunk = Buffer.alloc(size, fill);
      stream.push(chunk);
      return new WeakRef(chunk);
    },
    end: () => {
      req.complete = true;
      stream.push(null);
    },
  };
}

/** Lets the stream hand over what was pushed, then collects garbage (a WeakRef target lives until its job ends). */
async function collect(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  gc();
  await new Promise((r) => setImmediate(r));
}

test('a body within the limit keeps its chunks and resolves with them', async () => {
  const { req, send, sendUnheld, end } = upload();
  const body = readBody(req, LIMIT);
  const first = sendUnheld(40 * 1024, 1);
  await collect();
  assert.ok(first.deref(), 'a chunk of a body still within the limit is kept');
  send(Buffer.alloc(1024, 2));
  end();
  const bytes = await body;
  assert.is(bytes.length, 41 * 1024);
  assert.equal([bytes[0], bytes[40 * 1024 - 1], bytes[40 * 1024]], [1, 1, 2]);
});

test('the chunks of a body over the limit are let go while the rest is discarded; the end brings REQUEST_TOO_LARGE', async () => {
  const { req, send, sendUnheld, end } = upload();
  const outcome = readBody(req, LIMIT).then(
    () => assert.unreachable('an oversized body resolved'),
    (err: unknown) => err,
  );
  const first = sendUnheld(40 * 1024, 1);
  // Over the limit: from here on the body is only counted.
  send(Buffer.alloc(40 * 1024, 2));
  await collect();
  assert.is(first.deref(), undefined, 'the bytes read before the limit was passed are still held');
  send(Buffer.alloc(40 * 1024, 3));
  end();
  const err = await outcome;
  assert.ok(isBodyTooLarge(err));
  assert.is(err.error.code, 'REQUEST_TOO_LARGE');
  assert.is(err.close, false, 'read to its end: the connection can stay open');
  assert.match(err.error.details ?? '', /limit 65536 bytes, got more than 65536/);
});

test.run();
