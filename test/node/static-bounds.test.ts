// --static bounded: a file is streamed a chunk at a time as the reader takes it, so six readers
// that take nothing make the node read little of a large file, and are cut off at the stall
// limit; a FIFO is refused without a thread of libuv's pool waiting on it; dotfiles and the
// node's data dir are not served unless --static-dotfiles asks (the data dir never); a regular
// file still arrives byte for byte with its type and length.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/node/base/log.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'tpkit-static-bounds-'));
const BIG = 64 * 1024 * 1024;
const blob = randomBytes(3 * 1024 * 1024 + 17);
let node: TestNode;

test.before(async () => {
  const fd = openSync(join(root, 'big.bin'), 'w');
  ftruncateSync(fd, BIG); // sparse: no disk space, read as zeros
  closeSync(fd);
  writeFileSync(join(root, 'blob.wasm'), blob);
  writeFileSync(join(root, '.env'), 'SECRET=1\n');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'sub', '.hidden'), 'hidden');
  execFileSync('mkfifo', [join(root, 'pipe')]);
  node = await startTestNode({ staticDir: root, memory: false, dataDir: join(root, 'data') });
});

test.after(async () => {
  await node?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Bytes this process has asked the kernel to read, files and sockets alike (Linux). */
function bytesReadByProcess(): number {
  const io = readFileSync('/proc/self/io', 'utf8');
  const m = /^rchar: (\d+)$/m.exec(io);
  assert.ok(m, io);
  return Number(m[1]);
}

test('six readers of a 64 MiB file that take nothing: the node reads a few chunks for each, not the file, and cuts them off at the stall limit', async () => {
  // A node of its own with a short stall limit: the other tests' readers, slowed by a loaded
  // machine, are not cut off. It says when it cuts a reader off (a paused socket would not see the end).
  let onLog = (_line: string) => {};
  const stalling = await startTestNode({ staticDir: root, limits: { stallTimeoutMs: 1000 } }, { logger: createLogger('warn', (line) => onLog(line)) });
  const before = bytesReadByProcess();
  const port = new URL(stalling.url).port;
  let cut = 0;
  const allCut = new Promise<void>((resolve, reject) => {
    // The bound is the test's own, far above the 1 s stall limit: a node that never cuts them off fails here.
    const bound = setTimeout(() => reject(new Error(`the node cut off ${cut} of 6 readers that took nothing`)), 120_000);
    onLog = (line) => {
      if (/GET \/app\/big\.bin: closed the connection of .*, which took nothing for 1000 ms/.test(line) && ++cut === 6) {
        clearTimeout(bound);
        resolve();
      }
    };
  });
  const sockets = Array.from({ length: 6 }, () => {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.on('error', () => {}); // reset by the node once cut off
    socket.on('connect', () => {
      socket.write(`GET /app/big.bin HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      socket.pause(); // takes nothing: what the node sends waits in the socket buffers
    });
    return socket;
  });
  try {
    await allCut;
  } finally {
    for (const socket of sockets) socket.destroy();
    await stalling.close();
  }
  const read = bytesReadByProcess() - before;
  // Each answer read at most what the loopback socket buffers took plus one chunk; the whole
  // file six times over would be 384 MiB.
  assert.ok(read < 6 * 12 * 1024 * 1024, `the node read ${read} bytes for six stalled readers`);
});

test('a FIFO is refused without opening it, also more of them at once than libuv has threads; a file is served meanwhile', async () => {
  const pipes = await Promise.all(Array.from({ length: 6 }, () => fetch(`${node.url}/app/pipe`, { signal: AbortSignal.timeout(120_000) })));
  for (const res of pipes) {
    assert.is(res.status, 404);
    await res.arrayBuffer();
  }
  const file = await fetch(`${node.url}/app/blob.wasm`, { signal: AbortSignal.timeout(120_000) });
  assert.is(file.status, 200);
  assert.equal(Buffer.from(await file.arrayBuffer()), blob);
});

test('dotfiles and the data dir are not served; --static-dotfiles serves dotfiles, never the data dir', async () => {
  for (const path of ['/app/.env', '/app/.git/config', '/app/sub/.hidden', '/app/%2Eenv', '/app/data/ledger/CURRENT']) {
    const res = await fetch(node.url + path);
    assert.is(res.status, 404, path);
    assert.not.match(await res.text(), /SECRET=1|\[core\]|"hidden"|^hidden$|MANIFEST/, path);
  }
  const open = await startTestNode({ staticDir: root, staticDotfiles: true, dataDir: join(root, 'data') });
  try {
    assert.is(await (await fetch(`${open.url}/app/.env`)).text(), 'SECRET=1\n');
    assert.is(await (await fetch(`${open.url}/app/.git/config`)).text(), '[core]\n');
    assert.is((await fetch(`${open.url}/app/data/ledger/CURRENT`)).status, 404);
  } finally {
    await open.close();
  }
});

test('a regular file streams byte for byte, with its type and length; HEAD has the length and no body; a Range is answered whole, as before', async () => {
  const res = await fetch(`${node.url}/app/blob.wasm`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/wasm');
  assert.is(res.headers.get('content-length'), String(blob.length));
  assert.is(res.headers.get('cross-origin-embedder-policy'), 'require-corp');
  assert.equal(Buffer.from(await res.arrayBuffer()), blob);
  const head = await fetch(`${node.url}/app/blob.wasm`, { method: 'HEAD' });
  assert.is(head.headers.get('content-length'), String(blob.length));
  assert.is((await head.arrayBuffer()).byteLength, 0);
  const ranged = await fetch(`${node.url}/app/blob.wasm`, { headers: { range: 'bytes=0-9' } });
  assert.is(ranged.status, 200);
  assert.is((await ranged.arrayBuffer()).byteLength, blob.length);
  const big = await fetch(`${node.url}/app/big.bin`);
  const bytes = Buffer.from(await big.arrayBuffer());
  assert.is(bytes.length, BIG);
  assert.ok(bytes.every((b) => b === 0));
});

test.run();
