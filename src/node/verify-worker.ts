// Worker thread of WorkerVerifier: unpacks a batch of signature jobs, checks each, answers
// with one outcome byte per job.

import { parentPort } from 'node:worker_threads';
import { encodeOutcomes, unpackJobs, verifyJob } from './verifier.js';

parentPort!.on('message', (msg: { id: number; buffer: ArrayBuffer }) => {
  const outcomes = encodeOutcomes(unpackJobs(msg.buffer).map(verifyJob));
  parentPort!.postMessage({ id: msg.id, outcomes }, [outcomes.buffer as ArrayBuffer]);
});
