// `tpkit dev` as a developer types it, the real binary against a real `tpkit node` process:
// snapshot, revert, rollback, time, mine with an interval, state setting, faults, and the
// mistakes it refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { spawnNode } from '../helpers/node-process.js';

const FRESH = 'AA100000001677736914';

const tpkit = (...args: string[]) => runTpkit(args);

test('tpkit dev: snapshot, state setting, revert, rollback, time, mine, faults against a running node', async () => {
  const node = await spawnNode(['--memory', '--port', '0', '--difficulty', '0', '--log-level', 'warn']);
  const dev = async (...args: string[]) => {
    const r = await tpkit('dev', ...args, '--node', node.url);
    assert.is(r.code, 0, `tpkit dev ${args.join(' ')}: ${r.err}`);
    return r.out;
  };
  try {
    assert.match(await dev('snapshot', 'clean'), /^snapshot 1 \(clean\) at height 1\n$/);
    assert.match(await dev('set-balance', FRESH, '900', '--currency', 'XYZ'), `${FRESH} holds 900 XYZ`);
    assert.match((await tpkit('balance', FRESH, '--node', node.url)).out, /900 XYZ/);
    assert.match(await dev('set-seq', FRESH, '12'), 'seq 12');
    assert.match(await dev('mine', '--blocks', '2', '--interval-ms', '60000'), /block 2 [0-9A-F]{64} \(0 txs\)\nblock 3 /);
    assert.match(await dev('time'), /\(\+120000 ms from the system clock\)/);
    assert.match(await dev('snapshot', '--list'), /^1 \(clean\)  height 1  taken /);
    assert.match(await dev('revert', 'clean'), /reverted to snapshot clean: height 1 /);
    assert.is((await tpkit('balance', FRESH, '--node', node.url)).code !== 0, true, 'the wallet is gone');
    assert.match(await dev('time', '--offset=-5000'), /\(-5000 ms from the system clock\)/);
    const json = JSON.parse(await dev('time', '--set', '2030-01-01T00:00:00Z', '--json'));
    assert.is(json.now >= Date.parse('2030-01-01T00:00:00Z'), true);
    await dev('mine', '--blocks', '3');
    assert.match(await dev('rollback', '2'), /rolled back to height 2 /);
    assert.match(await dev('faults', '--add', '{"path":"address","action":"error","status":502,"code":"NODE_INTERNAL","count":1}'), /1: any address error 502 NODE_INTERNAL, fired 0\/1/);
    const refused = await tpkit('balance', FRESH, '--node', node.url);
    assert.match(refused.err, /HTTP 502/);
    assert.match(await dev('faults', '--clear', 'all'), /no faults/);
    assert.match(await dev('create-wallet', '--address', FRESH), `wallet ${FRESH}`);

    for (const [args, message] of [
      [['revert', 'nope'], /No such snapshot \[API_ERROR\]|SNAPSHOT_NOT_FOUND|No such snapshot/],
      [['rollback', 'x'], /HEIGHT expected an integer/],
      [['time', '--offset', '1', '--set', '2'], /give --offset or --set, not both/],
      [['faults', '--add', 'nope'], /--add expected a JSON rule/],
      [['warp'], /unknown action 'warp'/],
    ] as const) {
      const r = await tpkit('dev', ...args, '--node', node.url);
      assert.is.not(r.code, 0, args.join(' '));
      assert.match(r.err, message, args.join(' '));
    }
  } finally {
    await node.stop();
  }
});

test.run();
