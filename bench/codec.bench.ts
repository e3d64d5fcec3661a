// Encode and decode of a generic body and of a signed container, side by side in one run.
// Run: npm run build:ts && node dist/bench/codec.bench.js

import Benchmark from 'benchmark';
import os from 'node:os';
import { bytesToBase64, hexToBytes } from '../src/bytes.js';
import { genericBody } from '../src/codec/body-generic.js';
import { decodeBody } from '../src/codec/body-decode.js';
import { decodeTx, encodeTx } from '../src/codec/container.js';
import { decodeMsgpack, encodeMsgpack } from '../src/codec/msgpack.js';
import { decode as referenceDecode, encode as referenceEncode } from '@msgpack/msgpack';
import { generateSecretKey } from '../src/crypto/keys.js';
import { signTx } from '../src/crypto/sign-tx.js';

const input = {
  from: hexToBytes('8000200002000003'),
  to: hexToBytes('8000200002000005'),
  seq: 1_541_009_272_740_144n,
  timestamp: 1_541_009_272_740,
  payload: [
    { purpose: 0, currency: 'SK', amount: 17n },
    { purpose: 1, currency: 'FEE', amount: 3n },
  ],
  extra: { msg: 'hello' },
};
const body = genericBody(input);
const tx = signTx(body, generateSecretKey(), { timestamp: 1_541_009_272_740 });
const decodedTx = decodeTx(tx);
const txBase64 = bytesToBase64(tx);
// The same body as a plain map, for the MessagePack layer alone and the @msgpack/msgpack baseline
// (it writes other bytes for it: that is why tpkit has its own writer; this row only
// prices the speed).
const bodyMap = {
  k: 16,
  f: input.from,
  to: input.to,
  s: input.seq,
  t: input.timestamp,
  p: [
    [0, new TextEncoder().encode('SK'), 17n],
    [1, new TextEncoder().encode('FEE'), 3n],
  ],
  e: { msg: 'hello' },
};

console.log(`machine: ${os.cpus()[0]?.model.trim()}, ${os.cpus().length} cores, Node ${process.version}, ${os.platform()}/${os.arch()}`);
console.log(`body ${body.length} bytes, container ${tx.length} bytes\n`);

new Benchmark.Suite('codec')
  .add('genericBody (encode)', () => genericBody(input))
  .add('decodeBody', () => decodeBody(body))
  .add('encodeTx', () => encodeTx(decodedTx))
  .add('decodeTx (bytes)', () => decodeTx(tx))
  .add('decodeTx (base64)', () => decodeTx(txBase64))
  .add('encodeMsgpack (body map)', () => encodeMsgpack(bodyMap))
  .add('@msgpack/msgpack encode (same map)', () => referenceEncode(bodyMap, { useBigInt64: true }))
  .add('decodeMsgpack (body)', () => decodeMsgpack(body))
  .add('@msgpack/msgpack decode (body)', () => referenceDecode(body))
  .on('cycle', (event: Benchmark.Event) => {
    const b = event.target as unknown as Benchmark;
    console.log(`${b.name!.padEnd(36)} ${Math.round(b.hz).toLocaleString('en-US').padStart(12)} ops/s  ±${b.stats.rme.toFixed(1)}%`);
  })
  .run();
