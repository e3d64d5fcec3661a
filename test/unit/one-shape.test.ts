// One shape per concept across the library: a timestamp is a number of ms wherever it is
// decoded (a body's `t`, a signature's timestamp from decodeBsig, verifyBsig and verifyTx).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBody, decodeBsig, decodeTx, generateSecretKey, genericBody, signTx, verifyBsig, verifyTx } from '../../src/index.js';

const T = 1_700_000_123_456;

test("a body's timestamp and its signature's timestamp are the same number, however read", () => {
  const body = genericBody({ from: 'AA100000001677721780', to: 'AA100000001677722185', seq: 1, timestamp: T, payload: [{ purpose: 'transfer', currency: 'SK', amount: 5 }] });
  const tx = signTx(body, generateSecretKey(), { timestamp: BigInt(T) });
  const [sig] = decodeTx(tx).sigs;
  const read: [string, unknown][] = [
    ['decodeBody', (decodeBody(body) as { timestamp: unknown }).timestamp],
    ['decodeBsig', decodeBsig(sig).timestamp],
    ['verifyBsig', verifyBsig(sig, body).timestamp],
    ['verifyTx', verifyTx(tx).signatures[0].timestamp],
  ];
  for (const [where, value] of read) {
    assert.is(typeof value, 'number', where);
    assert.is(value, T, where);
  }
});

test.run();
