// Transaction signing and verification against the bare noble ECDSA call they wrap, side by
// side in one run. Goal: signTx / verifyTx within 10 % of the bare signature / verification.
// Run: npm run build:ts && node dist/bench/crypto.bench.js [rounds]

import Benchmark from 'benchmark';
import os from 'node:os';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { concatBytes, hexToBytes } from '../src/bytes.js';
import { decodeBsig } from '../src/crypto/bsig-tlv.js';
import { sha256 } from '../src/hash.js';
import { generateSecretKey, publicKeyOf } from '../src/crypto/keys.js';
import { signTx, verifyTx } from '../src/crypto/sign-tx.js';
import { decodeTx } from '../src/codec/container.js';

// A generic transfer body as published (spec 2.8), 80 bytes.
const body = hexToBytes('87a16b10a166c4088000200002000003a2746fc4088000200002000005a173cf0005798a2e4c1930a174cf00000166cb4f6fa4a170929300a2534b119301a346454503a16581a36d7367a568656c6c6f');
const secretKey = generateSecretKey();
const publicKey = publicKeyOf(secretKey);
const tx = signTx(body, secretKey, { timestamp: 1_541_009_272_740 });
const bsig = decodeBsig(decodeTx(tx).sigs[0]);
const digest = sha256(concatBytes(bsig.signedFields, body));
const der = bsig.signature;

const SIGN = { prehash: false, lowS: true, extraEntropy: false, format: 'der' } as const;
const VERIFY = { prehash: false, lowS: false, format: 'der' } as const;

if (!secp256k1.verify(der, digest, publicKey, VERIFY) || !verifyTx(tx).valid) throw new Error('setup: signature does not verify');

function cpuModel(): string {
  return os.cpus()[0]?.model.trim() ?? 'unknown CPU';
}

console.log(`machine: ${cpuModel()}, ${os.cpus().length} cores, Node ${process.version}, ${os.platform()}/${os.arch()}`);
console.log(`body ${body.length} bytes, container ${tx.length} bytes\n`);

// The ECDSA itself swapped for constants: what signTx and verifyTx add around it, measured on
// its own, which load from other processes on a shared machine disturbs far less than a
// difference of two noisy ECDSA figures.
const stubSigner = { publicKey, signDigest: () => der };
const stubVerify = { verifier: () => true };

const fastest = (b: Benchmark) => Math.min(...b.stats.sample); // seconds per op, least disturbed sample

function run(name: string, cases: [string, () => unknown][]): Map<string, Benchmark> {
  const results = new Map<string, Benchmark>();
  const suite = new Benchmark.Suite(name);
  for (const [label, fn] of cases) suite.add(label, fn, { maxTime: 2, minSamples: 10 });
  suite.on('cycle', (event: Benchmark.Event) => {
    const b = event.target as unknown as Benchmark;
    results.set(b.name!, b);
    console.log(
      `  ${String(b.name).padEnd(40)} ${b.hz.toFixed(0).padStart(7)} ops/s ±${b.stats.rme.toFixed(1).padStart(4)}%` +
        `  mean ${(1e6 / b.hz).toFixed(1).padStart(7)} µs  fastest ${(fastest(b) * 1e6).toFixed(1).padStart(7)} µs`,
    );
  });
  suite.run({ async: false });
  return results;
}

const rounds = Number(process.argv[2] ?? 2);
const rows: { what: string; bare: number; ours: number; wrapper: number }[] = [];
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const r = run('crypto', [
    ['noble sign(digest, DER)', () => secp256k1.sign(digest, secretKey, SIGN)],
    ['signTx(body, secretKey)', () => signTx(body, secretKey)],
    ['signTx wrapper alone (stub signer)', () => signTx(body, stubSigner)],
    ['noble verify(DER, digest, key)', () => secp256k1.verify(der, digest, publicKey, VERIFY)],
    ['verifyTx(tx)', () => verifyTx(tx)],
    ['verifyTx wrapper alone (stub verifier)', () => verifyTx(tx, stubVerify)],
  ]);
  const get = (name: string) => fastest(r.get(name)!);
  rows.push({ what: 'sign', bare: get('noble sign(digest, DER)'), ours: get('signTx(body, secretKey)'), wrapper: get('signTx wrapper alone (stub signer)') });
  rows.push({ what: 'verify', bare: get('noble verify(DER, digest, key)'), ours: get('verifyTx(tx)'), wrapper: get('verifyTx wrapper alone (stub verifier)') });
}

console.log('\nfastest samples, µs per op: bare ECDSA | ours | ours / bare | wrapper alone / bare');
for (const what of ['sign', 'verify']) {
  const mine = rows.filter((x) => x.what === what);
  const bare = Math.min(...mine.map((x) => x.bare));
  const ours = Math.min(...mine.map((x) => x.ours));
  const wrapper = Math.min(...mine.map((x) => x.wrapper));
  console.log(`  ${what.padEnd(6)} ${(bare * 1e6).toFixed(1).padStart(7)} | ${(ours * 1e6).toFixed(1).padStart(7)} | ` + `${(ours / bare).toFixed(3)} | ${((wrapper / bare) * 100).toFixed(1)} %`);
}
