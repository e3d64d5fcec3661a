// The tiny wallet page every bundler example builds: a new key, a registration mined at the
// network's difficulty (16) on the page's miner, the register transaction and a transfer
// signed with the key, and the miner's rate on one worker. It shows the result on the page;
// with ?report=URL it also POSTs it there (test/e2e checks it).
import { createWebMinerPool, genericBody, generateSecretKey, mineRegister, publicKeyOf, signTx, bytesToHex } from 'tpkit/browser';

/** Hashes per second of one worker, warmed first (pool.warm), over `ms` from its first counted hashes at a difficulty never met. */
async function rateOfOneWorker(ms) {
  const pool = createWebMinerPool(1);
  const stop = new AbortController();
  const samples = [];
  // `ms` from the first hashes counted, so a slow start does not eat the window; 60 s at most.
  const cap = setTimeout(() => stop.abort(), 60_000);
  const onProgress = (p) => {
    if (p.hashes > 0 && samples.length === 0) setTimeout(() => stop.abort(), ms);
    if (p.hashes > 0) samples.push(p);
  };
  try {
    await pool.warm();
    await mineRegister({ publicKeys: [new Uint8Array(33).fill(2)], difficulty: 64, pool, callingThread: false, signal: stop.signal, onProgress });
  } catch (err) {
    if (err.code !== 'ABORTED') throw err;
  } finally {
    clearTimeout(cap);
    pool.terminate();
  }
  const first = samples[0];
  const last = samples[samples.length - 1];
  return first && last && last.elapsedMs > first.elapsedMs ? ((last.hashes - first.hashes) / (last.elapsedMs - first.elapsedMs)) * 1000 : 0;
}

/** The wallet's work; `rateMs` of one-worker hashing afterwards (0: none). */
export async function runWallet({ rateMs = 1500 } = {}) {
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
      payload: [
        { purpose: 'transfer', currency: 'SK', amount: 1000n },
        { purpose: 'srcfee', currency: 'SK', amount: 1n },
      ],
    }),
    secretKey,
  );
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

/** Shows what `work` returns (or why it failed) in #result, and POSTs it to ?report=URL when the page's URL names one. */
export async function showReport(work) {
  let report;
  try {
    report = { ok: true, ...(await work()) };
  } catch (err) {
    report = { ok: false, code: err?.code, message: String(err?.message ?? err), details: err?.details };
  }
  const out = document.getElementById('result');
  if (out) out.textContent = JSON.stringify(report, null, 2);
  const to = new URLSearchParams(location.search).get('report');
  // text/plain: a simple request, so the reporting server may be on another origin.
  if (to) await fetch(to, { method: 'POST', body: JSON.stringify(report), headers: { 'content-type': 'text/plain' } });
  return report;
}

/** The wallet on a page (?rateMs=N sets the rate's measuring time). */
export function runWalletPage() {
  const rateMs = Number(new URLSearchParams(location.search).get('rateMs') ?? 1500);
  return showReport(() => runWallet({ rateMs }));
}
