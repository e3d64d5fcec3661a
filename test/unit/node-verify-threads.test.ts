// The local node's signature-verification threads (piscina): the same outcome per job as the
// main thread's check, batches of many jobs answered in order, and after close every job is
// still answered (inline). Threads that cannot start do not end the process: every job is
// answered inline, and the failure is reported once. A pool closed while its threads still
// start (a node opened and closed at once) never aborts the process.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { decodeBsig } from '../../src/crypto/bsig-tlv.js';
import { signBsig } from '../../src/crypto/bsig.js';
import { generateSecretKey } from '../../src/crypto/keys.js';
import { InlineVerifier, WorkerVerifier, type VerifyJob } from '../../src/node/ledger/verifier.js';

function job(tamper: 'none' | 'body' | 'signature'): VerifyJob {
  const body = randomBytes(90);
  const decoded = decodeBsig(signBsig(body, generateSecretKey()));
  const signature = decoded.signature.slice();
  if (tamper === 'signature') signature[5] ^= 1;
  if (tamper === 'body') body[0] ^= 1;
  return { signature, publicKey: decoded.publicKey, signedFields: decoded.signedFields, body };
}

test('worker threads give the inline outcome for every job, across batches, then close and answer inline', async () => {
  const kinds = ['none', 'body', 'signature'] as const;
  const jobs = Array.from({ length: 150 }, (_, i) => job(kinds[i % 3]));
  const inline = await new InlineVerifier().verify(jobs);
  assert.equal(inline.slice(0, 3), ['valid', 'SIG_INVALID', inline[2]]);
  assert.is.not(inline[2], 'valid');
  const verifier = new WorkerVerifier(2);
  // Submissions of one turn travel together; the answers come back to each in its order.
  const parts = await Promise.all([verifier.verify(jobs.slice(0, 10)), verifier.verify(jobs.slice(10, 100)), verifier.verify(jobs.slice(100))]);
  assert.equal(parts.flat(), inline);
  const onThreads = verifier.threadBatches;
  assert.ok(onThreads >= 1, 'the threads answered, not the inline fallback');
  await verifier.close();
  assert.equal(await verifier.verify(jobs.slice(0, 6)), inline.slice(0, 6));
  assert.is(verifier.threadBatches, onThreads);
});

test('a batch that fills up goes at once with what waited for company, and calls off the wait timer', async () => {
  const verifier = new WorkerVerifier(1);
  // The timers the verifier sets and clears while the two batches are handed over (the pool's
  // own timers, which depend on how far its threads have started, are not counted).
  const set: unknown[] = [];
  const cleared = new Set<unknown>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  try {
    let lone!: Promise<unknown>;
    let full!: Promise<string[]>;
    let exact!: Promise<string[]>;
    let again!: Promise<string[]>;
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      const timer = realSet(...args);
      set.push(timer);
      return timer;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => {
      cleared.add(timer);
      realClear(timer);
    }) as typeof clearTimeout;
    try {
      lone = verifier.verify([job('body')]);
      assert.is(set.length, 1, 'a lone job waits a moment for company');
      full = verifier.verify(Array.from({ length: 64 }, () => job('none')));
      // Exactly a batch's worth (64 jobs) goes at once too, with no wait.
      exact = verifier.verify(Array.from({ length: 64 }, () => job('none')));
      assert.is(set.length, 1, 'a full batch sets no wait timer');
      // After the batches went, the count starts again: a lone job waits for company once more.
      again = verifier.verify([job('none')]);
      assert.is(set.length, 2, 'the next lone job waits again');
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
    assert.ok(cleared.has(set[0]), 'a full batch goes now, and the wait is called off');
    assert.equal(await lone, ['SIG_INVALID']);
    assert.ok((await full).every((outcome) => outcome === 'valid'));
    assert.ok((await exact).every((outcome) => outcome === 'valid'));
    assert.equal(await again, ['valid']);
    assert.is(verifier.threadBatches, 3, 'the lone job went with the first full batch; the second went alone, and the last lone job after its wait');
  } finally {
    await verifier.close();
  }
});

test('threads that cannot start (their script cannot be opened) are reported once, and every job is still answered, inline', async () => {
  const jobs = [job('none'), job('body'), job('signature')];
  const inline = await new InlineVerifier().verify(jobs);
  const failures: Error[] = [];
  let verifier!: WorkerVerifier;
  const failed = new Promise<void>((resolve) => {
    verifier = new WorkerVerifier(
      2,
      (err) => {
        failures.push(err);
        resolve();
      },
      new URL('file:///nonexistent/verify-entry.cjs'),
    );
  });
  await failed;
  assert.match(failures[0].message, /nonexistent/);
  assert.equal(await verifier.verify(jobs), inline);
  assert.is(verifier.threadBatches, 0);
  // Let the second thread's failure arrive too: it is not reported again.
  await new Promise((r) => setTimeout(r, 200));
  assert.is(failures.length, 1);
  await verifier.close();
});

test('threads that cannot start are not started again and again: the pool is let go after the first failure', async () => {
  let verifier!: WorkerVerifier;
  const failed = new Promise<void>((resolve) => {
    verifier = new WorkerVerifier(2, () => resolve(), new URL('file:///nonexistent/verify-entry.cjs'));
  });
  // The pool is private; its error events count the threads it tried to start.
  const pool = (verifier as unknown as { pool: { on(event: 'error', listener: () => void): void } }).pool;
  let starts = 0;
  pool.on('error', () => starts++);
  await failed;
  // piscina may have started the first failed thread's replacement before the pool is let go
  // (seen under load): three starts at most. A pool kept alive replaces both threads: four.
  let seen = -1;
  while (seen !== starts) {
    seen = starts;
    await new Promise((r) => setTimeout(r, 750));
  }
  await new Promise((r) => setTimeout(r, 1500));
  assert.is(starts, seen, `threads went on failing to start: ${seen}, then ${starts}`);
  assert.ok(starts <= 3, `${starts} threads failed to start`);
  await verifier.close();
});

// A thread terminated inside the secp256k1 binding's set-up aborted the process ("terminate
// called after throwing an instance of 'Napi::Error'"), about one run in three of this loop.
test('pools closed while their threads still start leave the process running: the thread loads the native binding on first use', async () => {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(new URL('../../src/node/ledger/verify-worker.js', import.meta.url).href)});
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('secp256k1'));
    if (loaded.length > 0) throw new Error('loaded at import: ' + loaded.join(', '));
    const { WorkerVerifier } = await import(${JSON.stringify(new URL('../../src/node/ledger/verifier.js', import.meta.url).href)});
    for (let i = 0; i < 100; i++) {
      const verifier = new WorkerVerifier(2);
      await new Promise((r) => setTimeout(r, (i * 7) % 60));
      await verifier.close();
    }
    console.log('closed 100 pools');
  `;
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 110_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, out: stdout + stderr }),
    );
  });
  assert.is(out.trim(), 'closed 100 pools', out);
  assert.is(code, 0, out);
});

test.run();
