// `node dist/bench/block-readers.js [--stalled 20] [--slow 8] [--seconds 20]`: a `tpkit node`
// process serving the largest block it allows (limits.maxBlockBytes of 62 KB transfers) to
// readers that never read and readers that read a little every 200 ms. Reported: how long
// /api/node/status takes meanwhile (median and worst of samples every 250 ms) and the node's
// RSS peak, with no readers and with them. Goal: status under 1 s, RSS under 400 MB.

import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bytesToBase64, hexToBytes } from '../src/bytes.js';
import { addressFromText } from '../src/codec/address.js';
import { genericBody } from '../src/codec/body-generic.js';
import { encodeTx } from '../src/codec/container.js';
import { signBsig } from '../src/crypto/bsig.js';
import { spawnBenchNode } from './spawn-node.js';

const { values } = parseArgs({ options: { stalled: { type: 'string', default: '20' }, slow: { type: 'string', default: '8' }, seconds: { type: 'string', default: '20' } } });
const STALLED = Number(values.stalled);
const SLOW = Number(values.slow);
const SECONDS = Number(values.seconds);

const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-readers-'));
const { child: proc, url } = await spawnBenchNode(['--port', '0', '--data-dir', dir, '--accounts', '2', '--difficulty', '0', '--mine-on-demand', '--fee', 'none', '--log-level', 'warn']);
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const post = (path: string, body: unknown) => fetch(url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

try {
  const accounts = (await (await fetch(`${url}/api/dev/accounts`)).json()).accounts as { address: string; secret_key: string }[];
  const key = hexToBytes(accounts[0].secret_key);
  const from = addressFromText(accounts[0].address);
  const to = addressFromText(accounts[1].address);
  const t = Date.now();
  let pendingBytes = 0;
  for (let seq = 1; pendingBytes < 4.5 * 2 ** 20; seq++) {
    const body = genericBody({ from, to, seq, timestamp: t + seq, payload: [{ purpose: 'transfer', currency: 'SK', amount: 1n }], extra: { msg: 'x'.repeat(62_000) } });
    const tx = encodeTx({ body, sigs: [signBsig(body, key, { timestamp: t + seq })] });
    await post('/api/tx/new', { tx: bytesToBase64(tx) });
    pendingBytes += tx.length;
  }
  const hash = (await (await post('/api/dev/mine', {})).json()).blocks[0].hash;
  const answerBytes = (await (await fetch(`${url}/api/block/${hash}`)).arrayBuffer()).byteLength;
  const txs = (await (await fetch(`${url}/api/blockinfo/${hash}`)).json()).block.txs_count;
  console.log(`largest block: ${txs} transactions, answer ${(answerBytes / 2 ** 20).toFixed(1)} MiB`);

  const sample = async (label: string) => {
    const times: number[] = [];
    let peak = 0;
    const until = performance.now() + SECONDS * 1000;
    while (performance.now() < until) {
      const began = performance.now();
      await (await fetch(`${url}/api/node/status`)).arrayBuffer();
      times.push(performance.now() - began);
      peak = Math.max(peak, rssMb());
      await new Promise((r) => setTimeout(r, 250));
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: /api/node/status median ${times[times.length >> 1].toFixed(1)} ms, worst ${times[times.length - 1].toFixed(1)} ms over ${times.length} samples; RSS peak ${peak.toFixed(0)} MB`,
    );
  };
  await sample('no readers');

  const { hostname, port } = new URL(url);
  const open = (): Socket => {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    socket.write(`GET /api/block/${hash} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    socket.pause();
    return socket;
  };
  const stalled = Array.from({ length: STALLED }, open);
  const slow = Array.from({ length: SLOW }, open);
  const pacer = setInterval(() => {
    for (const s of slow) {
      s.resume();
      setTimeout(() => s.pause(), 5);
    }
  }, 200);
  await sample(`${STALLED} stalled + ${SLOW} slow readers`);
  clearInterval(pacer);
  for (const s of [...stalled, ...slow]) s.destroy();
} finally {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('close', r));
  rmSync(dir, { recursive: true, force: true });
}
