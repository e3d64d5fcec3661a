// Properties of src/crypto's signature TLVs over many inputs: what encodeTlvs writes decodeTlvs
// reads back field for field, lengths at 0x7fff and one past are taken and refused, and random
// or cut bytes are read whole or refused with a TpkitError and its code, never a plain Error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBsig, decodeTlvs, encodeTlv, encodeTlvs, MAX_TLV_LENGTH } from '../../src/crypto/bsig-tlv.js';
import { bytes, forAll, int, typedFailure } from '../helpers/property.js';

test('TLVs round trip, with lengths at 0, 127, 128 and the 0x7fff bound', async () => {
  const lengths = [0, 1, 127, 128, 255, 256, MAX_TLV_LENGTH - 1, MAX_TLV_LENGTH];
  await forAll(
    'TLV lists',
    { count: 60, seed: 3401 },
    (next) => Array.from({ length: int(next, 1, 4) }, () => ({ tag: int(next, 0, 255), value: bytes(next, next() < 0.3 ? lengths[int(next, 0, lengths.length - 1)] : int(next, 0, 300)) })),
    (fields) => {
      const read = decodeTlvs(encodeTlvs(fields));
      assert.equal(
        read.map((f) => [f.tag, [...f.value]]),
        fields.map((f) => [f.tag, [...f.value]]),
      );
    },
  );
  const err = await typedFailure('a value one past the bound', () => encodeTlv(1, new Uint8Array(MAX_TLV_LENGTH + 1)));
  assert.ok(err, 'a value of 0x8000 bytes is refused');
});

test('random and cut bytes are read or refused typed, by decodeTlvs and decodeBsig', async () => {
  await forAll(
    'random bsig bytes',
    { count: 400, seed: 3402 },
    (next) => {
      if (next() < 0.5) return { input: bytes(next, int(next, 0, 200)), cut: false };
      const whole = encodeTlvs([
        { tag: 1, value: bytes(next, 33) },
        { tag: 2, value: bytes(next, int(next, 0, 200)) },
      ]);
      return { input: whole.slice(0, int(next, 0, whole.length - 1)), cut: true };
    },
    async ({ input, cut }) => {
      const refused = await typedFailure('decodeTlvs', () => decodeTlvs(input));
      // A list cut inside a field is refused; cut between two, what is read is all there was.
      if (cut && !refused) assert.equal([...encodeTlvs(decodeTlvs(input))], [...input], 'nothing read short');
      await typedFailure('decodeBsig', () => decodeBsig(input));
    },
  );
});

test.run();
