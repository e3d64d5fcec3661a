// The bench's first-proof section: what a wallet waits for. Fresh Node processes mine one
// register proof each (default difficulty 16), on the same bodies as a plain node:crypto
// loop in fresh processes of its own, the contenders alternating body by body so they share
// the machine's state. Every figure is measured from just before the process is spawned to
// the moment it holds the nonce (the child reports that instant on the shared clock), so
// Node's own start, the imports, the WASM compile and the threads' start are all inside.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bytesToHex } from '../bytes.js';
import { registerBody } from '../codec/body-register.js';
import { generateSecretKey, publicKeyOf } from '../crypto/keys.js';

export interface FirstProofStats {
  /** Exec to nonce, per body, ms. */
  samplesMs: number[];
  medianMs: number;
  p90Ms: number;
  /** Inside the process: the import alone (tpkit contenders), median ms. */
  importMedianMs?: number;
  /** Inside the process: the first mineRegister call alone, median ms. */
  mineMedianMs?: number;
  mineP90Ms?: number;
}

export interface FirstProofContender extends FirstProofStats {
  name: string;
  /** medianMs over the node:crypto loop's. */
  ratio: number | null;
  /**
   * The median over bodies of this contender's time over the loop's on the same body. Both
   * search from nonce 0 on one thread (a difficulty-16 search does not wake the pool), so on
   * one body they hash the same nonces: this ratio is free of the luck of the draw that moves
   * `ratio` from one set of bodies to the next.
   */
  pairedRatio: number | null;
}

export interface FirstProofReport {
  difficulty: number;
  bodies: number;
  /** A bare `node` printing the clock: the floor every process pays. */
  bareNode: FirstProofStats;
  contenders: FirstProofContender[];
}

const DIST = new URL('../', import.meta.url);

/** tpkit, from an entry point, with the documented defaults. */
const tpkitScript = (entry: string) => `
const t0 = performance.now();
const { mineRegister } = await import(${JSON.stringify(new URL(entry, DIST).href)});
const t1 = performance.now();
const [key, timestamp, difficulty] = process.argv.slice(1);
const result = await mineRegister({ publicKeys: [Buffer.from(key, 'hex')], timestamp: Number(timestamp), difficulty: Number(difficulty) });
const t2 = performance.now();
console.log(JSON.stringify({ at: performance.timeOrigin + t2, importMs: t1 - t0, mineMs: t2 - t1, nonce: String(result.nonce) }));
process.exit(0);
`;

/** tpkit's root from CommonJS: require() of the ES module (Node 20.19+), then the same call. */
const tpkitRequireScript = (entry: string) => `
const t0 = performance.now();
const { mineRegister } = require(${JSON.stringify(fileURLToPath(new URL(entry, DIST)))});
const t1 = performance.now();
const [key, timestamp, difficulty] = process.argv.slice(1);
mineRegister({ publicKeys: [Buffer.from(key, 'hex')], timestamp: Number(timestamp), difficulty: Number(difficulty) }).then((result) => {
  const t2 = performance.now();
  console.log(JSON.stringify({ at: performance.timeOrigin + t2, importMs: t1 - t0, mineMs: t2 - t1, nonce: String(result.nonce) }));
  process.exit(0);
});
`;

/** The naive miner: a createHash('sha512') loop over the nonce, from 0. */
const cryptoScript = `
import { createHash } from 'node:crypto';
const [hex, difficulty] = process.argv.slice(1);
const body = Buffer.from(hex, 'hex');
const bits = Number(difficulty);
const full = bits >> 3, rest = bits & 7;
for (let nonce = 0n; ; nonce++) {
  body.writeBigUInt64BE(nonce, body.length - 8);
  const h = createHash('sha512').update(body).digest();
  let ok = true;
  for (let i = 0; i < full && ok; i++) ok = h[i] === 0;
  if (ok && rest && h[full] >> (8 - rest)) ok = false;
  if (ok) {
    console.log(JSON.stringify({ at: performance.timeOrigin + performance.now(), nonce: String(nonce) }));
    process.exit(0);
  }
}
`;

const bareScript = `console.log(JSON.stringify({ at: performance.timeOrigin + performance.now() }));`;

interface ChildReport {
  at: number;
  importMs?: number;
  mineMs?: number;
  nonce?: string;
}

function runChild(script: string, args: string[], type: 'module' | 'commonjs' = 'module'): Promise<{ ms: number; report: ChildReport }> {
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.timeOrigin + performance.now();
    execFile(process.execPath, [`--input-type=${type}`, '-e', script, ...args], { timeout: 60_000, encoding: 'utf8' }, (err, stdout) => {
      if (err) return reject(err);
      try {
        const report = JSON.parse(stdout.trim().split('\n').pop() ?? '') as ChildReport;
        resolve({ ms: report.at - spawnedAt, report });
      } catch (parseError) {
        reject(parseError);
      }
    });
  });
}

export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  // Nearest rank: the smallest value with at least q of the samples at or below it.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function stats(samples: number[], reports: ChildReport[] = []): FirstProofStats {
  const out: FirstProofStats = { samplesMs: samples, medianMs: percentile(samples, 0.5), p90Ms: percentile(samples, 0.9) };
  const imports = reports.map((r) => r.importMs).filter((x): x is number => x !== undefined);
  const mines = reports.map((r) => r.mineMs).filter((x): x is number => x !== undefined);
  if (imports.length) out.importMedianMs = percentile(imports, 0.5);
  if (mines.length) {
    out.mineMedianMs = percentile(mines, 0.5);
    out.mineP90Ms = percentile(mines, 0.9);
  }
  return out;
}

/** One body per round; in each round every contender runs once, in turn. */
export async function measureFirstProofs(bodies: number, difficulty: number, onStep: (what: string) => void): Promise<FirstProofReport> {
  const contenders = [
    { name: "tpkit/mine (import { mineRegister } from 'tpkit/mine')", script: tpkitScript('pow/mine-standalone.js'), tpkit: true },
    { name: "tpkit (import { mineRegister } from 'tpkit')", script: tpkitScript('index.js'), tpkit: true },
    { name: "tpkit from CommonJS (require('tpkit'))", script: tpkitRequireScript('index.js'), tpkit: true, type: 'commonjs' as const },
    { name: "node:crypto createHash('sha512') loop", script: cryptoScript, tpkit: false },
  ];
  const samples = contenders.map(() => [] as number[]);
  const reports = contenders.map(() => [] as ChildReport[]);
  const bare: number[] = [];
  for (let i = 0; i < bodies; i++) {
    // A one-key register body, as a wallet mines it.
    const key = publicKeyOf(generateSecretKey());
    const timestamp = Date.now();
    const body = registerBody({ publicKeys: [key], timestamp, nonce: 0n });
    onStep(`first proof, body ${i + 1}/${bodies}: bare node`);
    bare.push((await runChild(bareScript, [])).ms);
    for (const [c, contender] of contenders.entries()) {
      onStep(`first proof, body ${i + 1}/${bodies}: ${contender.name}`);
      const args = contender.tpkit ? [bytesToHex(key), String(timestamp), String(difficulty)] : [bytesToHex(body), String(difficulty)];
      const { ms, report } = await runChild(contender.script, args, 'type' in contender ? contender.type : 'module');
      samples[c].push(ms);
      reports[c].push(report);
    }
  }
  const loop = samples[contenders.length - 1];
  const reference = percentile(loop, 0.5);
  const paired = (mine: number[]) =>
    loop.every((ms) => ms > 0)
      ? percentile(
          mine.map((ms, i) => ms / loop[i]),
          0.5,
        )
      : null;
  return {
    difficulty,
    bodies,
    bareNode: stats(bare),
    contenders: contenders.map((c, i) => {
      const s = stats(samples[i], reports[i]);
      return { name: c.name, ...s, ratio: reference > 0 ? s.medianMs / reference : null, pairedRatio: paired(samples[i]) };
    }),
  };
}
