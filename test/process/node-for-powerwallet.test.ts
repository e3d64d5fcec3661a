// `tpkit node --for powerwallet` as a user runs it: the node starts at difficulty 0 and prints,
// after its banner, the localStorage and .env.local lines naming its own URL.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnNode } from '../helpers/node-process.js';

test('--for powerwallet --difficulty 16: the lines name the running node, the register asks for 16 bits', async () => {
  // --port 0: a test cannot hold the profile's fixed port; the user's --port wins over it.
  const node = await spawnNode(['--for', 'powerwallet', '--difficulty', '16', '--memory', '--port', '0']);
  try {
    const settings = (await (await fetch(`${node.url}/api/settings`)).json()) as { settings: { current: { register?: { diff?: number } } } };
    assert.is(settings.settings.current.register?.diff, 16);
  } finally {
    await node.stop();
  }
  const out = node.stdout();
  assert.match(out, `localStorage.nodesList = '[{"address":"${node.url}","nodeId":"tpkit"}]'; localStorage.chainId = '1';`);
  assert.match(out, `VITE_FAUCET_THEPOWER_URL=${node.url}/faucet.html`);
  assert.match(out, 'Difficulty 16: the wallet registers only with tpkit/tssdk');
});

test('--for powerwallet alone: difficulty 0, so the unpatched wallet registers', async () => {
  const node = await spawnNode(['--for', 'powerwallet', '--memory', '--port', '0']);
  await node.stop();
  assert.match(node.stdout(), /Difficulty {2}0 bits of register proof of work \(off\)/);
  assert.match(node.stdout(), 'Difficulty 0: the wallet registers as it is.');
});

test.run();
