// mineRegister end to end, and the `tpkit mine` / `tpkit bench` commands.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hexToBytes } from '../../src/bytes.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { verifyTx } from '../../src/crypto/sign-tx.js';
import { leadingZeroBits } from '../../src/pow/bits.js';
import { mineRange } from '../../src/pow/kernel.js';
import { mineRegister } from '../../src/pow/mine-register.js';
import { createMinerPool } from '../../src/pow/pool.node.js';
import { vectors } from '../helpers/vectors.js';

const run = promisify(execFile);
const pool = createMinerPool(2);
const sha512Bits = (body: Uint8Array) => leadingZeroBits(createHash('sha512').update(body).digest());

test('mineRegister: a register body with h, t and the nonce last, at the difficulty', async () => {
  const keys = vectors.public_keys.slice(0, 2).map((k) => hexToBytes(k.public_key));
  const result = await mineRegister({ publicKeys: keys, timestamp: 1700000000000, difficulty: 13, pool, extra: { msg: 'hi' } });
  const body = decodeBody(result.body);
  assert.is(body.kind, 'register');
  if (body.kind !== 'register') return;
  assert.is(body.timestamp, 1700000000000);
  assert.equal(body.keysHash, keysHash(keys));
  assert.is(body.nonce, result.nonce);
  assert.is(Buffer.from(result.body).readBigUInt64BE(result.body.length - 8), result.nonce);
  assert.ok(sha512Bits(result.body) >= 13);
  assert.is(result.bits, sha512Bits(result.body));
  // The same range searched on one thread finds the same nonce when thread 0 found it.
  if (result.nonce < 1n << 56n) assert.is(mineRange(result.body, 0n, Number(result.nonce) + 1, 13, 'js'), result.nonce);
});

test('tpkit mine --key prints a signed transaction that verifies; --pubkey prints the body', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-mine-'));
  try {
    const keyFile = join(dir, 'key.hex');
    writeFileSync(keyFile, `${vectors.bsig_hello.secret_key}\n`);
    const signed = JSON.parse((await runTpkit(['mine', '--difficulty', '12', '--key', keyFile, '--threads', '2', '--json'])).out);
    const verification = verifyTx(signed.tx);
    assert.ok(verification.valid);
    assert.is(Buffer.from(verification.body).toString('hex'), signed.body);
    assert.ok(sha512Bits(verification.body) >= 12);
    assert.is(signed.publicKey.toUpperCase(), vectors.bsig_hello.public_key);

    const pub = Buffer.from(publicKeyOf(vectors.bsig_hello.secret_key)).toString('hex');
    const { out: stdout } = await runTpkit(['mine', '--difficulty', '10', '--pubkey', pub, '--timestamp', '1234']);
    const hex = /body \(hex\):\s+([0-9a-f]+)/.exec(stdout)?.[1];
    assert.ok(hex, stdout);
    const body = decodeBody(hexToBytes(hex!));
    assert.ok(body.kind === 'register' && body.timestamp === 1234);
    assert.ok(sha512Bits(hexToBytes(hex!)) >= 10);

    const bad = await runTpkit(['mine', '--difficulty', '10']);
    assert.is(bad.code, 2, 'a usage error');
    assert.match(bad.err, /--key FILE/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a process that mined with the shared pool and never closed it still exits by itself', async () => {
  const script = `
    const { mineBody } = await import(${JSON.stringify(new URL('../../src/pow/mine-body.js', import.meta.url).href)});
    const r = await mineBody(new Uint8Array(66).fill(7), { difficulty: 12 });
    console.log(r.bits >= 12 ? 'mined' : 'wrong');`;
  // A process kept alive by the pool would be killed at the limit, and run() would reject.
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 120_000 });
  assert.is(stdout.trim(), 'mined');
});

test('tpkit bench --json: a short run gives the documented schema', async () => {
  const { out: stdout } = await runTpkit(['bench', '--difficulties', '4,6', '--threads', '1,2', '--repeats', '2', '--duration', '100', '--rounds', '1', '--first-proofs', '0', '--json']);
  const report = JSON.parse(stdout);
  assert.is(report.schema, 'tpkit-bench/1');
  assert.ok(report.machine.cores >= 1 && typeof report.machine.cpu === 'string' && typeof report.machine.simd === 'boolean');
  assert.is(report.machine.kernel, 'auto');
  const names = report.baselines.map((b: { name: string }) => b.name);
  for (const part of ['openssl', 'node:crypto', '@noble/hashes', 'tpkit hybrid', 'tpkit scalar', 'tpkit simd', 'tpkit js']) {
    assert.ok(
      names.some((n: string) => n.includes(part)),
      part,
    );
  }
  for (const b of report.baselines) {
    assert.ok(b.reference.startsWith('openssl'), b.reference);
    assert.is(b.ratio === null, b.name.startsWith('openssl'), b.name);
  }
  for (const b of report.baselines.filter((x: { name: string }) => x.name.startsWith('tpkit'))) assert.ok(b.hashRate > 0, b.name);
  assert.equal(
    report.throughput.map((t: { threads: number }) => t.threads),
    [1, 2],
  );
  assert.is(report.throughput[0].efficiency, 1);
  assert.is(report.rows.length, 4);
  for (const row of report.rows) {
    assert.is(row.solves, 2);
    assert.is(
      Object.values(row.byKernel as Record<string, number>).reduce((a, b) => a + b, 0),
      row.hashes,
    );
    assert.ok(row.hashes >= 2 && row.hashRate > 0);
    for (const key of ['meanMs', 'medianMs', 'p95Ms']) {
      assert.ok(row.measured[key] > 0 && row.expected[key] > 0, key);
    }
  }
});

test('tpkit bench without openssl on PATH: openssl says why, node:crypto becomes the reference', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'tpkit-nopath-'));
  try {
    const { out: stdout } = await runTpkit(['bench', '--difficulties', '4', '--threads', '1', '--repeats', '1', '--duration', '50', '--rounds', '1', '--first-proofs', '0', '--json'], {
      env: { PATH: empty },
    });
    const baselines: { name: string; hashRate: number | null; ratio: number | null; reference: string; note?: string }[] = JSON.parse(stdout).baselines;
    const openssl = baselines.find((b) => b.name.startsWith('openssl'))!;
    assert.is(openssl.hashRate, null);
    assert.match(openssl.note ?? '', /openssl not available/);
    for (const b of baselines) assert.ok(b.reference.startsWith('node:crypto'), b.reference);
    const hybrid = baselines.find((b) => b.name.startsWith('tpkit hybrid'))!;
    assert.ok(hybrid.ratio !== null && hybrid.ratio > 1, String(hybrid.ratio));
    assert.is(baselines.find((b) => b.name.startsWith('node:crypto'))!.ratio, null);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test.after(async () => {
  await pool.destroy();
});

test.run();
