// `node dist/bench/browser-first-proof.js [--rounds N] [--baseline DIR] [--warm]`: what a
// wallet page waits for, in headless Chromium, cold every time (a new browser context: no
// HTTP cache, no compiled code, no workers).
//
// 1. Navigation to a signed diff-16 registration: a page imports the bundle, derives the
//    public key, mines a register body at difficulty 16 with the defaults and signs it
//    (round r mines the same body in every build); the figure is the page's clock
//    (performance.now(), which starts at navigation) when the signed transaction exists.
//    Also as a page whose HTML preloads the bundle and the scalar kernel (the browser guide's
//    page), and as one that calls warm() as soon as the bundle is in (the registration then
//    preempts it). Cross-origin isolated and not. With --baseline DIR (an older
//    dist/browser), that build runs too; the variants take turns going first.
// 2. First solves: three diff-20 solves on one worker in a fresh page, against three on one
//    worker thread in a fresh Node process, alternating; rate = hashes / search time (the
//    results' searchMs), as a ratio. Goal: >= 0.9x. With --warm, both sides first call the
//    pool's warm() and the solves start after it. With --settle MS the page waits MS after
//    its load event before the solves (the browser's own start-up work is then done).
//    --chromium-flag SWITCH (repeatable) passes a switch to Chromium.
//
// Everything is served by one local HTTP server on port 0 with the node's static handler.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createStaticHandler, ISOLATION_HEADERS, type StaticRoot } from '../src/node/http/static.js';
import { CHROMIUM_FLAGS, requireChromium } from '../test/helpers/browser-harness.js';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    baseline: { type: 'string' },
    warm: { type: 'boolean', default: false },
    'skip-navigation': { type: 'boolean', default: false },
    'skip-solves': { type: 'boolean', default: false },
    settle: { type: 'string', default: '0' },
    'chromium-flag': { type: 'string', multiple: true, default: [] },
  },
});
const rounds = Number(values.rounds);
/** --settle MS: the solves page waits this long after its load before it mines (Chromium's own start-up work then is over). */
const settleMs = Number(values.settle);
if (!(settleMs >= 0)) throw new Error('--settle expected a number of milliseconds >= 0');
if (!(rounds >= 1)) throw new Error('--rounds expected >= 1');

const dist = fileURLToPath(new URL('../', import.meta.url));
const roots: StaticRoot[] = [{ prefix: '/new/', dir: `${dist}browser` }];
if (values.baseline) roots.push({ prefix: '/old/', dir: values.baseline });
const files = createStaticHandler(roots);

/**
 * Pages: /<build>/<isolated|plain>/register.html and /new/<isolated|plain>/solves.html;
 * with `preload`, the HTML asks for the bundle and the page thread's kernel at once, as the
 * the browser guide's page does.
 */
function page(build: string, kind: string, preload = false): string {
  const bundle = `/${build}/tpkit.js`;
  if (kind === 'register.html') {
    const links = preload ? `<link rel="modulepreload" href="${bundle}"><link rel="preload" href="/${build}/tpkit-scalar.wasm" as="fetch" crossorigin>` : '';
    return `<!doctype html><meta charset="utf-8"><title>register</title>${links}<script type="module">
      const t = await import('${bundle}');
      const imported = performance.now();
      const query = new URLSearchParams(location.search);
      // As a wallet page that follows the browser guide: warm the miner as soon as the bundle is in.
      if (query.has('warm')) t.sharedWebMinerPool().warm().catch(() => {});
      const key = t.hexToBytes(query.get('key'));
      const timestamp = Number(query.get('t'));
      const publicKey = t.publicKeyOf(key);
      const keyed = performance.now();
      const mined = await t.mineRegister({ publicKeys: [publicKey], difficulty: 16, timestamp });
      const minedAt = performance.now();
      const tx = t.signTx(mined.body, key);
      const html = performance.getEntriesByType('navigation')[0]?.responseEnd ?? 0;
      const loaded = (name) => performance.getEntriesByType('resource').find((e) => e.name.endsWith(name))?.responseEnd ?? 0;
      const assets = { worker: loaded('miner-worker.js'), simd: loaded('tpkit-simd.wasm'), scalar: loaded('tpkit-scalar.wasm') };
      globalThis.result = { html, imported, keyed, assets, pageHashes: mined.callingThreadHashes ?? 0, mined: minedAt, signed: performance.now(), hashes: mined.hashes, txBytes: tx.length };
    </script>`;
  }
  return `<!doctype html><meta charset="utf-8"><title>solves</title><script type="module">
    globalThis.solves = async (warm) => {
      const t = await import('${bundle}');
      const pool = t.createWebMinerPool(1);
      if (warm) await pool.warm();
      let hashes = 0, searchMs = 0;
      for (let i = 0; i < 3; i++) {
        const r = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 20, pool });
        hashes += r.hashes; searchMs += r.searchMs;
      }
      pool.terminate();
      return { hashes, searchMs };
    };
  </script>`;
}

const server = http.createServer(async (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const m = /^\/(new|old)\/(isolated|plain)\/(register|solves)\.html$/.exec(path);
  if (m) {
    const body = page(m[1], `${m[3]}.html`, new URL(req.url ?? '/', 'http://x').searchParams.has('preload'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...(m[2] === 'isolated' ? ISOLATION_HEADERS : {}) });
    res.end(body);
    return;
  }
  if (!(await files(req, res, path))) {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
// --chromium-flag adds a switch, e.g. --chromium-flag=--js-flags=--no-liftoff (every WASM function optimized from the start).
const browser = await chromium.launch({ executablePath: requireChromium(), args: [...CHROMIUM_FLAGS, ...(values['chromium-flag'] ?? [])], headless: true });

interface Navigation {
  /** The HTML received (the navigation entry's responseEnd). */
  html: number;
  imported: number;
  /** The public key derived (the curve's first use builds its tables). */
  keyed: number;
  mined: number;
  /** Hashes done by the page's own thread. */
  pageHashes: number;
  /** When the worker script and the .wasm files had arrived (0: not fetched by the page). */
  assets: { worker: number; simd: number; scalar: number };
  signed: number;
  hashes: number;
}

/** One cold navigation: a new context (empty cache), the page, its result. */
/**
 * `variant`: 'new', 'new+warm' (the page calls warm() at load), 'new+preload' (its HTML
 * preloads the bundle and the scalar kernel) or 'old' (the baseline).
 */
async function navigate(variant: string, isolation: string, round: number): Promise<Navigation> {
  const build = variant.startsWith('new') ? 'new' : 'old';
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (err) => errors.push(err.message));
    // Round r mines the same body in every build: same key, same timestamp.
    const key = createHash('sha256').update(`browser-first-proof ${round}`).digest('hex');
    await tab.goto(
      `${origin}/${build}/${isolation}/register.html?key=${key}&t=${1_800_000_000_000 + round}${variant.endsWith('+warm') ? '&warm' : ''}${variant.endsWith('+preload') ? '&preload' : ''}`,
    );
    const result = await tab.waitForFunction(() => (globalThis as unknown as { result?: Navigation }).result, undefined, { timeout: 60_000 });
    if (errors.length) throw new Error(errors.join('; '));
    return (await result.jsonValue()) as Navigation;
  } finally {
    await context.close();
  }
}

async function browserSolves(warm: boolean): Promise<{ hashes: number; searchMs: number }> {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    await tab.goto(`${origin}/new/isolated/solves.html`);
    await tab.waitForFunction(() => typeof (globalThis as unknown as { solves?: unknown }).solves === 'function');
    if (settleMs > 0) await tab.waitForTimeout(settleMs);
    return await tab.evaluate((w) => (globalThis as unknown as { solves: (w: boolean) => Promise<{ hashes: number; searchMs: number }> }).solves(w), warm);
  } finally {
    await context.close();
  }
}

/** Three diff-20 solves on one worker thread in a fresh Node process. */
function nodeSolves(warm: boolean): { hashes: number; searchMs: number } {
  const entry = new URL('../src/index.js', import.meta.url).href;
  const script = `
    const t = await import(${JSON.stringify(entry)});
    const pool = t.createMinerPool(1);
    if (${warm}) {
      if (typeof pool.warm !== 'function') throw new Error('this Node pool has no warm()');
      await pool.warm();
    }
    let hashes = 0, searchMs = 0;
    for (let i = 0; i < 3; i++) {
      const r = await t.mineRegister({ publicKeys: [t.publicKeyOf(t.generateSecretKey())], difficulty: 20, pool });
      hashes += r.hashes; searchMs += r.searchMs;
    }
    await pool.destroy();
    console.log(JSON.stringify({ hashes, searchMs }));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`node solves failed (status ${out.status}, signal ${out.signal}): ${out.stderr}${out.error?.message ?? ''}`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as { hashes: number; searchMs: number };
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x: number) => `${x.toFixed(0)} ms`;

console.log(`browser-first-proof ${new Date().toISOString().slice(0, 10)}: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} logical cores`);
console.log(
  `Chromium ${browser.version()} headless, Node ${process.version}; ${rounds} rounds, every page in a new browser context; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);

try {
  if (!values['skip-navigation']) {
    const builds = ['new', 'new+preload', 'new+warm', ...(values.baseline ? ['old'] : [])];
    console.log('Cold navigation to a signed diff-16 registration (page clock from navigation start; median, p90; medians of the HTML received, bundle imported, nonce found):');
    for (const isolation of ['isolated', 'plain']) {
      const runs: Record<string, Navigation[]> = Object.fromEntries(builds.map((b) => [b, []]));
      for (let r = 0; r < rounds; r++) {
        // Rotate which goes first: the first page of a round meets a different machine.
        const order = builds.map((_, i) => builds[(i + r) % builds.length]);
        for (const build of order) runs[build].push(await navigate(build, isolation, r));
      }
      for (const build of builds) {
        const list = runs[build];
        const signed = list.map((x) => x.signed);
        const names: Record<string, string> = { new: 'this build', 'new+preload': 'this build, HTML preloads', 'new+warm': 'this build, warm() at load', old: 'baseline' };
        const name = names[build];
        const label = `${name}, ${isolation === 'isolated' ? 'isolated' : 'not isolated'}`;
        console.log(
          `  ${label.padEnd(38)} median ${ms(quantile(signed, 0.5))}, p90 ${ms(quantile(signed, 0.9))}` +
            `  (html ${ms(
              quantile(
                list.map((x) => x.html),
                0.5,
              ),
            )}, import ${ms(
              quantile(
                list.map((x) => x.imported),
                0.5,
              ),
            )}, key ${ms(
              quantile(
                list.map((x) => x.keyed),
                0.5,
              ),
            )}, mined ${ms(
              quantile(
                list.map((x) => x.mined),
                0.5,
              ),
            )}, ` +
            `median ${quantile(
              list.map((x) => x.hashes),
              0.5,
            )} hashes, ${quantile(
              list.map((x) => x.pageHashes),
              0.5,
            )} on the page's thread; ` +
            `arrived: miner-worker.js ${ms(
              quantile(
                list.map((x) => x.assets.worker),
                0.5,
              ),
            )}, scalar .wasm ${ms(
              quantile(
                list.map((x) => x.assets.scalar),
                0.5,
              ),
            )}, SIMD .wasm ${ms(
              quantile(
                list.map((x) => x.assets.simd),
                0.5,
              ),
            )})`,
        );
      }
    }
    console.log('  goal: this build, median <= 400 ms\n');
  }
  if (!values['skip-solves']) {
    const warm = values.warm;
    console.log(
      `First solves: three diff-20 solves on one worker${warm ? ', after pool.warm()' : ', no warm-up'}${settleMs > 0 ? `, the page mining ${settleMs} ms after its load` : ''}; hashes / search time`,
    );
    const ratios: number[] = [];
    const nodeRates: number[] = [];
    const pageRates: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const first = r % 2 === 0;
      const a = first ? nodeSolves(warm) : await browserSolves(warm);
      const b = first ? await browserSolves(warm) : nodeSolves(warm);
      const [n, p] = first ? [a, b] : [b, a];
      const nodeRate = (n.hashes / n.searchMs) * 1000;
      const pageRate = (p.hashes / p.searchMs) * 1000;
      nodeRates.push(nodeRate);
      pageRates.push(pageRate);
      ratios.push(pageRate / nodeRate);
    }
    const mhs = (x: number) => `${(x / 1e6).toFixed(2)} MH/s`;
    console.log(`  Node ${mhs(quantile(nodeRates, 0.5))}, Chromium ${mhs(quantile(pageRates, 0.5))} (medians)`);
    console.log(`  page / Node per round: ${ratios.map((x) => x.toFixed(2)).join(' ')}; median ${quantile(ratios, 0.5).toFixed(2)}x, goal >= 0.90x`);
  }
  console.log(
    `\nload average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await browser.close();
  server.close();
}
