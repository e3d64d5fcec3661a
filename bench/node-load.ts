// Load test of the local node: pre-signed transfers from many funded wallets, sent over HTTP/1.1
// keep-alive on loopback with fixed concurrency (a lean client, bench/node-load-client.ts), next to the signature-verification ceiling
// measured in the same run. Reports accepted tx/s, included tx/s, submit latency p50/p99.
//
// Run: npm run build:ts && node dist/bench/node-load.js [--txs 60000] [--wallets 400]
//      [--concurrency 64] [--block-time 250 | --instant] [--memory] [--watchers N] [--node-flag --cpu-prof]
//      [-- <more tpkit node flags>]
//
// The node runs as a child process (`tpkit node`), the generator in this one: on a 2-core
// machine they share the cores, as a wallet backend and its node would.

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToBase64, bytesToHex } from '../src/bytes.js';
import { makeAddress } from '../src/codec/address.js';
import { genericBody } from '../src/codec/body-generic.js';
import { encodeTx } from '../src/codec/container.js';
import { decodeBsig } from '../src/crypto/bsig-tlv.js';
import { bsigDigest, signBsig, verifyDecodedBsig } from '../src/crypto/bsig.js';
import WebSocket from 'ws';
import { postRequest, RawConnection } from './node-load-client.js';
import { nativeSigner, nativeVerifyDigest } from './node-load-native.js';
import { spawnBenchNode } from './spawn-node.js';

interface Options {
  txs: number;
  wallets: number;
  concurrency: number;
  blockTime: number;
  instant: boolean;
  memory: boolean;
  extraNodeArgs: string[];
  /** Live-stream clients subscribed to full blocks and every transaction result during the run. */
  watchers: number;
  /** Flags for the node's Node.js runtime, e.g. --cpu-prof. */
  runtimeFlags: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = { txs: 60_000, wallets: 400, concurrency: 64, blockTime: 250, instant: false, memory: false, extraNodeArgs: [], runtimeFlags: [], watchers: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => Number(argv[++i]);
    if (a === '--txs') o.txs = next();
    else if (a === '--wallets') o.wallets = next();
    else if (a === '--concurrency') o.concurrency = next();
    else if (a === '--block-time') o.blockTime = next();
    else if (a === '--instant') o.instant = true;
    else if (a === '--memory') o.memory = true;
    else if (a === '--watchers') o.watchers = next();
    else if (a === '--node-flag') o.runtimeFlags.push(argv[++i]);
    else if (a === '--') {
      o.extraNodeArgs = argv.slice(i + 1);
      i = argv.length;
    } else throw new Error(`unknown option ${a}`);
  }
  if (o.wallets < o.concurrency) throw new Error('--wallets must be at least --concurrency (one in-flight transaction per wallet keeps seq order)');
  return o;
}

/** Verifications per second of one function over `items`, for about `ms` milliseconds. */
function rate(items: number, fn: (i: number) => boolean, ms = 1000): number {
  for (let i = 0; i < Math.min(items, 200); i++) if (!fn(i)) throw new Error('verification failed in setup');
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) for (let i = 0; i < 50; i++, n++) fn(n % items);
  return n / ((performance.now() - start) / 1000);
}

function verificationCeiling(): { nativeRaw: number; nativeBsig: number; nobleRaw: number; nobleBsig: number } {
  const key = createHash('sha256').update('bench verify').digest();
  const signer = nativeSigner(key);
  const body = randomBytes(116);
  const bsigs = Array.from({ length: 256 }, (_, i) => decodeBsig(signBsig(body, signer, { timestamp: 1_700_000_000_000 + i })));
  const digests = bsigs.map((b) => bsigDigest(b, body));
  const compact = bsigs.map((b) => secp256k1.Signature.fromBytes(b.signature, 'der').toBytes('compact'));
  return {
    nativeRaw: rate(256, (i) => nativeVerifyDigest(compact[i], digests[i], signer.publicKey)),
    nativeBsig: rate(256, (i) => verifyDecodedBsig(bsigs[i], body, { verifier: nativeVerifyDigest }).valid),
    nobleRaw: rate(256, (i) => secp256k1.verify(compact[i], digests[i], signer.publicKey, { prehash: false, lowS: false }), 1500),
    nobleBsig: rate(256, (i) => verifyDecodedBsig(bsigs[i], body).valid, 1500),
  };
}

function procCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, clock ticks of 10 ms
}

function request(agent: http.Agent, port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const cpu = cpus();
  console.log(
    `machine: ${cpu[0]?.model.trim()}, ${cpu.length} cores, Node ${process.version}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${new Date().toISOString()}`,
  );

  const ceiling = verificationCeiling();
  console.log('\nsignature verification, one core (BSig = decode DER, digest, verify):');
  console.log(`  libsecp256k1 (secp256k1 npm, native)   ${ceiling.nativeRaw.toFixed(0).padStart(7)} verifies/s raw, ${ceiling.nativeBsig.toFixed(0).padStart(7)} /s as BSig`);
  console.log(`  @noble/curves                          ${ceiling.nobleRaw.toFixed(0).padStart(7)} verifies/s raw, ${ceiling.nobleBsig.toFixed(0).padStart(7)} /s as BSig`);

  // Wallets funded at genesis, with keys derived from a fixed seed.
  const chain = 1;
  const wallets = Array.from({ length: o.wallets }, (_, i) => {
    const key = createHash('sha256').update(`bench wallet ${i}`).digest();
    const signer = nativeSigner(key);
    return { signer, address: makeAddress({ group: 10, block: chain, wallet: 1000 + i }) };
  });
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      chain,
      accounts: 0,
      difficulty: 0,
      fees: { SK: { base: 1, baseextra: 64, kb: 1000 } },
      wallets: wallets.map((w) => ({ address: '0x' + bytesToHex(w.address), publicKey: bytesToHex(w.signer.publicKey), amount: { SK: '1000000000000' } })),
      limits: { maxPending: 1_000_000, maxBlockTxs: 20_000 },
    }),
  );

  console.log(`\nsigning ${o.txs} transfers from ${o.wallets} wallets ...`);
  const t0 = Date.now();
  const perWallet = Math.ceil(o.txs / o.wallets);
  // txs[w][j]: wallet w's j-th transfer (seq j+1), to the next wallet.
  const txs = wallets.map((w, wi) =>
    Array.from({ length: perWallet }, (_, j) => {
      const t = t0 + j;
      const body = genericBody({
        from: w.address,
        to: wallets[(wi + 1) % wallets.length].address,
        seq: j + 1,
        timestamp: t,
        payload: [
          { purpose: 'transfer', currency: 'SK', amount: 1 },
          { purpose: 'srcfee', currency: 'SK', amount: 10 },
        ],
      });
      return postRequest('127.0.0.1', '/api/tx/new', JSON.stringify({ tx: bytesToBase64(encodeTx({ body, sigs: [signBsig(body, w.signer, { timestamp: t })] })) }));
    }),
  );
  const total = perWallet * o.wallets;
  console.log(
    `  ${total} signed in ${((Date.now() - t0) / 1000).toFixed(1)} s; body ${
      genericBody({
        from: wallets[0].address,
        to: wallets[1].address,
        seq: 1,
        timestamp: t0,
        payload: [
          { purpose: 'transfer', currency: 'SK', amount: 1 },
          { purpose: 'srcfee', currency: 'SK', amount: 10 },
        ],
      }).length
    } bytes, request ${txs[0][0].length} bytes with headers`,
  );

  const args = ['--config', configFile, '--port', '0', '--log-level', 'warn', o.memory ? '--memory' : '--data-dir', ...(o.memory ? [] : [join(dir, 'data')])];
  args.push(...(o.instant ? ['--instant'] : ['--block-time', String(o.blockTime)]), ...o.extraNodeArgs);
  const { child, url, port } = await spawnBenchNode(args, o.runtimeFlags);
  console.log(`node: ${url} (${o.instant ? 'instant blocks' : `block time ${o.blockTime} ms`}, ${o.memory ? 'in memory' : 'LevelDB'}), ${o.concurrency} connections`);

  // Watchers take the heaviest subscriptions: every block in full and every result.
  let streamed = 0;
  const watchers = await Promise.all(
    Array.from({ length: o.watchers }, async () => {
      const socket = new WebSocket(url.replace(/^http/, 'ws') + '/api/ws');
      await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
      socket.on('message', () => streamed++);
      socket.send('{"sub":"block"}');
      socket.send('{"sub":"tx"}');
      return socket;
    }),
  );

  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const connections = await Promise.all(Array.from({ length: o.concurrency }, () => RawConnection.open(port)));

  const latencies = new Float64Array(total);
  const errors = new Map<string, number>();
  let accepted = 0;
  let sent = 0;
  const nodeCpu0 = procCpuSeconds(child.pid!);
  const selfCpu0 = process.cpuUsage();
  const start = performance.now();
  const startWall = Date.now();
  // Slot k sends the transactions of wallets k, k+C, ... in turn: one in flight per wallet.
  await Promise.all(
    Array.from({ length: o.concurrency }, async (_, k) => {
      const mine = wallets.map((_, i) => i).filter((i) => i % o.concurrency === k);
      for (let j = 0; j < perWallet; j++) {
        for (const w of mine) {
          const t = performance.now();
          const res = await connections[k].request(txs[w][j]);
          latencies[sent++] = performance.now() - t;
          if (res.status === 200) accepted++;
          else {
            const code = (JSON.parse(res.body) as { error?: string }).error ?? String(res.status);
            errors.set(code, (errors.get(code) ?? 0) + 1);
          }
        }
      }
    }),
  );
  const sendSeconds = (performance.now() - start) / 1000;
  // Included: poll until nothing is pending.
  let height: number;
  for (;;) {
    const status = JSON.parse((await request(agent, port, 'GET', '/api/node/status')).text).status;
    height = status.blockchain.header.height;
    if (status.pending === 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const includeSeconds = (performance.now() - start) / 1000;
  const nodeCpu = procCpuSeconds(child.pid!) - nodeCpu0;
  const selfCpu = process.cpuUsage(selfCpu0);

  // Count what the blocks hold (and how much failed) from the chain itself.
  let included = 0;
  let failed = 0;
  let firstBlockTime = 0;
  let lastBlockTime = 0;
  for (let h = 1; h <= height; h++) {
    const block = JSON.parse((await request(agent, port, 'GET', `/api/blockinfo/${JSON.parse((await request(agent, port, 'GET', `/api/blockhash/${h}`)).text).blockhash}`)).text).block;
    included += block.txs_count;
    failed += Object.keys(block.failed).length;
    if (h === 1) firstBlockTime = block.time;
    lastBlockTime = block.time;
  }
  // Every wallet's seq must have reached its last transfer: nothing accepted was lost.
  let behind = 0;
  for (const w of wallets) {
    const { seq } = JSON.parse((await request(agent, port, 'GET', `/api/address/0x${bytesToHex(w.address)}/seq`)).text);
    if (seq !== perWallet) behind++;
  }
  for (const w of watchers) w.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  agent.destroy();
  for (const c of connections) c.close();
  rmSync(dir, { recursive: true, force: true });

  const sorted = latencies.subarray(0, sent).sort();
  console.log(`\nresults (${total} transfers):`);
  console.log(`  accepted   ${accepted} in ${sendSeconds.toFixed(2)} s = ${(accepted / sendSeconds).toFixed(0)} tx/s${errors.size ? `; rejected ${JSON.stringify(Object.fromEntries(errors))}` : ''}`);
  console.log(
    `  included   ${included - failed} ok + ${failed} failed in ${height} blocks, all in by ${includeSeconds.toFixed(2)} s = ${((included - failed) / includeSeconds).toFixed(0)} tx/s (blocks ${firstBlockTime - startWall} .. ${lastBlockTime - startWall} ms after the first submit)`,
  );
  if (o.watchers) console.log(`  stream     ${o.watchers} watcher(s) of full blocks and every result: ${streamed} messages`);
  console.log(`  wallets    ${behind === 0 ? `all ${o.wallets} at seq ${perWallet}` : `${behind} of ${o.wallets} NOT at seq ${perWallet}`}`);
  console.log(`  submit latency  p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms`);
  const generatorCpu = (selfCpu.user + selfCpu.system) / 1e6;
  console.log(
    `  CPU  node ${nodeCpu.toFixed(1)} s = ${((nodeCpu / total) * 1e6).toFixed(0)} us per transfer (${((nodeCpu / includeSeconds) * 100).toFixed(0)} % of a core); load generator ${generatorCpu.toFixed(1)} s = ${((generatorCpu / total) * 1e6).toFixed(0)} us per transfer`,
  );
  console.log(
    `  load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
