// `tpkit send` against a node that makes blocks only on demand names `tpkit dev mine` at once
// instead of waiting in silence; running that command includes the transfer, and send ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit, TPKIT_MAIN } from '../helpers/cli-run.js';
import { spawnNode } from '../helpers/node-process.js';

test('send on a mine-on-demand node: the note names tpkit dev mine, and following it includes the transfer', async () => {
  const node = await spawnNode(['--memory', '--port', '0', '--mine-on-demand', '--difficulty', '0', '--log-level', 'warn']);
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-on-demand-'));
  try {
    const [from, to] = (JSON.parse((await runTpkit(['accounts', '--json', '--node', node.url])).out) as { address: string; secretKey: string }[]).slice(0, 2);
    const key = join(dir, 'dev.key');
    assert.is((await runTpkit(['keygen', '--import', '--plain', '--out', key], { stdin: from.secretKey })).code, 0);
    const send = spawn(process.execPath, [TPKIT_MAIN, 'send', '--key', key, '--from', from.address, '--to', to.address, '--amount', '5', '--currency', 'SK', '--node', node.url]);
    let out = '';
    let err = '';
    send.stdout.on('data', (d) => (out += d));
    const noted = new Promise<void>((resolve) =>
      send.stderr.on('data', (d) => {
        err += d;
        if (/tpkit dev mine/.test(err)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => send.on('close', resolve));
    await Promise.race([noted, exited]);
    assert.match(err, /note: this node makes blocks only on demand: run `tpkit dev mine --node http:\/\/127\.0\.0\.1:\d+` to include the transfer \(or send with --no-wait\)/);
    const mined = await runTpkit(['dev', 'mine', '--node', node.url]);
    assert.is(mined.code, 0, mined.err);
    assert.is(await exited, 0, err);
    assert.match(out, /block {4}[0-9A-F]{64} \(included\)/);
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
