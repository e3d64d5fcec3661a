// `node dist/bench/js-kernel-hosts.js [--ms 400] [--rounds 5] [--workerd PATH]`: the pure-JS
// mining kernel against the one it replaced (bench/js-kernel.ts's pair, bundled with esbuild)
// in WebKitGTK (MiniBrowser over WebKitWebDriver; JSC_useJIT=0 in the environment turns its
// JIT off) and in workerd. workerd's clocks stand still while a request computes, so there
// the bench asks for a fixed nonce range per request and times it from outside, minus an
// empty request. Printed: each kernel's median MH/s and their ratio, 80- and 200-byte bodies.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { openEngine } from '../test/helpers/browsers.js';

const { values } = parseArgs({ options: { ms: { type: 'string', default: '400' }, rounds: { type: 'string', default: '5' }, workerd: { type: 'string' } } });
const [ms, rounds] = [Number(values.ms), Number(values.rounds)];
const dir = mkdtempSync(join(tmpdir(), 'tpkit-js-kernel-hosts-'));
const hasher = fileURLToPath(new URL('../src/pow/sha512-nonce.js', import.meta.url));
const noble = fileURLToPath(import.meta.resolve('@noble/hashes/sha2.js'));

/** Both kernels, as bench/js-kernel.ts has them: the old one hashes the whole body per nonce with @noble/hashes. */
const KERNELS = `
import { NonceHasher } from ${JSON.stringify(hasher)};
import { sha512 } from ${JSON.stringify(noble)};
export function kernel(name, body) {
  if (name === 'new') {
    const h = new NonceHasher(body);
    return (low) => h.zeroBits(0, low, 32) >= 32;
  }
  const copy = body.slice();
  const view = new DataView(copy.buffer);
  return (low) => {
    view.setUint32(copy.length - 4, low);
    const h = sha512(copy);
    return h[0] === 0 && h[1] === 0 && h[2] === 0 && h[3] === 0;
  };
}
export const bodyOf = (size) => new Uint8Array(size).map((_, i) => (i * 151 + 7) & 0xff);
`;

/** The page: rounds alternate old and new, timed with performance.now(); the first is not counted. */
const PAGE = `
import { kernel, bodyOf } from './kernels.js';
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const out = {};
for (const size of [80, 200]) {
  const body = bodyOf(size);
  const rates = { old: [], new: [] };
  const kernels = { old: kernel('old', body), new: kernel('new', body) };
  let low = 0;
  for (let r = 0; r <= ${rounds}; r++) for (const name of ['old', 'new']) {
    const hash = kernels[name];
    let n = 0;
    const began = performance.now();
    let now = began;
    while (now - began < ${ms}) { for (let i = 0; i < 64; i++) hash(low++ >>> 0); n += 64; now = performance.now(); }
    if (r > 0) rates[name].push(n / (now - began) / 1000);
  }
  out[size] = { old: median(rates.old), new: median(rates.new) };
}
fetch('/result', { method: 'POST', body: JSON.stringify(out) });
`;

/** The worker: hashes ?n nonces from ?start with ?kernel on a ?size body. */
const WORKER = `
import { kernel, bodyOf } from './kernels.js';
export default { async fetch(request) {
  const q = new URL(request.url).searchParams;
  const hash = kernel(q.get('kernel'), bodyOf(Number(q.get('size'))));
  const [n, start] = [Number(q.get('n')), Number(q.get('start'))];
  let found = 0;
  for (let i = 0; i < n; i++) if (hash((start + i) >>> 0)) found++;
  return new Response(String(found));
} };
`;

type Rates = Record<'80' | '200', { old: number; new: number }>;

async function bundle(name: string, source: string, format: 'iife' | 'esm'): Promise<string> {
  writeFileSync(join(dir, 'kernels.js'), KERNELS);
  writeFileSync(join(dir, `${name}-entry.js`), source);
  const outfile = join(dir, `${name}.js`);
  await build({ entryPoints: [join(dir, `${name}-entry.js`)], bundle: true, format, outfile, logLevel: 'error' });
  return outfile;
}

function print(host: string, rates: Rates, load: string): void {
  for (const size of ['80', '200'] as const) {
    const { old, new: fresh } = rates[size];
    console.log(`${host.padEnd(34)} ${`${size} B`.padStart(5)}  ${old.toFixed(4).padStart(8)}  ${fresh.toFixed(4).padStart(8)}  ${(fresh / old).toFixed(2).padStart(6)}x  load ${load}`);
  }
}

async function webkit(): Promise<void> {
  const script = readFileSync(await bundle('page', PAGE, 'iife'));
  let done!: (r: Rates) => void;
  const result = new Promise<Rates>((resolve) => (done = resolve));
  const server = createServer((req, res) => {
    if (req.url === '/result') {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => (res.end(), done(JSON.parse(text) as Rates)));
    } else if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const load = loadavg()[0].toFixed(1);
  const engine = await openEngine('webkit');
  try {
    await engine.open(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    print(`${engine.version}${process.env.JSC_useJIT === '0' ? ' JSC_useJIT=0' : ''}`, await result, `${load}-${loadavg()[0].toFixed(1)}`);
  } finally {
    await engine.close();
    server.close();
  }
}

async function workerd(path: string): Promise<void> {
  await bundle('worker', WORKER, 'esm');
  const port = 20_000 + (process.pid % 20_000);
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [(name = "main", worker = .w)], sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")]);
const w :Workerd.Worker = (modules = [(name = "worker.js", esModule = embed "worker.js")], compatibilityDate = "2024-09-01");
`,
  );
  const child = spawn(path, ['serve', join(dir, 'config.capnp')], { stdio: 'ignore' });
  const time = async (query: string): Promise<number> => {
    const began = performance.now();
    await (await fetch(`http://127.0.0.1:${port}/?${query}`)).text();
    return performance.now() - began;
  };
  try {
    for (let waited = 0; ; waited += 100) {
      const up = await time('kernel=new&size=80&n=0&start=0').then(
        () => true,
        () => false,
      );
      if (up) break;
      if (waited > 20_000) throw new Error(`${path} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const load = loadavg()[0].toFixed(1);
    // About `ms` per request at the rates measured so far (old ~0.2, new ~0.5 MH/s).
    const count = { old: Math.round(ms * 50), new: Math.round(ms * 100) };
    const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
    const rates = {} as Rates;
    let start = 0;
    for (const size of ['80', '200'] as const) {
      const seen = { old: [] as number[], new: [] as number[] };
      for (let r = 0; r <= rounds; r++) {
        for (const name of ['old', 'new'] as const) {
          const empty = await time(`kernel=${name}&size=${size}&n=0&start=0`);
          const took = await time(`kernel=${name}&size=${size}&n=${count[name]}&start=${start}`);
          start += count[name];
          if (r > 0) seen[name].push(count[name] / (took - empty) / 1000);
        }
      }
      rates[size] = { old: median(seen.old), new: median(seen.new) };
    }
    print(`workerd ${path}`, rates, `${load}-${loadavg()[0].toFixed(1)}`);
  } finally {
    child.kill();
  }
}

console.log('host                                body    old MH/s  new MH/s  new/old');
try {
  await webkit();
  if (values.workerd) await workerd(values.workerd);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
