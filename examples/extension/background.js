// The background service worker: answers { type: 'register' } by mining and signing here,
// with no page open. A service worker cannot start Web Workers, so the miner runs on this
// thread, in slices.
import { runWallet } from '../wallet.js';

chrome.runtime.onMessage.addListener((message, _sender, reply) => {
  if (message?.type !== 'register') return false;
  runWallet({ rateMs: 0 }).then(
    (report) => reply({ ok: true, report }),
    (err) => reply({ ok: false, code: err?.code, message: String(err?.message ?? err), details: err?.details }),
  );
  return true; // the reply comes later
});
