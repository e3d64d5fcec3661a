// The wallet's work outside a browser, run as it is by Node, Deno and Bun: a new key, a
// registration mined at difficulty 16 with the package root's miner, the register
// transaction and a transfer signed, and the rate of one miner thread. Prints the same report
// as the wallet page (examples/wallet.js), which test/e2e checks.
//
//   node runtime/wallet.mjs      deno run -A runtime/wallet.mjs      bun runtime/wallet.mjs
import { bytesToHex, createMinerPool, closeSharedMinerPool, genericBody, generateSecretKey, mineRegister, publicKeyOf, signTx } from 'tpkit';

/** Hashes per second of one thread, warmed first (pool.warm), over `ms` from its first counted hashes at a difficulty never met. */
async function rateOfOneThread(ms) {
  const pool = createMinerPool(1);
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
    await pool.destroy();
  }
  const first = samples[0];
  const last = samples[samples.length - 1];
  return first && last && last.elapsedMs > first.elapsedMs ? ((last.hashes - first.hashes) / (last.elapsedMs - first.elapsedMs)) * 1000 : 0;
}

const rateMs = Number(process.env.RATE_MS ?? 1500);
let report;
try {
  const secretKey = generateSecretKey();
  const publicKey = publicKeyOf(secretKey);
  const mined = await mineRegister({ publicKeys: [publicKey], difficulty: 16 });
  const transfer = genericBody({
    from: 'AA100000001677721780',
    to: 'AA100000001677722185',
    seq: 1n,
    timestamp: Date.now(),
    payload: [
      { purpose: 'transfer', currency: 'SK', amount: 1000n },
      { purpose: 'srcfee', currency: 'SK', amount: 1n },
    ],
  });
  report = {
    ok: true,
    publicKey: bytesToHex(publicKey),
    body: bytesToHex(mined.body),
    kernel: mined.kernel,
    hashes: mined.hashes,
    callingThreadHashes: mined.callingThreadHashes,
    register: bytesToHex(signTx(mined.body, secretKey)),
    transfer: bytesToHex(signTx(transfer, secretKey)),
    workerRate: rateMs > 0 ? await rateOfOneThread(rateMs) : 0,
    userAgent: globalThis.navigator?.userAgent ?? `Node ${process.versions.node}`,
  };
} catch (err) {
  report = { ok: false, code: err?.code, message: String(err?.message ?? err), details: err?.details };
}
await closeSharedMinerPool();
console.log(JSON.stringify(report));
