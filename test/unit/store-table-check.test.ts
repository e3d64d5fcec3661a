// The pieces of the table check on their own: CRC-32C against its published check value and
// LevelDB's mask, Snappy decompression of literals and overlapping copies with every damaged
// length or offset refused, and table files that are too short, or sound, or not tables at all.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { crc32c, maskCrc } from '../../src/node/store/crc32c.js';
import { snappyDecompress, SnappyError } from '../../src/node/store/snappy.js';
import { checkTables, describeTableDamage } from '../../src/node/store/table-check.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

test('CRC-32C: the check value of "123456789", 32 zero bytes, every length around the 8-byte step, continued over parts', () => {
  assert.is(crc32c(utf8('123456789')), 0xe3069283);
  assert.is(crc32c(new Uint8Array(32)), 0x8a9136aa);
  assert.is(crc32c(utf8('6789'), crc32c(utf8('12345'))), 0xe3069283);
  // The 8-byte loop against a byte-at-a-time CRC, for each length from 0 to 20.
  const slow = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const bytes = Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 0xff);
  for (let n = 0; n <= 20; n++) assert.is(crc32c(bytes.subarray(0, n)), slow(bytes.subarray(0, n)), `length ${n}`);
  // LevelDB's mask: rotate right by 15, add 0xa282ead8.
  assert.is(maskCrc(0), 0xa282ead8);
  assert.is(maskCrc(0x00008000), (1 + 0xa282ead8) >>> 0);
});

test('Snappy: a literal, an overlapping copy of each offset size, and the length preamble', () => {
  // "abc", then 9 bytes copied from 3 back (1-byte offset): abcabcabcabc
  assert.is(new TextDecoder().decode(snappyDecompress(Uint8Array.of(12, 0x08, 97, 98, 99, 0x15, 3), 100)), 'abcabcabcabc');
  // a 2-byte offset copy of 5 bytes, and a 4-byte offset copy of 2
  const two = snappyDecompress(Uint8Array.of(9, 0x04, 120, 121, ((5 - 1) << 2) | 2, 2, 0, ((2 - 1) << 2) | 3, 1, 0, 0, 0), 100);
  assert.equal([...two], [120, 121, 120, 121, 120, 121, 120, 120, 120]);
  // a literal whose length takes one extra byte (60 + 1 = 61 bytes after it)
  const long = snappyDecompress(Uint8Array.of(61, 60 << 2, 60, ...new Uint8Array(61).fill(7)), 100);
  assert.is(long.length, 61);
});

test('Snappy: every damaged length or offset is refused, never read past', () => {
  const bad: [string, Uint8Array, RegExp][] = [
    ['a copy from offset 0', Uint8Array.of(6, 0x04, 1, 2, 0x01, 0), /outside the output/],
    ['a copy from before the start', Uint8Array.of(6, 0x04, 1, 2, 0x01, 3), /outside the output/],
    ['a copy past the claimed length', Uint8Array.of(3, 0x04, 1, 2, 0x01, 1), /outside the output/],
    ['a literal past the input', Uint8Array.of(5, 0x10, 1, 2), /literal runs past/],
    ['fewer bytes than claimed', Uint8Array.of(5, 0x04, 1, 2), /makes 2 bytes, not the 5/],
    ['a cut length preamble', Uint8Array.of(0x80), /cut off/],
    ['a cut copy', Uint8Array.of(4, 0x04, 1, 2, 0x02), /copy is cut off/],
    ['a claimed length above the limit', Uint8Array.of(0xe9, 0x07), /more than 1000/],
  ];
  for (const [what, input, message] of bad) {
    assert.throws(
      () => snappyDecompress(input, 1000),
      (err: Error) => err instanceof SnappyError && message.test(err.message),
      what,
    );
  }
});

test('checkTables: a sound table passes; a table file shorter than a footer is named; other files are not tables', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-tables-'));
  try {
    const db = new ClassicLevel<string, string>(dir);
    await db.open();
    await db.batch(Array.from({ length: 3000 }, (_, i) => ({ type: 'put' as const, key: `k:${String(i).padStart(6, '0')}`, value: `value ${i} `.repeat(8) })));
    await db.compactRange('\u0000', '\uffff');
    await db.close();
    const sound = await checkTables(dir);
    assert.is(sound.tables, 1);
    assert.equal(sound.damage, []);
    assert.ok(sound.blocks > 10, `${sound.blocks} blocks`);
    writeFileSync(join(dir, '000999.ldb'), 'short');
    writeFileSync(join(dir, 'notes.log'), 'not a table');
    const damaged = await checkTables(dir);
    assert.is(damaged.tables, 2);
    assert.equal(damaged.damage.map(describeTableDamage), ["table 000999.ldb: it is 5 bytes, shorter than a table's footer: truncated"]);
    assert.is(damaged.damage[0].kind, 'table');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
