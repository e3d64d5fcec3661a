// An encoding handed to a worker (by its .buffer) or kept for long must carry only its own
// bytes, not the writer's whole growing buffer behind it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeMsgpack, type MsgValue } from '../../src/codec/msgpack.js';

test('an encoding owns its buffer: .buffer holds exactly the encoded bytes', () => {
  for (const value of [1, 'x'.repeat(300), { a: [1n, 2n, 3n] }, new Uint8Array(5000)] as MsgValue[]) {
    const out = encodeMsgpack(value);
    assert.is(out.byteOffset, 0);
    assert.is(out.buffer.byteLength, out.length);
  }
});

test.run();
