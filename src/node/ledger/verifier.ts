// Where signatures are checked: on the main thread, or on piscina worker threads so
// verification (libsecp256k1, ~50 us each) overlaps with HTTP parsing and block making. Jobs
// of one event-loop turn travel together, packed into one transferred buffer, so the
// per-message cost of worker_threads is paid once per batch, not once per transaction.

import { createRequire } from 'node:module';
import type { Piscina } from 'piscina';
import type { DecodedBsig } from '../../crypto/bsig-tlv.js';
import { verifyDecodedBsig } from '../../crypto/bsig.js';
import { nodeVerifyDigest } from './native-verifier.js';

export interface VerifyJob {
  signature: Uint8Array;
  publicKey: Uint8Array;
  /** The signed TLVs as received. */
  signedFields: Uint8Array;
  body: Uint8Array;
}

export type VerifyOutcome = 'valid' | 'SIG_INVALID' | 'BSIG_BAD_DER' | 'KEY_INVALID';
const OUTCOMES: VerifyOutcome[] = ['valid', 'SIG_INVALID', 'BSIG_BAD_DER', 'KEY_INVALID'];

export interface SignatureVerifier {
  verify(jobs: VerifyJob[]): Promise<VerifyOutcome[]>;
  close(): Promise<void>;
}

/** One job checked as the crypto module defines it, with libsecp256k1 doing the curve math. */
export function verifyJob(job: VerifyJob): VerifyOutcome {
  const decoded = { signature: job.signature, publicKey: job.publicKey, signedFields: job.signedFields, fields: [] } as DecodedBsig;
  const v = verifyDecodedBsig(decoded, job.body, { verifier: nodeVerifyDigest });
  return v.valid ? 'valid' : (v.reason ?? 'SIG_INVALID');
}

export class InlineVerifier implements SignatureVerifier {
  async verify(jobs: VerifyJob[]): Promise<VerifyOutcome[]> {
    return jobs.map(verifyJob);
  }
  async close(): Promise<void> {}
}

// Batch layout: per job four u32 lengths (signature, key, fields, body), then the four byte runs.
export function packJobs(jobs: readonly VerifyJob[]): ArrayBuffer {
  let size = 4;
  for (const j of jobs) size += 16 + j.signature.length + j.publicKey.length + j.signedFields.length + j.body.length;
  const buffer = new ArrayBuffer(size);
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  view.setUint32(0, jobs.length);
  let pos = 4;
  for (const j of jobs) {
    for (const part of [j.signature, j.publicKey, j.signedFields, j.body]) {
      view.setUint32(pos, part.length);
      pos += 4;
    }
    for (const part of [j.signature, j.publicKey, j.signedFields, j.body]) {
      bytes.set(part, pos);
      pos += part.length;
    }
  }
  return buffer;
}

export function unpackJobs(buffer: ArrayBuffer): VerifyJob[] {
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  const count = view.getUint32(0);
  const jobs: VerifyJob[] = [];
  let pos = 4;
  for (let i = 0; i < count; i++) {
    const lengths = [0, 1, 2, 3].map((k) => view.getUint32(pos + 4 * k));
    pos += 16;
    const parts = lengths.map((length) => {
      const part = bytes.subarray(pos, pos + length);
      pos += length;
      return part;
    });
    jobs.push({ signature: parts[0], publicKey: parts[1], signedFields: parts[2], body: parts[3] });
  }
  return jobs;
}

export function encodeOutcomes(outcomes: VerifyOutcome[]): Uint8Array {
  return Uint8Array.from(outcomes, (o) => OUTCOMES.indexOf(o));
}

export function decodeOutcomes(codes: Uint8Array): VerifyOutcome[] {
  return Array.from(codes, (c) => OUTCOMES[c] ?? 'SIG_INVALID');
}

// A message to a worker costs tens of microseconds (a thread wake-up), as much as a signature:
// jobs wait up to BATCH_WAIT_MS for company, or go as soon as BATCH_JOBS are queued.
const BATCH_JOBS = 64;
const BATCH_WAIT_MS = 1;

interface Pending {
  jobs: VerifyJob[];
  resolve: (outcomes: VerifyOutcome[]) => void;
}

/** The verification threads' task: one packed batch in, one outcome byte per job out. */
export interface VerifyBatch {
  buffer: ArrayBuffer;
}

let piscinaClass: typeof Piscina | undefined;
const loadPiscina = () => (piscinaClass ??= (createRequire(import.meta.url)('piscina') as { Piscina: typeof Piscina }).Piscina);

/**
 * Verification on a piscina pool of `threads` worker threads (fixed size, kept for the
 * node's lifetime); each batch goes to whichever thread is free.
 */
export class WorkerVerifier implements SignatureVerifier {
  private readonly pool: Piscina<VerifyBatch, Uint8Array>;
  private queue: Pending[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushScheduled = false;
  private closed = false;
  private failed = false;
  private answered = 0;

  /**
   * `onFailure` hears once that a thread could not start (EMFILE at the descriptor limit, a
   * missing file); `entry` is the threads' script (see verify-worker-entry.cts).
   */
  constructor(threads: number, onFailure: (err: Error) => void = () => undefined, entry = new URL('./verify-worker-entry.cjs', import.meta.url)) {
    const PiscinaPool = loadPiscina();
    this.pool = new PiscinaPool<VerifyBatch, Uint8Array>({
      filename: entry.href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 10 * 60_000,
    });
    // Unheard, a thread's failure to start is an 'error' event that ends the process. Checking
    // inline is slower and as correct, so the node goes on without the threads.
    this.pool.on('error', (err: Error) => {
      if (this.failed) return;
      this.failed = true;
      onFailure(err);
      void this.pool.destroy().catch(() => undefined);
    });
  }

  /** Batches the threads answered (not counting those checked inline after a failure). */
  get threadBatches(): number {
    return this.answered;
  }

  verify(jobs: VerifyJob[]): Promise<VerifyOutcome[]> {
    if (jobs.length === 0) return Promise.resolve([]);
    if (this.closed || this.failed) return Promise.resolve(jobs.map(verifyJob));
    return new Promise((resolve) => {
      this.queue.push({ jobs, resolve });
      this.queued += jobs.length;
      if (this.queued >= BATCH_JOBS) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        this.timer = setTimeout(() => this.flush(), BATCH_WAIT_MS);
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const parts = this.queue;
    this.queue = [];
    this.queued = 0;
    if (parts.length === 0) return;
    const buffer = packJobs(parts.flatMap((p) => p.jobs));
    this.pool.run({ buffer }, { transferList: [buffer] }).then(
      (codes) => {
        this.answered++;
        const outcomes = decodeOutcomes(codes);
        let pos = 0;
        for (const part of parts) {
          part.resolve(outcomes.slice(pos, pos + part.jobs.length));
          pos += part.jobs.length;
        }
      },
      // A crashed thread or a closed pool: the batch is checked inline, so no submission waits forever.
      () => {
        for (const part of parts) part.resolve(part.jobs.map(verifyJob));
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    if (!this.failed) await this.pool.destroy();
  }
}
