// `node dist/bench/jsc-kernels.js [--bun PATH] [--engines node,bun,webkit] [--rounds 3] [--ms 1500]`:
// each WASM kernel's rate on one thread in Node, in Bun (JavaScriptCore) and in a Web Worker of
// WebKitGTK's MiniBrowser (JavaScriptCore) side by side: per round and kernel, the engines
// start hashing at the same wall-clock instant, so they share whatever else the machine does.
// Each engine runs the same file (kernel-probe.ts) on the same binaries. Then the engines at
// once, each on its fastest kernel (the per-thread comparison), and each engine's
// minerSupport(): the kernel 'auto' keeps there. Prints Markdown tables; a figure is the
// median over the rounds, a ratio the median of the rounds' ratios to Node.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCALAR_WASM_BASE64 } from '../src/wasm/scalar.generated.js';
import { SIMD_WASM_BASE64 } from '../src/wasm/simd.generated.js';
import { openEngine, type Engine } from '../test/helpers/browsers.js';
import { PROBE_KERNELS, type ProbeKernel, type ProbeResult } from './kernel-probe.js';

type EngineId = 'node' | 'bun' | 'webkit';
const { values } = parseArgs({
  options: {
    bun: { type: 'string', default: 'bun' },
    engines: { type: 'string', default: 'node,bun,webkit' },
    rounds: { type: 'string', default: '3' },
    ms: { type: 'string', default: '1500' },
  },
});
const engines = values.engines.split(',') as EngineId[];
const rounds = Number(values.rounds);
const ms = Number(values.ms);
if (!engines.includes('node') || engines.some((e) => !['node', 'bun', 'webkit'].includes(e))) throw new Error('--engines: node and any of bun, webkit');
if (!(rounds >= 1) || !(ms >= 200)) throw new Error('--rounds expected >= 1, --ms >= 200');

const here = fileURLToPath(new URL('.', import.meta.url));
const child = join(here, 'kernel-probe-child.js');
const browserDir = join(here, '..', 'browser');

// Each child in a session of its own (detached): with Linux's autogroup scheduling the CPU is
// shared between sessions first, so two engines in one session would get half the share of
// MiniBrowser, which the WebKit driver starts in a session of its own.
function runChild(exe: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(exe, [child, ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let out = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').pop()!) : reject(new Error(`${exe} exited with ${code}: ${stderr}`))));
  });
}

// The page's side: a module Web Worker runs kernel-probe.js and the page posts its answer back.
const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
const q = new URLSearchParams(location.search);
const post = (body) => fetch('/report', { method: 'POST', body: JSON.stringify(body) });
if (q.get('kernel') === 'auto') {
  import('/browser/tpkit.js').then((t) => t.minerSupport({ measureMs: 1000 }))
    .then((s) => post({ kernel: s.kernel, rates: s.rates }), (e) => post({ error: String(e) }));
} else {
  const worker = new Worker('/probe-worker.js', { type: 'module' });
  worker.onmessage = (e) => post(e.data);
  worker.onerror = (e) => post({ error: e.message });
  worker.postMessage({ kernel: q.get('kernel'), at: Number(q.get('at')), ms: Number(q.get('ms')) });
}
</script>`;
const WORKER = `import { probeRate } from '/kernel-probe.js';
onmessage = async (e) => {
  try {
    const [scalar, simd] = await Promise.all(['/scalar.wasm', '/simd.wasm'].map((u) => fetch(u).then((r) => r.arrayBuffer())));
    postMessage(await probeRate({ scalar, simd }, e.data.kernel, e.data.at, e.data.ms));
  } catch (err) {
    postMessage({ error: String(err) });
  }
};`;
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

let reportWaiter: ((body: string) => void) | undefined;
const server = createServer((req, res: ServerResponse) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  if (req.method === 'POST' && path === '/report') {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.writeHead(204).end();
      reportWaiter?.(body);
    });
  } else if (path === '/') send(TYPES['.html'], PAGE);
  else if (path === '/probe-worker.js') send(TYPES['.js'], WORKER);
  else if (path === '/kernel-probe.js') send(TYPES['.js'], readFileSync(join(here, 'kernel-probe.js')));
  else if (path === '/scalar.wasm') send(TYPES['.wasm'], Buffer.from(SCALAR_WASM_BASE64, 'base64'));
  else if (path === '/simd.wasm') send(TYPES['.wasm'], Buffer.from(SIMD_WASM_BASE64, 'base64'));
  else if (path.startsWith('/browser/')) {
    const file = normalize(join(browserDir, path.slice('/browser/'.length)));
    if (!file.startsWith(browserDir)) res.writeHead(404).end();
    else send(TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  } else res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const webkit: Engine | undefined = engines.includes('webkit') ? await openEngine('webkit') : undefined;
// Interrupted: close MiniBrowser and its Xvfb, which live in a process group of their own.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void webkit?.close().finally(() => process.exit(130)));

async function inPage(query: string): Promise<string> {
  const report = new Promise<string>((resolve) => (reportWaiter = resolve));
  await webkit!.open(`${origin}/?${query}`);
  const body = await report;
  if (JSON.parse(body).error) throw new Error(`webkit: ${JSON.parse(body).error}`);
  return body;
}

function measure(engine: EngineId, kernel: ProbeKernel, at: number): Promise<ProbeResult> {
  const args = [kernel, String(at), String(ms)];
  const out = engine === 'webkit' ? inPage(new URLSearchParams({ kernel, at: String(at), ms: String(ms) }).toString()) : runChild(engine === 'node' ? process.execPath : values.bun, args);
  return out.then((text) => JSON.parse(text) as ProbeResult);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rates = new Map<string, number[]>();
const ratios = new Map<string, number[]>();
const push = (map: Map<string, number[]>, key: string, value: number) => map.set(key, [...(map.get(key) ?? []), value]);
const loads: number[] = [loadavg()[0]];
let late = 0;
const autoRows: string[] = [];
/** Each engine's fastest kernel (median rate above), and the rounds with all of them at once. */
const best = new Map<EngineId, ProbeKernel>();
const bestRounds: number[][] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const nodeRound: Partial<Record<ProbeKernel, number>> = {};
    const otherRound = new Map<string, number>();
    for (const kernel of PROBE_KERNELS) {
      // Time for MiniBrowser to load the page and the worker to compile and warm up.
      const at = Date.now() + (webkit ? 5000 : 1500);
      const results = await Promise.all(engines.map((engine) => measure(engine, kernel, at)));
      results.forEach((result, i) => {
        push(rates, `${engines[i]} ${kernel}`, result.rate);
        if (result.lateMs > 50) late++;
        if (i === 0) nodeRound[kernel] = result.rate;
        else otherRound.set(`${engines[i]} ${kernel}`, result.rate);
      });
      console.error(`round ${round} ${kernel.padEnd(8)} ${results.map((r, i) => `${engines[i]} ${(r.rate / 1e6).toFixed(2)} MH/s`).join('  ')}`);
    }
    const nodeBest = Math.max(...Object.values(nodeRound));
    for (const [key, rate] of otherRound) {
      push(ratios, key, rate / nodeRound[key.split(' ')[1] as ProbeKernel]!);
      push(ratios, `${key} best`, rate / nodeBest);
    }
    loads.push(loadavg()[0]);
  }

  // Then each engine on its own fastest kernel, at the same instant: one engine's best against
  // Node's best, not across the moments of the rounds above.
  for (const engine of engines) {
    const ranked = [...PROBE_KERNELS].sort((a, b) => median(rates.get(`${engine} ${b}`)!) - median(rates.get(`${engine} ${a}`)!));
    best.set(engine, ranked[0]);
  }
  for (let round = 1; round <= rounds; round++) {
    const at = Date.now() + (webkit ? 5000 : 1500);
    const results = await Promise.all(engines.map((engine) => measure(engine, best.get(engine)!, at)));
    bestRounds.push(results.map((r) => r.rate));
    console.error(`best ${round} ${results.map((r, i) => `${engines[i]} ${best.get(engines[i])} ${(r.rate / 1e6).toFixed(2)} MH/s`).join('  ')}`);
  }

  for (const engine of engines) {
    const text = engine === 'webkit' ? await inPage('kernel=auto') : await runChild(engine === 'node' ? process.execPath : values.bun, ['auto']);
    const auto = JSON.parse(text) as { kernel: string; rates: Record<string, number> };
    const seen = Object.entries(auto.rates)
      .map(([name, rate]) => `${name} ${(rate / 1e6).toFixed(2)}`)
      .join(', ');
    autoRows.push(`| ${engine} | ${auto.kernel} | ${((auto.rates[auto.kernel] ?? 0) / 1e6).toFixed(2)} | ${seen} |`);
  }
} finally {
  await webkit?.close();
  server.close();
}

const others = engines.slice(1);
const mh = (key: string) => (median(rates.get(key)!) / 1e6).toFixed(2);
const cell = (engine: string, kernel: string) =>
  `${mh(`${engine} ${kernel}`)} (${median(ratios.get(`${engine} ${kernel}`)!).toFixed(2)}× / ${median(ratios.get(`${engine} ${kernel} best`)!).toFixed(2)}×)`;
console.log(`One thread each, ${rounds} rounds of ${ms} ms, MH/s; in brackets: × Node's rate on the same kernel / × Node's best kernel in that round.`);
console.log(`Load average (1 min) ${loads.map((l) => l.toFixed(1)).join(' → ')}${late ? `; ${late} measurements started over 50 ms late` : ''}.\n`);
console.log(`| kernel | node | ${others.join(' | ')} |`);
console.log(`|---|---|${others.map(() => '---').join('|')}|`);
for (const kernel of PROBE_KERNELS) console.log(`| ${kernel} | ${mh(`node ${kernel}`)} | ${others.map((e) => cell(e, kernel)).join(' | ')} |`);
const bestCell = (i: number) => {
  const rate = median(bestRounds.map((r) => r[i]));
  const ratio = i === 0 ? '' : ` (${median(bestRounds.map((r) => r[i] / r[0])).toFixed(2)}×)`;
  return `${best.get(engines[i])} ${(rate / 1e6).toFixed(2)}${ratio}`;
};
console.log(`| each its fastest, at once | ${engines.map((_, i) => bestCell(i)).join(' | ')} |`);
console.log(`\nWhat 'auto' keeps (minerSupport({ measureMs: 1000 }) on the calling thread, the engines in turn; MH/s on one thread):\n`);
console.log('| engine | kernel | its rate | every kernel it ran |\n|---|---|---|---|');
console.log(autoRows.join('\n'));
