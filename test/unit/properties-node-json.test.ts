// Properties of the node's chunked JSON (src/node/base/json-bytes.ts) at its edge: text of 2-,
// 3- and 4-byte characters placed at every offset around each 64 KiB chunk boundary is written
// whole, each chunk is valid UTF-8 on its own, and the chunks together are toJson's bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TextDecoder } from 'node:util';
import { toJsonChunks } from '../../src/node/base/json-bytes.js';
import { toJson } from '../../src/node/base/json.js';

const CHUNK = 64 * 1024;
const strict = new TextDecoder('utf-8', { fatal: true });

test('multi-byte text at every offset from 64 KiB - 130 to 64 KiB + 4, and at 128 KiB: nothing cut, nothing lost', () => {
  for (const edge of [CHUNK, 2 * CHUNK]) {
    for (let pad = edge - 130; pad <= edge + 4; pad++) {
      for (const char of ['ü', '€', '😀']) {
        for (const count of [1, 2, 3, 40]) {
          // The ASCII string's quotes and the array's bracket and comma come before the text.
          const value = ['x'.repeat(pad - 4), char.repeat(count), 'tail'];
          const { chunks, byteLength } = toJsonChunks(value);
          const label = `pad ${pad}, ${count} x ${char}`;
          for (const chunk of chunks) assert.not.throws(() => strict.decode(chunk), `${label}: a chunk cut a character`);
          assert.ok(
            chunks.every((c) => c.length <= CHUNK),
            label,
          );
          const all = Buffer.concat(chunks);
          assert.is(byteLength, all.length, label);
          assert.ok(all.equals(Buffer.from(toJson(value))), `${label}: the document differs from toJson`);
        }
      }
    }
  }
});

test.run();
