// Properties of src/codec over many bodies: decoded addresses are copies (writing over the input
// afterwards leaves them as they were), and any cut or changed byte gives either a body or a
// TpkitError with its code, never a plain Error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeAddress } from '../../src/codec/address.js';
import { decodeBody, genericBody } from '../../src/codec/index.js';
import { bytes, forAll, int, typedFailure } from '../helpers/property.js';

const address = (next: () => number) => makeAddress({ group: int(next, 0, 65535), block: int(next, 0, 65535), wallet: int(next, 0, 2 ** 24 - 1) });

test('decoded from and to are copies: overwriting the input leaves them unchanged', async () => {
  await forAll(
    'generic bodies',
    { count: 200, seed: 3301 },
    (next) => ({ from: address(next), to: address(next), seq: int(next, 0, 2 ** 40), timestamp: int(next, 0, 2 ** 42), fill: int(next, 0, 255) }),
    ({ from, to, seq, timestamp, fill }) => {
      const input = genericBody({ from, to, seq, timestamp, payload: [] });
      const body = decodeBody(input) as { from: Uint8Array; to: Uint8Array };
      input.fill(fill);
      assert.equal([...body.from], [...from], 'from');
      assert.equal([...body.to], [...to], 'to');
    },
  );
});

test('a body cut short or with bytes changed is read or refused with a TpkitError and its code', async () => {
  await forAll(
    'damaged bodies',
    { count: 300, seed: 3302 },
    (next) => {
      const input = genericBody({ from: address(next), to: address(next), seq: int(next, 0, 1000), timestamp: int(next, 0, 2 ** 42), payload: [] });
      const damaged = next() < 0.5 ? input.slice(0, int(next, 0, input.length - 1)) : input.slice();
      for (let n = int(next, 1, 4); n > 0 && damaged.length > 0; n--) damaged[int(next, 0, damaged.length - 1)] = bytes(next, 1)[0];
      return damaged;
    },
    async (damaged) => {
      await typedFailure(`body ${Buffer.from(damaged).toString('hex')}`, () => decodeBody(damaged));
    },
  );
});

test.run();
