// The progress display: drawn at once on a terminal, then at most every 100 ms, never on a
// pipe (fake clock and stream); and `tpkit register` and `tpkit mine` on a real terminal (a
// pty from util-linux `script`) showing their progress from the search's first report.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnTpkit } from '../helpers/cli-run.js';
import { Progress, startingStatus } from '../../src/cli/progress.js';
import { startTestNode } from '../helpers/node-helpers.js';

/** Commands still running when a test ends: stopped in its finally. */
const after: (() => void)[] = [];

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = { isTTY, columns: 60, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

test('the first update draws at once; later ones at most every 100 ms; finish erases the line', () => {
  let now = 0;
  const { stream, writes } = fakeStream(true);
  const bar = new Progress({ label: 'mine', total: 100, width: 10, stream, clock: () => now });
  bar.update(10, 'mining');
  assert.is(writes.length, 1, 'drawn on the first update, at time 0');
  assert.is(writes[0], '\r\x1b[2Kmine [#---------]  10% mining');
  now = 99;
  bar.update(50);
  assert.is(writes.length, 1, 'not redrawn within 100 ms');
  now = 100;
  bar.update(50);
  assert.is(writes.length, 2);
  assert.is(writes[1], '\r\x1b[2Kmine [#####-----]  50% mining');
  bar.finish();
  assert.is(writes[2], '\r\x1b[2K');
});

test('before the first hash the status says the miner is starting, with no rate or ETA', () => {
  assert.is(startingStatus(850), 'starting the miner (workers, WebAssembly)  850 ms');
  assert.not.match(startingStatus(0), /H\/s|ETA|∞/);
});

test('a long status is cut to the terminal width; nothing is drawn on a pipe', () => {
  const tty = fakeStream(true);
  new Progress({ stream: tty.stream, clock: () => 0 }).status('x'.repeat(200));
  assert.is(tty.writes[0], `\r\x1b[2K|${' '}${'x'.repeat(57)}`);
  const pipe = fakeStream(false);
  const bar = new Progress({ stream: pipe.stream, total: 10, clock: () => 0 });
  bar.update(5, 'mining');
  bar.finish('done');
  assert.is(bar.enabled, false);
  assert.equal(pipe.writes, []);
});

/** Runs the CLI on a pseudo-terminal; resolves with everything it drew and its exit code. */
function onTerminal(args: string[], env: Record<string, string>, until: RegExp) {
  const child = spawnTpkit(args, { env: { ...process.env, ...env }, tty: true });
  let screen = '';
  const seen = new Promise<void>((resolve) => {
    // Not a speed limit: only keeps a command that never draws from hanging the suite.
    setTimeout(resolve, 60_000).unref();
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (until.test(screen)) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // A command that ends (or a `script` that fails to start) before drawing also ends the wait.
  child.on('error', (err) => (screen += String(err)));
  // Killing `script` closes the terminal, which hangs up the command under it.
  const stop = () => child.exitCode === null && child.kill('SIGKILL');
  return { seen: Promise.race([seen, exited]), exited, stop, ctrlC: () => child.stdin.write('\x03'), screen: () => screen };
}

test('register on a terminal shows the mining bar from the first report, then Ctrl-C stops it (exit 130)', async () => {
  // 40 bits: the search never ends by itself, so the test decides when it stops.
  const node = await startTestNode({ difficulty: 40 });
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-progress-'));
  const env = { TPKIT_PASSPHRASE: 'a passphrase for tests', TPKIT_NODE: node.url };
  try {
    const keygen = onTerminal(['keygen', '--out', join(dir, 'w.key')], env, /public key/);
    assert.is(await keygen.exited, 0, keygen.screen());
    const bar = /\[[#-]{10}\]\s+\d+% [\d. kMG]+H\/s  [\d. kMG]+H  ([^ ]+ [^ ]+)  ETA median/;
    const run = onTerminal(['register', '--key', join(dir, 'w.key'), '--threads', '1'], env, bar);
    after.push(run.stop);
    await run.seen;
    assert.match(run.screen(), bar, 'the bar is drawn');
    // The search reports every 100 ms, so the bar's first figure is from its first second.
    assert.match(bar.exec(run.screen())![1], /^\d+(\.\d+)? ms$/, run.screen());
    // before the first hash the line says the miner is starting, never a rate of 0 or an endless ETA
    assert.not.match(run.screen(), /(^|[^\d.])0H\/s|ETA median ∞|∞/, run.screen());
    run.ctrlC();
    assert.is(await run.exited, 130, run.screen());
    assert.match(run.screen(), /tpkit register: interrupted/);
  } finally {
    for (const stop of after.splice(0)) stop();
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('mine on a terminal shows its status from the first report; Ctrl-C stops it (exit 130)', async () => {
  const status = /mining [|/\\-] [\d. kMG]+H\/s, [\d. kMG]+ hashes, ([^ ]+ [^ ]+) \(median/;
  const run = onTerminal(['mine', '--difficulty', '40', '--pubkey', '02' + 'ab'.repeat(32), '--threads', '1'], {}, status);
  try {
    await run.seen;
    assert.match(run.screen(), status, 'the status is drawn');
    assert.match(status.exec(run.screen())![1], /^\d+(\.\d+)? ms$/, run.screen());
    run.ctrlC();
    assert.is(await run.exited, 130, run.screen());
    assert.match(run.screen(), /tpkit mine: interrupted/);
  } finally {
    run.stop();
  }
});

test.run();
