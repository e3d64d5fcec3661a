// The tiny wallet page every bundler example builds: a new key, a registration mined at the
// network's difficulty (16) on the page's miner, the register transaction and a transfer
// signed with the key, and the miner's rate on one worker. It shows the result on the page;
// with ?report=URL it also POSTs it there (test/e2e checks it).
import { createWebMinerPool, genericBody, generateSecretKey, mineRegister, publicKeyOf, signTx, bytesToHex } from 'tpkit/browser';

/** Hashes per second of one worker after its first 400 ms, over `ms` of hashing at a difficulty never met. */
async function rateOfOneWorker(ms) {
  const pool = createWebMinerPool(1);
  const stop = new AbortController();
  const samples = [];
  setTimeout(() => stop.abort(), ms);
  try {
    await mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], difficulty: 64, pool, callingThread: false, signal: stop.signal, onProgress: (p) => samples.push(p) });
  } catch (err) {
    if (err.code !== 'ABORTED') throw err;
  } finally {
    pool.terminate();
  }
  const steady = samples.filter((p) => p.elapsedMs >= 400);
  const first = steady[0];
  const last = steady[steady.length - 1];
  return first && last && last.elapsedMs > first.elapsedMs ? ((last.hashes - first.hashes) / (last.elapsedMs - first.elapsedMs)) * 1000 : 0;
}

export async function runWallet() {
  const secretKey = generateSecretKey();
  const publicKey = publicKeyOf(secretKey);
  const mined = await mineRegister({ publicKeys: [publicKey], difficulty: 16 });
  const register = signTx(mined.body, secretKey);
  const transfer = signTx(
    genericBody({
      from: 'AA100000001677721780',
      to: 'AA100000001677722185',
      seq: 1n,
      timestamp: Date.now(),
      payload: [{ purpose: 'transfer', currency: 'SK', amount: 1000n }, { purpose: 'srcfee', currency: 'SK', amount: 1n }],
    }),
    secretKey,
  );
  const rateMs = Number(new URLSearchParams(globalThis.location?.search ?? '').get('rateMs') ?? 2000);
  return {
    publicKey: bytesToHex(publicKey),
    body: bytesToHex(mined.body),
    kernel: mined.kernel,
    hashes: mined.hashes,
    callingThreadHashes: mined.callingThreadHashes,
    register: bytesToHex(register),
    transfer: bytesToHex(transfer),
    workerRate: rateMs > 0 ? await rateOfOneWorker(rateMs) : 0,
    userAgent: globalThis.navigator?.userAgent ?? '',
  };
}

/** Runs the wallet on a page: the outcome in #result, and POSTed to ?report=URL when the page's URL names one. */
export async function runWalletPage() {
  const out = document.getElementById('result');
  let report;
  try {
    report = { ok: true, ...(await runWallet()) };
  } catch (err) {
    report = { ok: false, code: err?.code, message: String(err?.message ?? err), details: err?.details };
  }
  if (out) out.textContent = JSON.stringify(report, null, 2);
  const to = new URLSearchParams(location.search).get('report');
  // text/plain: a simple request, so the reporting server may be on another origin.
  if (to) await fetch(to, { method: 'POST', body: JSON.stringify(report), headers: { 'content-type': 'text/plain' } });
  return report;
}
