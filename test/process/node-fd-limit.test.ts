// A node at its open-file limit (ulimit -n 256) and a client holding 300 idle connections: the
// node says so in its log, closes idle connections to make room, and answers again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { TPKIT_MAIN as MAIN } from '../helpers/cli-run.js';

test('300 idle connections against ulimit -n 256: logged, survived, status answers while the client still holds its sockets', async () => {
  const command = `ulimit -n 256 && exec "${process.execPath}" "${MAIN}" node --memory --port 0 --log-level warn --accounts 0`;
  const proc = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const exited = new Promise((r) => proc.once('close', r));
  const sockets: Socket[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      proc.once('exit', (code) => reject(new Error(`node exited ${code}: ${err}`)));
      setTimeout(() => reject(new Error(`the node did not start within 60 s: ${err}`)), 60_000).unref();
    });
    const { hostname, port } = new URL(url);
    let closedByNode = 0;
    for (let i = 0; i < 300; i++) {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.on('close', () => closedByNode++);
      sockets.push(socket);
    }
    // The node answers again while this client still holds its 300 sockets open.
    const deadline = Date.now() + 60_000;
    let answered = false;
    while (!answered && Date.now() < deadline) {
      answered = await fetch(`${url}/api/node/status`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false);
      if (!answered) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(answered, 'the node answers');
    assert.match(err, /connections open, near the limit of 256 open files \(ulimit -n\)/);
    assert.ok(closedByNode > 0, 'idle connections were closed to make room');
  } finally {
    for (const s of sockets) s.destroy();
    proc.kill('SIGTERM');
    await exited;
  }
});

test.run();
