import http from 'node:http';
import { chromium } from 'playwright-core';
import { createStaticHandler, ISOLATION_HEADERS } from '../dist/src/node/static.js';
const files = createStaticHandler([{ prefix: '/new/', dir: 'dist/browser' }]);
const iso = process.argv[2] !== 'plain';
const server = http.createServer(async (req, res) => {
  if (req.url.startsWith('/p.html')) { res.writeHead(200, { 'content-type': 'text/html', ...(iso ? ISOLATION_HEADERS : {}) }); res.end(`<!doctype html><script type="module">
   const t = await import('/new/tpkit.js'); const imported = performance.now();
   const key = t.hexToBytes(new URLSearchParams(location.search).get('key'));
   const pk = t.publicKeyOf(key); const keyed = performance.now();
   const base = t.sharedWebMinerPool(); const ev = [];
   const pool = { threads: base.threads, run(task) { ev.push(['post', performance.now()]); const c = new Int32Array(task.control); let seen = 0;
     const iv = setInterval(() => { const v = Atomics.load(c, 1); if (v > seen) { seen = v; ev.push(['started' + v, performance.now()]); } if (Atomics.load(c, 0) !== 0) clearInterval(iv); }, 1);
     return base.run(task).finally(() => { clearInterval(iv); ev.push(['ret', performance.now()]); }); } };
   const m = await t.mineRegister({ publicKeys: [pk], difficulty: 16, timestamp: 1800000000000, pool });
   globalThis.r = { imported, keyed, ev, done: performance.now(), hashes: m.hashes, page: m.callingThreadHashes, searchMs: m.searchMs, byKernel: m.byKernel };</script>`); return; }
  if (!(await files(req, res, req.url))) { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext(); const p = await ctx.newPage();
  await p.goto(`http://127.0.0.1:${server.address().port}/p.html?key=${'11'.repeat(31)}${(i + 16).toString(16)}`);
  const r = await (await p.waitForFunction(() => globalThis.r)).jsonValue();
  console.log(Math.round(r.imported), Math.round(r.keyed), r.ev.map(([k, v]) => `${k}@${Math.round(v)}`).join(' '), 'done@' + Math.round(r.done), r.hashes, r.page, JSON.stringify(r.byKernel));
  await ctx.close();
}
await browser.close(); server.close();
