import http from 'node:http';
import { chromium } from 'playwright-core';
import { createStaticHandler, ISOLATION_HEADERS } from '../dist/src/node/static.js';
const files = createStaticHandler([{ prefix: '/new/', dir: 'dist/browser' }, { prefix: '/old/', dir: '/tmp/i22b/baseline-browser' }, { prefix: '/nomap/', dir: '/tmp/i22b/nomap' }]);
const seen = [];
const server = http.createServer(async (req, res) => {
  seen.push(req.url);
  const m = /^\/(new|old|nomap)\/p\.html/.exec(req.url);
  if (m) { res.writeHead(200, { 'content-type': 'text/html', ...ISOLATION_HEADERS }); res.end(`<!doctype html><script type="module">
   const a = performance.now(); const t = await import('/${m[1]}/tpkit.js'); const b = performance.now();
   const e = performance.getEntriesByType('resource').find(x => x.name.endsWith('tpkit.js'));
   globalThis.r = { start: a, responseEnd: e.responseEnd, imported: b };</script>`); return; }
  if (!(await files(req, res, req.url))) { res.writeHead(404); res.end(); }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const out = { new: [], old: [], nomap: [] };
for (let i = 0; i < 15; i++) for (const b of ['new', 'old', 'nomap']) {
  const ctx = await browser.newContext(); const p = await ctx.newPage();
  await p.goto(`http://127.0.0.1:${server.address().port}/${b}/p.html`);
  const r = await (await p.waitForFunction(() => globalThis.r)).jsonValue();
  out[b].push(r);
  await ctx.close();
}
const med = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
for (const [b, rs] of Object.entries(out)) console.log(b, 'start', med(rs.map(r => r.start)).toFixed(0), 'fetch', med(rs.map(r => r.responseEnd - r.start)).toFixed(0), 'eval', med(rs.map(r => r.imported - r.responseEnd)).toFixed(0), 'total', med(rs.map(r => r.imported)).toFixed(0));
console.log(seen.filter(u => u.includes('.map')).length, 'map requests');
await browser.close(); server.close();
