// An acknowledged transaction is never lost: the node process is killed with SIGKILL under
// load, at random moments and at the very first byte of a 200, again and again on the same
// data directory; after each restart every txid it answered 200 for is known and ends
// included or failed.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeAddress } from '../../src/codec/address.js';
import { devAccounts } from '../../src/node/ledger/genesis.js';
import { fee, pay, testConfig, transfer } from '../helpers/node-helpers.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';

const KILLS = 20;
const STREAMS = 6;

function startChild(dir: string): Promise<NodeProcess> {
  return spawnNode(['--data-dir', dir, '--port', '0', '--instant', '--difficulty', '0', '--accounts', String(STREAMS), '--verify-threads', '0', '--log-level', 'error']);
}

/**
 * Sends one POST on a fresh keep-alive socket at a time and reports the first bytes of each
 * answer as soon as they arrive, before the answer is complete.
 */
class Submitter {
  private socket!: net.Socket;
  private buffer = '';
  private onAnswer?: (text: string) => void;
  private onFail?: (err: Error) => void;

  static open(port: number, onFirstBytes: (chunk: string) => void): Promise<Submitter> {
    const s = new Submitter();
    return new Promise((resolve, reject) => {
      s.socket = net.connect(port, '127.0.0.1', () => resolve(s));
      s.socket.setNoDelay(true);
      s.socket.once('error', reject);
      s.socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (s.buffer === '') onFirstBytes(text);
        s.buffer += text;
        const end = s.buffer.indexOf('\r\n\r\n');
        const length = /content-length: *(\d+)/i.exec(s.buffer)?.[1];
        if (end >= 0 && length !== undefined && s.buffer.length >= end + 4 + Number(length)) {
          const answer = s.buffer;
          s.buffer = '';
          s.onAnswer?.(answer);
        }
      });
      s.socket.on('error', (err) => s.onFail?.(err));
      s.socket.on('close', () => s.onFail?.(new Error('closed')));
    });
  }

  post(json: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.onAnswer = resolve;
      this.onFail = reject;
      this.socket.write(`POST /api/tx/new HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

const txidIn = (answer: string) => /"txid":"([^"]+)"/.exec(answer)?.[1];

async function statusOf(port: number, txid: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/tx/status/${txid}`);
  return { status: res.status, body: await res.json() };
}

/** Every acknowledged txid is known to the restarted node and ends with a result. */
async function checkAcknowledged(port: number, acknowledged: string[]): Promise<{ ok: number; failed: number }> {
  let ok = 0;
  let failed = 0;
  for (let i = 0; i < acknowledged.length; i += 32) {
    await Promise.all(
      acknowledged.slice(i, i + 32).map(async (txid) => {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { status, body } = await statusOf(port, txid);
          assert.is(status, 200, `acknowledged ${txid} is known after the restart (${JSON.stringify(body)})`);
          if (body.res !== null) {
            if (body.res.ok === true) ok++;
            else if (body.res.error === true) failed++;
            else assert.unreachable(`unexpected status ${JSON.stringify(body.res)}`);
            return;
          }
          assert.ok(Date.now() < deadline, `${txid} still pending 10 s after the restart`);
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
  }
  return { ok, failed };
}

test(`SIGKILL ${KILLS} times under load, at random moments and at the first byte of a 200: no acknowledged transaction is lost`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-sigkill-'));
  const senders = devAccounts({ ...testConfig(), accounts: STREAMS });
  const sink = makeAddress({ group: 10, block: 1, wallet: 200 });
  // Seq only has to grow (gaps are allowed), so an attempt lost in a kill costs nothing.
  const seqs = senders.map(() => 0);
  let t = Date.now();
  let child = await startChild(dir);
  let totalAcknowledged = 0;
  let killedAtFirstByte = 0;
  try {
    for (let round = 0; round < KILLS; round++) {
      const acknowledged: string[] = [];
      const atFirstByte = round % 2 === 0;
      let answersToKill = 1 + Math.floor(Math.random() * 40);
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        child.proc.kill('SIGKILL');
      };
      const onFirstBytes = (chunk: string) => {
        // The kill lands before this process has even read the rest of the answer.
        if (atFirstByte && chunk.startsWith('HTTP/1.1 200') && --answersToKill === 0) {
          kill();
          killedAtFirstByte++;
        }
      };
      const submitters = await Promise.all(senders.map(() => Submitter.open(child.port, onFirstBytes)));
      const streams = senders.map(async (a, i) => {
        while (!killed) {
          const seq = ++seqs[i];
          const tx = transfer({ key: a.secretKey, from: a.address, to: sink, seq, t: ++t, payload: [pay(1), fee(3)] });
          let answer: string;
          try {
            answer = await submitters[i].post(JSON.stringify({ tx }));
          } catch {
            return;
          }
          assert.ok(answer.startsWith('HTTP/1.1 200'), answer);
          acknowledged.push(txidIn(answer)!);
        }
      });
      if (!atFirstByte) setTimeout(kill, Math.random() * 150);
      await Promise.all(streams);
      submitters.forEach((s) => s.close());
      await child.exited;

      child = await startChild(dir);
      const { ok, failed } = await checkAcknowledged(child.port, acknowledged);
      assert.is(ok + failed, acknowledged.length);
      assert.is(failed, 0, 'each transfer had a fresh seq and enough funds');
      totalAcknowledged += acknowledged.length;
    }
    assert.ok(killedAtFirstByte >= KILLS / 2, 'half the kills landed at the first byte of a 200');
    assert.ok(totalAcknowledged >= KILLS, `transactions were acknowledged between the kills (${totalAcknowledged})`);
    if (process.env.TPKIT_DEBUG) console.log({ totalAcknowledged, killedAtFirstByte });
  } finally {
    child.proc.kill('SIGTERM');
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
