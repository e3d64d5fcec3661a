// A thread of WorkerVerifier's piscina pool: unpacks a batch of signature jobs, checks each,
// answers with one outcome byte per job.

import { encodeOutcomes, unpackJobs, verifyJob, type VerifyBatch } from './verifier.js';

export default function verifyBatch({ buffer }: VerifyBatch): Uint8Array {
  return encodeOutcomes(unpackJobs(buffer).map(verifyJob));
}
