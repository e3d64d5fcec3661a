// Encode and decode of a generic body and of a signed container, side by side in one run.
// Run: npm run build:ts && node dist/bench/codec.bench.js

import Benchmark from 'benchmark';
import os from 'node:os';
import { bytesToBase64, hexToBytes } from '../src/bytes.js';
import { genericBody } from '../src/codec/body-generic.js';
import { decodeBody } from '../src/codec/body-decode.js';
import { decodeTx, encodeTx } from '../src/codec/container.js';
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

console.log(`machine: ${os.cpus()[0]?.model.trim()}, ${os.cpus().length} cores, Node ${process.version}, ${os.platform()}/${os.arch()}`);
console.log(`body ${body.length} bytes, container ${tx.length} bytes\n`);

new Benchmark.Suite('codec')
  .add('genericBody (encode)', () => genericBody(input))
  .add('decodeBody', () => decodeBody(body))
  .add('encodeTx', () => encodeTx(decodedTx))
  .add('decodeTx (bytes)', () => decodeTx(tx))
  .add('decodeTx (base64)', () => decodeTx(txBase64))
  .on('cycle', (event: Benchmark.Event) => {
    const b = event.target as unknown as Benchmark;
    console.log(`${b.name!.padEnd(22)} ${Math.round(b.hz).toLocaleString('en-US').padStart(12)} ops/s  ±${b.stats.rme.toFixed(1)}%`);
  })
  .run();
