// A revert's data as people read it (revert.ts): the message of Error(string), Panic(code), or
// the data in hex, over data built by hand to the ABI's encoding, at each length boundary.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { revertReason } from '../../src/node/evm/revert.js';

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const padded = (hex: string) => hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
/** Error(string) as Solidity encodes it: offset, length, the bytes padded to a word. */
const errorString = (text: string) => hexToBytes('08c379a0' + word(32) + word(Buffer.byteLength(text)) + padded(Buffer.from(text).toString('hex')));
const asHex = (data: Uint8Array) => ({ text: '0x' + bytesToHex(data) });

test('Error(string): an empty message, one that fills its words exactly, one that does not, and UTF-8', () => {
  assert.equal(revertReason(errorString('')), { text: '', signature: 'Error(string)' });
  assert.is(errorString('').length, 4 + 64, 'the empty message: offset and length only');
  const full = 'x'.repeat(32);
  assert.equal(revertReason(errorString(full)), { text: full, signature: 'Error(string)' });
  assert.equal(revertReason(errorString('x'.repeat(33))), { text: 'x'.repeat(33), signature: 'Error(string)' });
  assert.equal(revertReason(errorString('café ✓')), { text: 'café ✓', signature: 'Error(string)' });
  // An offset other than 32: the length word is read where it points.
  const moved = hexToBytes('08c379a0' + word(64) + word(0) + word(2) + padded('6f6b'));
  assert.equal(revertReason(moved), { text: 'ok', signature: 'Error(string)' });
});

test('Error(string) that does not hold together stays hex: cut short, pointing past its data, a length past the end, not UTF-8', () => {
  const full = errorString('x'.repeat(32));
  assert.equal(revertReason(full.slice(0, -1)), asHex(full.slice(0, -1)), 'one byte short of its message');
  const empty = errorString('');
  assert.equal(revertReason(empty.slice(0, -1)), asHex(empty.slice(0, -1)), 'the length word cut short');
  const farOffset = hexToBytes('08c379a0' + word(96) + word(0) + word(0));
  assert.equal(revertReason(farOffset), asHex(farOffset), 'an offset at the end of the data');
  const hugeOffset = hexToBytes('08c379a0' + word(2n ** 255n) + word(0));
  assert.equal(revertReason(hugeOffset), asHex(hugeOffset));
  const longLength = hexToBytes('08c379a0' + word(32) + word(33) + word(0));
  assert.equal(revertReason(longLength), asHex(longLength));
  const latin1 = hexToBytes('08c379a0' + word(32) + word(1) + padded('ff'));
  assert.equal(revertReason(latin1), asHex(latin1), 'not UTF-8');
  assert.equal(revertReason(hexToBytes('08c379a0')), asHex(hexToBytes('08c379a0')), 'the selector alone');
});

test('Panic(uint256): exactly one word, its code in hex; anything else stays hex', () => {
  assert.equal(revertReason(hexToBytes('4e487b71' + word(0x11))), { text: 'Panic(0x11)', signature: 'Panic(uint256)' });
  assert.equal(revertReason(hexToBytes('4e487b71' + word(0))), { text: 'Panic(0x0)', signature: 'Panic(uint256)' });
  const long = hexToBytes('4e487b71' + word(0x12) + '00');
  assert.equal(revertReason(long), asHex(long));
  const short = hexToBytes('4e487b71' + word(0x12).slice(2));
  assert.equal(revertReason(short), asHex(short));
});

test('no data is the empty text; a custom error or a few bytes are hex', () => {
  assert.equal(revertReason(new Uint8Array(0)), { text: '' });
  assert.equal(revertReason(hexToBytes('01')), { text: '0x01' });
  assert.equal(revertReason(hexToBytes('deadbeef' + word(5))), { text: '0xdeadbeef' + word(5) });
});

test.run();
